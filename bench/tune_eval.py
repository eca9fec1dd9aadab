"""Tune the evaluation's weights to positions scored by a teacher engine (Texel's method):
Fairy-Stockfish (USI), or HaChu (xboard) for Wa, which Fairy-Stockfish does not know.

Two steps, each deterministic (the same arguments give the same bytes and the same weights):

    .venv/bin/python bench/tune_eval.py positions --games 80 --seed 1 --depth 9 \\
        --play-nodes 2000 --workers 2 --out data/tuning/shogi.tsv
    .venv/bin/python bench/tune_eval.py fit --data data/tuning/shogi.tsv [--keep KEY ...]

    .venv/bin/python bench/tune_eval.py positions --variant wa --games-from LOG.jsonl ... \\
        --depth 8 --every 2 --workers 2 --out data/tuning/wa.tsv

``positions`` plays the teacher against itself (``go nodes``; HaChu: ``sd``) from seeded
random openings, or takes the games of ``bench/match.py --log`` files, and labels the quiet
positions with its score at a fixed depth (``bench/tune_positions.py``); the
file's header says which engine, which version and the command.  ``fit`` fits the piece values
on the board and in hand and the weights of ``engine/weights.py`` to them
(``bench/tune_fit.py``), reports the loss before and after on the games it fitted and on
every fifth game, which it held out, and prints the ``[engine.*]`` tables to put in the
variant file.  Whether the result plays better is for ``bench/match.py ab`` to say.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.match import FAIRY_STOCKFISH, HACHU, MAX_PLIES  # noqa: E402
from bench.match_log import read_games  # noqa: E402
from bench.tune_fit import Problem, current, descend, teacher_scale, toml_sections  # noqa: E402
from bench.tune_positions import GameSpec, Sample, label_game, teacher_name  # noqa: E402
from rules import VariantFileError, load_variant  # noqa: E402
from rules.variant import read_variant_file  # noqa: E402

HELD_OUT_EVERY = 5  # games whose number is a multiple of this are held out of the fit


def make_positions(args: argparse.Namespace, argv: Sequence[str]) -> int:
    protocol = "xboard" if args.variant == "wa" else "usi"
    command = args.teacher or (HACHU if protocol == "xboard" else FAIRY_STOCKFISH)
    teacher = tuple(shlex.split(command))
    played = logged_games(args.games_from, args.variant) or [((), 0.5)] * args.games
    specs = [
        GameSpec(
            args.variant,
            protocol,
            teacher,
            game,
            args.seed * 100_000 + game,
            args.opening_plies,
            args.play_nodes,
            args.play_depth,
            args.depth,
            args.skip,
            args.every,
            args.max_plies,
            *played[game],
        )
        for game in range(len(played))
    ]
    header = [
        f"# teacher: {teacher_name(protocol, teacher)} ({command})",
        "# command: bench/tune_eval.py " + shlex.join(argv),
        "# columns: sfen, teacher's score (cp, side to move), result (side to move), game",
    ]
    games: list[list[Sample]] = []
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for samples in pool.imap(label_game, specs, chunksize=1):  # in the games' order
            games.append(samples)
            print(f"game {len(games)}/{len(specs)}: {len(samples)} positions", flush=True)
    lines = header + [s.line() for game in games for s in game]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{sum(map(len, games))} positions from {len(specs)} games written to {args.out}")
    return 0


def logged_games(paths: Sequence[Path], variant: str) -> list[tuple[tuple[str, ...], float]]:
    """The moves and sente's result of each game of ``bench/match.py --log`` files in this
    variant that ended with a result (aborted ones are left out), in the files' order."""
    return [
        (game.moves, game.result if game.a_sente else 1 - game.result)
        for game in read_games(paths)
        if game.variant == variant and game.result is not None
    ]


