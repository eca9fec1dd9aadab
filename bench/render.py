#!/usr/bin/env python3
"""Board rendering speed: warm renders of an 11x11 mid-game board, PNG encoding included.

    .venv/bin/python bench/render.py [--renders 300] [--style kanji|international]

Prints p50/p99 of a warm ``render_board`` (sprites and the empty board cached), the PNG size,
and two references measured in the same run: a bare Pillow PNG encode of a same-size RGB
image (the floor for any PNG of this size) and a cold render with every cache emptied.
Targets (issue 5): p50 under 15 ms and PNG under 60 KB at the default size.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render import board, sprites
from render.board import compose_board, render_board
from render.options import DEFAULT_SIZE, BoardOptions
from rules import Position, load_variant

TARGET_P50_MS = 15.0
TARGET_BYTES = 60_000


def midgame(plies: int = 40, seed: int = 3) -> Position:
    """A reproducible Wa Shogi (with drops) game that prefers captures: full hands, ~50 pieces."""
    rng = random.Random(seed)
    pos = Position.start(load_variant("wa-drops"))
    for _ in range(plies):
        moves = sorted(pos.legal_moves())
        captures = [m for m in moves if pos.board[m.to_sq]]
        pos.push(rng.choice(captures or moves))
    return pos


def timings(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return sorted(out)


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument("--style", choices=("kanji", "international"), default="kanji")
    args = parser.parse_args()
    pos = midgame()
    options = BoardOptions(style=args.style, sente_name="Hanako", gote_name="Алексей")

    t = time.perf_counter()
    for cached in (sprites.piece_sprite, board.empty_board, board.board_palette):
        cached.cache_clear()
    png = render_board(pos, options)
    cold_ms = (time.perf_counter() - t) * 1000

    warm = timings(lambda: render_board(pos, options), args.renders)
    rgb = compose_board(pos, options)

    def bare_encode() -> bytes:
        out = io.BytesIO()
        rgb.save(out, "PNG")
        return out.getvalue()

    bare = timings(bare_encode, max(20, args.renders // 5))
    p50, p99 = pct(warm, 0.5), pct(warm, 0.99)
    ref = statistics.median(bare)
    pieces = sum(1 for v in pos.board if v)
    print(f"board: wa-drops 11x11, {pieces} pieces, {args.style}, {rgb.width}x{rgb.height} px")
    print(f"warm render_board: p50 {p50:.2f} ms, p99 {p99:.2f} ms over {len(warm)} renders")
    print(f"PNG size: {len(png)} bytes (target < {TARGET_BYTES})")
    print(
        f"reference, bare Pillow PNG encode of the same RGB image: {ref:.2f} ms, "
        f"{len(bare_encode())} bytes; ratio warm p50 / bare encode = {p50 / ref:.2f}"
    )
    print(
        f"reference, cold render (caches emptied): {cold_ms:.0f} ms; "
        f"ratio cold / warm p50 = {cold_ms / p50:.0f}"
    )
    ok = p50 < TARGET_P50_MS and len(png) < TARGET_BYTES and options.size == DEFAULT_SIZE
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
