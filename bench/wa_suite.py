"""A Wa tactics suite from the games Komabot lost to HaChu, and how many of it a search solves.

``build`` replays match logs (``bench/match.py --log``, one JSON game a line) with the rules
core and finds Komabot's moves after which it lost material: its material (piece values
only, from its side) ``--window`` plies later is at least ``--drop`` centipawns below what it
was before the move, even at the better of two plies in a row (an exchange half done does not
count).  Each such move is judged again by a deep search (this checkout's level 8 at
``--deep-nodes``): of the position before it, and of the position after it; kept when the
played move scores at least ``--margin`` below the deep search's best move.  The suite file
holds one position a line: the game's moves from the start (so the engine also sees the
game's history), the SFEN, the move to avoid (the one played), the deep search's move and
both scores.

``run`` asks Komabot (``komabot usi`` at level 8, ``go nodes N``, a new game for each
position: the same answer however loaded the machine) for a move in each position; solved
when it is not the move to avoid.  With ``--base DIR`` the same for another checkout (for
example ``git archive main | tar -x -C DIR``) in the same run, as the reference.

    .venv/bin/python bench/wa_suite.py build data/bench/hachu/*.jsonl
    .venv/bin/python bench/wa_suite.py run --nodes 3000 --base /tmp/base27x --judge-nodes 120000
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.match import PlayerSpec  # noqa: E402
from bench.match_log import read_games  # noqa: E402
from engine.api import Engine  # noqa: E402
from engine.search import Limits  # noqa: E402
from engine.values import values_for  # noqa: E402
from rules import SENTE, Position, Variant, load_variant  # noqa: E402

SUITE = ROOT / "data" / "bench" / "wa_suite.jsonl"
VARIANT = "wa"
NO_MOVE = ("resign", "win")  # USI answers that are not a move
INFINITE_CP = 1_000_000


@dataclass(frozen=True)
class SuitePosition:
    """One position of the suite, Komabot to move."""

    name: str  # where it comes from: log file, game number, ply
    moves: tuple[str, ...]  # USI, from the start position
    sfen: str
    avoid: str  # the move played in the game
    best: str  # the deep search's move
    avoid_cp: int  # deep scores from the mover's side
    best_cp: int
    lost_cp: int  # material lost in the game within the window

    def position(self) -> Position:
        """The position with the game's history (checked by the rules core)."""
        pos = Position.start(load_variant(VARIANT))
        for move in self.moves:
            pos.push_usi(move)
        return pos

    def line(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False)

    @classmethod
    def parse(cls, line: str) -> SuitePosition:
        data = json.loads(line)
        data["moves"] = tuple(data["moves"])
        return cls(**data)


def read_suite(path: Path) -> list[SuitePosition]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [SuitePosition.parse(line) for line in lines if line.strip()]


# --- build -----------------------------------------------------------------------------------


def material(pos: Position, board_values: Sequence[int], hand_values: Sequence[int]) -> int:
    """Piece values from sente's view, without square terms (what a capture changes)."""
    total = 0
    for v in pos.board:
        if v:
            total += board_values[v] if v > 0 else -board_values[-v]
    for color, sign in ((SENTE, 1), (SENTE ^ 1, -1)):
        for kind, n in enumerate(pos.hands[color]):
            total += sign * hand_values[kind] * n
    return total


def material_line(variant: Variant, moves: Sequence[str]) -> list[int]:
    """Sente's material after each ply (index 0: the start), as far as the moves are legal,
    by the values derived from the moves (what the shipped suites were built with: a
    yardstick that tuning the engine's values does not move)."""
    values = values_for(variant.id)
    pos = Position.start(variant)
    line = [material(pos, values.derived, values.hand)]
    for text in moves:
        pos.push_usi(text)
        line.append(material(pos, values.derived, values.hand))
    return line


def losing_plies(
    line: Sequence[int], sente: bool, window: int, drop: int, behind: int
) -> Iterator[list[tuple[int, int]]]:
    """Komabot's moves after which it lost material, in runs (one loss seen from each of
    the moves before it within the window): the plies (position index, Komabot to move)
    where its material ``window`` and ``window + 1`` plies later is at least ``drop`` below
    what it was, with how much it lost (the lesser of the two); none where it was already
    more than ``behind`` down (a lost game losing more)."""
    sign = 1 if sente else -1
    run: list[tuple[int, int]] = []
    for ply in range(0 if sente else 1, len(line) - window - 1, 2):
        before = sign * line[ply]
        after = max(sign * line[ply + window], sign * line[ply + window + 1])
        if before - after >= drop and before >= -behind:
            run.append((ply, before - after))
            continue
        if run:
            yield run
        run = []
    if run:
        yield run


