"""Perft: count leaf positions of the legal move tree (the standard move-generator check)."""

from __future__ import annotations

from rules.move import Move
from rules.position import Position

MAX_DEPTH = 20
"""The deepest perft asked for (Standard Shogi's perft 7 is already about 3.5 * 10^13 leaves);
deeper would never end."""


def perft(pos: Position, depth: int, *, bulk: bool = True) -> int:
    """Leaves at ``depth``; ``bulk`` counts the last ply without playing it.  A depth above
    :data:`MAX_DEPTH` is a ValueError."""
    if depth > MAX_DEPTH:
        raise ValueError(f"perft depth {depth} is more than {MAX_DEPTH}")
    if depth <= 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1 and bulk:
        return len(moves)
    total = 0
    make, pop = pos.make_unchecked, pos.undo
    for move in moves:
        make(move)
        total += perft(pos, depth - 1, bulk=bulk)
        pop()
    return total


def divide(pos: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft per root move."""
    out = []
    for move in pos.legal_moves():
        pos.make_unchecked(move)
        out.append((move, perft(pos, depth - 1)))
        pos.undo()
    return out
