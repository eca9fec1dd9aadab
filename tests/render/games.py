"""Capture-happy games for the render tests and ``bench/render.py``, and the targets both check."""

from __future__ import annotations

import random

from rules import Position, load_variant

TARGETS = {9: (4.0, 32_000), 11: (5.0, 40_000)}
"""Board files -> (p50 milliseconds to render a board, bytes of its PNG)."""


def game(variant_id: str, first: int, count: int) -> list[Position]:
    """``count`` successive positions of capture-happy games from move ``first`` on (a game
    that ends early is followed by another)."""
    out: list[Position] = []
    seed = 3
    while len(out) < count:
        rng = random.Random(seed)
        pos = Position.start(load_variant(variant_id))
        for ply in range(first + count):
            moves = sorted(pos.legal_moves())
            if not moves or len(out) == count:
                break
            captures = [m for m in moves if pos.board[m.to_sq]]
            pos.push(rng.choice(captures or moves))
            if ply + 1 >= first:
                out.append(pos.copy())
        seed += 1
    return out
