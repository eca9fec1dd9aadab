"""Perft speed: Komabot against python-shogi (pure Python) and cshogi (C++), same run.

Every library walks the same tree the same way: generate legal moves, push each, recurse, pop,
down to every leaf (no bulk counting).  Prints nodes per second and Komabot's ratio to
python-shogi (target: at least 3x).  Also reports Wa Shogi depth 3 and 4.  Komabot runs
compiled where ``scripts/build_native`` built its modules from the current sources (the first
line says so; ``KOMABOT_NATIVE=0``: pure Python).

    .venv/bin/python bench/perft.py [--depth 4] [--wa-depth 4]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rules import Position, load_variant, native
from rules.perft import perft


def timed(fn: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = fn()
    return nodes, time.perf_counter() - start


def komabot_perft(variant: str, depth: int) -> int:
    return perft(Position.start(load_variant(variant)), depth, bulk=False)


def library_perft(board: Any, depth: int) -> int:
    """The same walk for python-shogi and cshogi boards (both offer legal_moves/push/pop)."""
    if depth == 0:
        return 1
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += library_perft(board, depth - 1)
        board.pop()
    return total


def python_shogi_perft(depth: int) -> int:
    import shogi

    return library_perft(shogi.Board(), depth)


def cshogi_perft(depth: int) -> int:
    import cshogi

    return library_perft(cshogi.Board(), depth)


def report(label: str, nodes: int, seconds: float) -> float:
    nps = nodes / seconds
    print(f"{label:<28} {nodes:>10,} nodes  {seconds:8.2f} s  {nps:>12,.0f} nodes/s")
    return nps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=4, help="Standard Shogi depth (default 4)")
    parser.add_argument("--wa-depth", type=int, default=4, help="deepest Wa depth (default 4)")
    args = parser.parse_args()
    compiled = native.install()
    print(f"Komabot: {'compiled' if compiled.active else 'pure Python'} ({compiled.reason})")
    print(f"Standard Shogi, start position, perft({args.depth}), push/pop to every leaf")
    ours = report("komabot", *timed(lambda: komabot_perft("shogi", args.depth)))
    ref = report("python-shogi (reference)", *timed(lambda: python_shogi_perft(args.depth)))
    try:
        report("cshogi (C++, context)", *timed(lambda: cshogi_perft(args.depth)))
    except ImportError:
        print("cshogi not installed: skipped")
    print(f"ratio komabot / python-shogi: {ours / ref:.2f}x (target >= 3x)")

    print("\nWa Shogi, start position, push/pop to every leaf")
    for variant in ("wa", "wa-drops"):
        for depth in range(3, args.wa_depth + 1):
            report(
                f"{variant} perft({depth})", *timed(lambda v=variant, d=depth: komabot_perft(v, d))
            )


if __name__ == "__main__":
    main()