def read_samples(path: Path) -> list[Sample]:
    """The samples of a positions file; ValueError naming the file and line if one is bad."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line and not line.startswith("#"):
            try:
                out.append(Sample.parse(line))
            except ValueError:
                raise ValueError(f"{path}:{number}: expected sfen, score, result, game") from None
    return out


def fit(args: argparse.Namespace) -> int:
    try:
        variant = (
            read_variant_file(args.variant_file)
            if args.variant_file
            else load_variant(args.variant)
        )
    except VariantFileError as exc:  # a bad file or an unknown variant: say which, no trace
        print(exc)
        return 2
    try:
        samples = [s for s in read_samples(args.data) if abs(s.teacher_cp) <= args.max_cp]
    except (OSError, ValueError) as exc:
        print(exc)
        return 2
    fitted = [s for s in samples if s.game % HELD_OUT_EVERY]
    held = [s for s in samples if not s.game % HELD_OUT_EVERY]
    if not fitted:
        print(f"{args.data}: no positions to fit (every fifth game is held out)")
        return 2
    scale = teacher_scale(fitted)
    share = args.result_share
    print(f"{len(fitted)} positions fitted, {len(held)} held out; teacher's scale K={scale:.0f}")
    train = Problem.build(variant, fitted, share, scale)
    test = Problem.build(variant, held, share, scale) if held else None
    start = current(variant, args.hand)
    k = scale if args.teacher_scale else train.fit_scale(start)
    print(f"engine's scale K={k:.0f}" + (" (the teacher's)" if args.teacher_scale else ""))
    unknown = [key for key in args.keep if key not in start]
    if unknown:
        print(f"not a parameter: {', '.join(unknown)} (known: {', '.join(start)})")
        return 2
    tuned = descend(train, start, k, args.passes, print, args.prior, args.keep)
    for name, problem in (("fitted", train), ("held out", test)):
        if problem is not None:
            before, after = problem.loss(start, k), problem.loss(tuned, k)
            print(f"loss on the {name} games: {before:.6f} before, {after:.6f} after")
    print()
    print(toml_sections(variant, tuned))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="step", required=True)
    pos = sub.add_parser("positions", help="play and label positions")
    pos.add_argument("--variant", default="shogi")
    pos.add_argument(
        "--teacher",
        help="the teacher's command: a USI engine (default Fairy-Stockfish), for Wa HaChu",
    )
    pos.add_argument("--games", type=int, default=80)
    pos.add_argument(
        "--games-from",
        type=Path,
        nargs="*",
        default=[],
        help="label the games of these match logs (JSON lines) instead of playing --games",
    )
    pos.add_argument("--seed", type=int, default=1)
    pos.add_argument("--opening-plies", type=int, default=8)
    pos.add_argument(
        "--play-nodes", type=int, default=2000, help="a USI teacher's nodes a move in its games"
    )
    pos.add_argument(
        "--play-depth", type=int, default=6, help="HaChu's depth a move in its games (Wa)"
    )
    pos.add_argument("--depth", type=int, default=9, help="the teacher's depth for a label")
    pos.add_argument("--skip", type=int, default=16, help="plies before the first label")
    pos.add_argument("--every", type=int, default=3, help="label every N-th position")
    pos.add_argument("--max-plies", type=int, default=MAX_PLIES)
    pos.add_argument("--workers", type=int, default=1)
    pos.add_argument("--out", type=Path, required=True)
    fitp = sub.add_parser("fit", help="fit the weights to labelled positions")
    fitp.add_argument("--variant", default="shogi")
    fitp.add_argument("--data", type=Path, required=True)
    fitp.add_argument(
        "--variant-file",
        type=Path,
        help="start from this variant file's values (default: the variant's shipped file)",
    )
    fitp.add_argument("--passes", type=int, default=8)
    fitp.add_argument(
        "--max-cp",
        type=int,
        default=1500,
        help="leave out positions the teacher scores beyond this (decided games)",
    )
    fitp.add_argument(
        "--hand",
        action="store_true",
        help="fit the values in hand apart (else they follow the board values)",
    )
    fitp.add_argument(
        "--keep",
        nargs="*",
        default=[],
        help="parameters left as they are, e.g. evaluation.tempo piece_values.P",
    )
    fitp.add_argument(
        "--prior", type=float, default=0.0, help="pull towards the engine's values (0: none)"
    )
    fitp.add_argument(
        "--teacher-scale",
        action="store_true",
        help="give the engine's scores the teacher's scale K instead of fitting it to the "
        "engine's starting values (for an evaluation far from the teacher's)",
    )
    fitp.add_argument(
        "--result-share", type=float, default=0.0, help="the game result's share of a target"
    )
    args = p.parse_args(argv)
    if args.step == "positions":
        return make_positions(args, argv)
    return fit(args)


if __name__ == "__main__":
    sys.exit(main())
