"""Notation and record speed, each against a reference measured in the same run.

- ``parse_move`` (every legal move of random positions, printed in each style and read back)
  against ``Position.legal_moves`` for the same positions: how many move generations one read
  costs (a read needs at least one, to know the legal moves).
- KIF import of random Standard Shogi games: Komabot (which checks every move with the rules)
  against python-shogi's KIF parser (which checks nothing), same files.

    .venv/bin/python bench/notation.py [--games 40]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rules import Position, load_variant
from rules.notation import format_move, parse_move
from rules.records import GameRecord, export_record, import_record


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def random_game(variant_id: str, rng: random.Random, plies: int = 120) -> Position:
    pos = Position.start(load_variant(variant_id))
    for _ in range(plies):
        legal = pos.legal_moves()
        if not legal or pos.outcome() is not None:
            break
        pos.push(rng.choice(legal))
    return pos


def bench_parse(variant_id: str, rng: random.Random, positions: int) -> None:
    cases = []
    for _ in range(positions):
        pos = random_game(variant_id, rng, rng.randint(10, 80))
        for move in pos.legal_moves():
            for style in ("usi", "western", "japanese"):
                cases.append((pos, format_move(pos, move, style)))
    reads = timed(lambda: [parse_move(pos, text) for pos, text in cases])
    gens = timed(lambda: [pos.legal_moves() for pos, _ in cases])
    per_read = reads / len(cases) * 1e6
    print(
        f"{variant_id:<9} parse_move: {len(cases)} reads, {per_read:.0f} us each; "
        f"= {reads / gens:.2f}x one legal-move generation"
    )


def bench_kif(rng: random.Random, games: int) -> None:
    import shogi.KIF

    files = []
    for _ in range(games):
        pos = random_game("shogi", rng)
        record = GameRecord(
            "shogi", pos.variant.start_sfen, tuple(pos.usi(m) for m in pos.move_stack)
        )
        files.append(export_record(record, "kif"))
    ours = timed(lambda: [import_record(data, "g.kif") for data in files])
    theirs = timed(lambda: [shogi.KIF.Parser.parse_str(data.decode("cp932")) for data in files])
    plies = sum(data.count(b"\r\n") for data in files)
    print(
        f"KIF import: {games} games (~{plies} lines): Komabot {ours:.2f}s (every move checked), "
        f"python-shogi {theirs:.2f}s (unchecked); ratio {ours / theirs:.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(2026)
    for variant_id in ("shogi", "wa"):
        bench_parse(variant_id, rng, args.positions)
    bench_kif(rng, args.games)


if __name__ == "__main__":
    main()
