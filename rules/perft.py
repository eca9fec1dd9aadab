"""Perft: count leaf positions of the legal move tree (the standard move-generator check)."""

from __future__ import annotations

from rules.move import Move
from rules.position import Position


def perft(pos: Position, depth: int, *, bulk: bool = True) -> int:
    """Leaves at ``depth``; ``bulk`` counts the last ply without playing it."""
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
