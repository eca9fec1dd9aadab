"""``komabot analyse FILE`` (alias ``analyze``): a game record analysed by an engine.

Reads any record ``import_record`` reads, evaluates every position at a fixed budget (the
built-in engine, or an external USI engine given by ``--engine``), and writes next to each
other in ``--out`` (default: the record's folder):

- ``<name>.analysed.kif`` (Standard Shogi, Shift-JIS) or ``<name>.analysed.kifu`` (Wa, UTF-8):
  the record with the evaluation, the class and the better move as ``*`` comments;
- ``<name>.analysis.png``: the evaluation graph;

and prints the summary: per player the accuracy, the counts and the three worst moves.
``--engine`` gets the ``setoption`` pairs of ``KOMABOT_USI_OPTIONS`` (engine.usi_client).
Progress goes to standard error: a bar on a terminal, a line every tenth of the game otherwise.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.cli.notation_cmds import read_input, result_words
from rules import SENTE, load_variant

if TYPE_CHECKING:
    from engine.analysis import GameAnalysis, MoveReview, PlayerSummary
    from rules.records import GameRecord

ORDER = 25
DEFAULT_MOVETIME_MS = 300
"""The budget per position when none is given (an 80-move game: 81 positions, ~25 s)."""
BAR_WIDTH = 30
USI_TIMEOUT = 30.0  # seconds an external engine may take to start, and beyond a move's time
SIDE_WORDS = ("sente", "gote")
CLASS_WORDS = ("Inaccuracy", "Mistake", "Blunder")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 10_000_000:
        raise argparse.ArgumentTypeError("must be between 1 and 10000000")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "analyse",
        aliases=["analyze"],
        help="analyse a game record: annotated KIF, evaluation graph PNG, summary",
    )
    p.add_argument("file", metavar="FILE", help="record file: KIF, KIFU, KI2, CSA or USI")
    p.add_argument("--out", type=Path, help="folder to write to (default: the record's)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument(
        "--movetime",
        type=_positive,
        metavar="MS",
        help=f"milliseconds per position (default {DEFAULT_MOVETIME_MS})",
    )
    budget.add_argument(
        "--nodes", type=_positive, metavar="N", help="nodes per position (repeatable results)"
    )
    p.add_argument(
        "--engine",
        metavar="COMMAND",
        help="an external USI engine's command line (default: Komabot's own engine)",
    )
    p.set_defaults(func=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> int:
    # imported here: every other komabot command starts without the engine, asyncio and the
    # graph
    from engine.analysis import Budget, BuiltinEvaluator, analyse_game
    from engine.analysis_kif import kif_comments
    from engine.analysis_usi import UsiEvaluator
    from engine.usi_client import OPTIONS_VARIABLE, EngineSpec, UsiEngineError, parse_options
    from rules.records import export_file, import_record

    data = read_input("analyse", args.file)
    if data is None:
        return 2
    record = import_record(data, args.file)
    for note in record.notes:
        print(f"komabot analyse: note: {note}", file=sys.stderr)
    out_dir = args.out if args.out is not None else Path(args.file).resolve().parent
    if not out_dir.is_dir():
        print(f"komabot analyse: {out_dir} is not a folder", file=sys.stderr)
        return 2
    budget = (
        Budget(nodes=args.nodes)
        if args.nodes is not None
        else Budget(movetime_ms=args.movetime or DEFAULT_MOVETIME_MS)
    )
    started = time.monotonic()
    progress = _progress(sys.stderr)
    try:
        if args.engine is not None:
            command = tuple(shlex.split(args.engine))
            if not command:
                raise ValueError("--engine: give the engine's command line")
            options = parse_options(os.environ.get(OPTIONS_VARIABLE, ""))
            spec = EngineSpec(command, options, USI_TIMEOUT)
            with UsiEvaluator(spec, budget, record.variant) as usi:
                analysis = analyse_game(
                    record.variant, record.start_sfen, record.moves, usi, on_progress=progress
                )
        else:
            own = BuiltinEvaluator(record.variant, budget)
            analysis = analyse_game(
                record.variant, record.start_sfen, record.moves, own, on_progress=progress
            )
    except (UsiEngineError, ValueError) as exc:
        print(f"\nkomabot analyse: {exc}", file=sys.stderr)
        return 1
    seconds = time.monotonic() - started
    stem = Path(args.file).name.rsplit(".", 1)[0] or "game"
    fmt = "kif" if record.variant == "shogi" else "kifu"
    annotated = export_file(record, fmt, kif_comments(analysis)).data
    written = [
        _write(out_dir / f"{stem}.analysed.{fmt}", annotated),
        _write(out_dir / f"{stem}.analysis.png", _graph(record, analysis)),
    ]
    if not all(written):
        return 1
    print(summary(record, analysis, seconds))
    return 0


def _write(path: Path, data: bytes) -> bool:
    try:
        path.write_bytes(data)
    except OSError as exc:
        print(f"komabot analyse: cannot write {path}: {exc.strerror}", file=sys.stderr)
        return False
    print(f"{path}: {len(data)} bytes")
    return True


def _progress(stream: TextIO) -> Callable[[int, int], None]:
    """A bar redrawn in place on a terminal; a line every tenth of the game otherwise."""
    terminal = stream.isatty()
    shown: set[int] = set()

    def show(done: int, total: int) -> None:
        if terminal:
            filled = BAR_WIDTH * done // total
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            end = "\n" if done == total else ""
            stream.write(f"\ranalysing [{bar}] {done} of {total} positions{end}")
            stream.flush()
            return
        tenth = 10 * done // total
        if tenth not in shown:
            shown.add(tenth)
            stream.write(f"analysing: {done} of {total} positions\n")
            stream.flush()

    return show


def _graph(record: GameRecord, analysis: GameAnalysis) -> bytes:
    from render.evaluation_graph import GraphWords, Mark, render_evaluation_graph

    marks = [Mark(r.ply, r.judgement.severity) for r in analysis.reviews if r.judgement.severity]
    words = GraphWords(
        title=f"{analysis.engine}, {analysis.budget.describe()}",
        sente=f"☗ {record.sente or 'Sente'}",
        gote=f"☖ {record.gote or 'Gote'}",
        result=result_words(record.result) if record.result is not None else "",
        inaccuracy=CLASS_WORDS[0],
        mistake=CLASS_WORDS[1],
        blunder=CLASS_WORDS[2],
    )
    return render_evaluation_graph(analysis.scores, marks, words)


def summary(record: GameRecord, analysis: GameAnalysis, seconds: float) -> str:
    """The text report: engine and budget, then per player the figures and worst moves."""
    variant = load_variant(record.variant)
    result = f", {result_words(record.result)}" if record.result is not None else ""
    lines = [
        f"{variant.names['en']}, moves: {len(record.moves)}{result}",
        f"Analysed by {analysis.engine} at {analysis.budget.describe()} in {seconds:.1f} s",
    ]
    for player in analysis.players:
        name = (record.sente, record.gote)[player.side] or SIDE_WORDS[player.side].title()
        lines.append("")
        lines.append(f"{name} ({SIDE_WORDS[player.side]}): {_figures(player)}")
        for review in player.worst:
            lines.append("  " + _worst_line(record, review))
    return "\n".join(lines)


def _figures(player: PlayerSummary) -> str:
    if player.accuracy is None:
        return "no moves"
    return (
        f"accuracy {player.accuracy:.1f}%; inaccuracies {player.inaccuracies}, "
        f"mistakes {player.mistakes}, blunders {player.blunders}"
    )


def _worst_line(record: GameRecord, review: MoveReview) -> str:
    from rules.notation.printing import format_move

    pos = record.start_position()
    for text in record.moves[: review.ply - 1]:
        pos.push_usi(text)
    played = format_move(pos, pos.parse_usi(review.played), "western")
    better = format_move(pos, pos.parse_usi(review.best), "western") if review.best else "-"
    judged = f"{review.judgement.value}, " if review.judgement.severity else ""
    return (
        f"move {review.ply}: {played} ({judged}-{review.loss:.1f}% win chance), "
        f"better {better}; score {_score(review.before)} -> {_score(review.after)}"
    )


def _score(score: int) -> str:
    from engine.analysis import mate_in_plies

    plies = mate_in_plies(score)
    if plies is None:
        return f"{score:+d}"
    if plies == 0:
        return "mated"
    return f"{SIDE_WORDS[SENTE if plies > 0 else 1]} mates in {abs(plies)}"