def score_of_move(engine: Engine, pos: Position, move: str, nodes: int) -> int:
    """``move``'s deep score from the mover's side: the opponent's after it, negated (a
    mate by the move: the opponent's "mated now", negated)."""
    after = pos.copy()
    after.push_usi(move)
    engine.new_game()
    return -engine.think(after, limits=Limits(nodes=nodes)).score


def judge(engine: Engine, pos: Position, played: str, nodes: int) -> tuple[str, int, int]:
    """The deep search's move and score in ``pos``, and the played move's score: from the
    mover's side."""
    engine.new_game()
    best = engine.think(pos, limits=Limits(nodes=nodes))
    assert best.best_move is not None  # Komabot played a move here
    return best.best_move, best.score, score_of_move(engine, pos, played, nodes)


@dataclass(frozen=True)
class BuildSettings:
    deep_nodes: int = 120_000
    window: int = 6
    drop: int = 250
    behind: int = 300
    margin: int = 150


def build(logs: Sequence[Path], settings: BuildSettings) -> Iterator[SuitePosition]:
    """The suite's positions from the logs: in each run of moves that lost material, the
    first one the deep search confirms."""
    variant = load_variant(VARIANT)
    engine = Engine(variant)
    s = settings
    for game in read_games(logs):
        sente = game.komabot_sente()
        if game.variant != VARIANT or sente is None:
            continue
        moves = list(game.moves)
        line = material_line(variant, moves)
        for run in losing_plies(line, sente, s.window, s.drop, s.behind):
            for ply, lost in run:
                pos = Position.start(variant)
                for move in moves[:ply]:
                    pos.push_usi(move)
                played = moves[ply]
                best, best_cp, avoid_cp = judge(engine, pos, played, s.deep_nodes)
                name = f"{game.source} ply {ply + 1}"
                kept = best != played and best_cp - avoid_cp >= s.margin
                print(
                    f"{name}: {played} lost {lost}; deep {best} {best_cp}, {played} "
                    f"{avoid_cp}: {'kept' if kept else 'not kept'}",
                    file=sys.stderr,
                    flush=True,
                )
                if kept:
                    entry = (name, tuple(moves[:ply]), pos.sfen(), played, best)
                    yield SuitePosition(*entry, avoid_cp, best_cp, lost)
                    break


# --- run -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answers:
    """One engine's moves for the suite, and what they cost."""

    label: str
    moves: list[str]
    nodes: int
    seconds: float

    def solved(self, suite: Sequence[SuitePosition]) -> list[bool]:
        """A move other than the one to avoid (a resignation solves nothing)."""
        return [m != p.avoid and m not in NO_MOVE for m, p in zip(self.moves, suite, strict=True)]

    def found_best(self, suite: Sequence[SuitePosition]) -> int:
        return sum(move == p.best for move, p in zip(self.moves, suite, strict=True))


def answers(spec: PlayerSpec, suite: Sequence[SuitePosition]) -> Answers:
    """``spec``'s move in each position, a new game each (no table kept between them)."""
    player = spec.make()
    moves: list[str] = []
    nodes = 0
    started = time.monotonic()
    try:
        for entry in suite:
            player.new_game()
            reply = player.play(entry.position())
            moves.append(reply.text)
            nodes += reply.nodes or 0
    finally:
        player.close()
    return Answers(spec.label, moves, nodes, time.monotonic() - started)


def percent(part: int, whole: int) -> str:
    return f"{100 * part / max(1, whole):.0f}%"


Scores = dict[tuple[int, str], int]  # (position index, move): deep score


def judged(suite: Sequence[SuitePosition], results: Sequence[Answers], nodes: int) -> Scores:
    """Each move the engines chose, scored by this checkout's level 8 at ``nodes`` as the
    build scored the move to avoid (the suite's own two scores where it is one of them)."""
    engine = Engine(load_variant(VARIANT))
    scores: Scores = {}
    for i, entry in enumerate(suite):
        scores[(i, entry.avoid)] = entry.avoid_cp
        scores[(i, entry.best)] = entry.best_cp
        pos = entry.position()
        for move in {r.moves[i] for r in results} - set(NO_MOVE):
            if (i, move) not in scores:
                scores[(i, move)] = score_of_move(engine, pos, move, nodes)
    return scores


def report(
    suite: Sequence[SuitePosition], results: Sequence[Answers], scores: Scores, margin: int
) -> str:
    """A line per position (each engine's move, * when it is the move to avoid, its deep
    score when judged) and a summary line per engine: solved (not the move to avoid), the
    deep move found, and when judged, the balance kept (within ``margin`` of the deep
    move's score)."""
    rows = []
    for i, entry in enumerate(suite):
        cells = []
        for r in results:
            move = r.moves[i]
            score = f" {scores[(i, move)]}" if (i, move) in scores else ""
            cells.append(f"{move}{'*' if move == entry.avoid else ''}{score}")
        rows.append(
            f"  {entry.name}: avoid {entry.avoid} {entry.avoid_cp}, deep {entry.best} "
            f"{entry.best_cp}: {', '.join(cells)}"
        )
    for r in results:
        solved = sum(r.solved(suite))
        line = (
            f"{r.label}: solved {solved} of {len(suite)} ({percent(solved, len(suite))}),"
            f" the deep move in {r.found_best(suite)}"
        )
        if scores:
            kept = sum(
                scores.get((i, move), -INFINITE_CP) >= entry.best_cp - margin
                for i, (move, entry) in enumerate(zip(r.moves, suite, strict=True))
            )
            line += f", the balance kept in {kept}"
        rows.append(f"{line}; {r.nodes} nodes in {r.seconds:.0f} s")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="the suite from match logs")
    b.add_argument("logs", nargs="+", type=Path)
    b.add_argument("--out", type=Path, default=SUITE)
    d = BuildSettings()
    b.add_argument("--deep-nodes", type=int, default=d.deep_nodes, help="the judge's nodes")
    b.add_argument("--window", type=int, default=d.window, help="plies after the move")
    b.add_argument("--drop", type=int, default=d.drop, help="material lost, centipawns")
    b.add_argument("--behind", type=int, default=d.behind, help="skip when already this down")
    b.add_argument("--margin", type=int, default=d.margin, help="deep score below the best")
    r = sub.add_parser("run", help="how many positions a search solves")
    r.add_argument("--suite", type=Path, default=SUITE)
    r.add_argument("--nodes", type=int, default=3000)
    r.add_argument("--level", type=int, default=8)
    r.add_argument("--base", type=Path, help="another checkout to run as the reference")
    r.add_argument("--candidate", type=Path, help="a checkout to run instead of this one")
    r.add_argument(
        "--judge-nodes",
        type=int,
        default=0,
        help="score each move chosen with this checkout's level 8 at this many nodes (the "
        "build's 120,000 for the same judge); 0: do not",
    )
    r.add_argument("--margin", type=int, default=d.margin, help="the balance kept: this near")
    args = p.parse_args(argv)
    if args.command == "build":
        settings = BuildSettings(args.deep_nodes, args.window, args.drop, args.behind, args.margin)
        found = list(build(args.logs, settings))
        args.out.write_text("".join(s.line() + "\n" for s in found), encoding="utf-8")
        print(f"{len(found)} positions written to {args.out}")
        return 0
    suite = read_suite(args.suite)
    this = PlayerSpec("komabot", VARIANT, 0, level=args.level, nodes=args.nodes)
    if args.candidate is not None:
        this = dataclasses.replace(this, root=str(args.candidate.resolve()))
    specs = [this]
    if args.base is not None:
        if not (args.base / "engine" / "search.py").is_file():
            p.error("--base: a directory holding another checkout's engine/")
        specs.append(dataclasses.replace(this, root=str(args.base.resolve())))
    results = [answers(spec, suite) for spec in specs]
    print(f"# {args.suite.name}: {len(suite)} positions, level {args.level}, {args.nodes} nodes")
    scores = judged(suite, results, args.judge_nodes) if args.judge_nodes else {}
    print(report(suite, results, scores, args.margin))
    return 0


if __name__ == "__main__":
    sys.exit(main())
