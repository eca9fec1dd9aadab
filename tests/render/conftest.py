"""Positions shared by the render tests."""

from __future__ import annotations

import random

import pytest

from rules import Position, load_variant

# Standard Shogi: bishops traded, a horse (promoted bishop) on 2c, pawns in both hands.
SHOGI_MOVES = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d", "4e3d", "8d8e", "3d2c+"]


def game_positions(variant_id: str, plies: int, seed: int) -> list[Position]:
    """A reproducible game that prefers captures, so hands fill up: the position after each
    move, in order."""
    rng = random.Random(seed)
    pos = Position.start(load_variant(variant_id))
    out = []
    for _ in range(plies):
        moves = sorted(pos.legal_moves())
        if not moves:
            break
        captures = [m for m in moves if pos.board[m.to_sq]]
        pos.push(rng.choice(captures or moves))
        out.append(pos.copy())
    return out


def random_game(variant_id: str, plies: int, seed: int) -> Position:
    """The last position of ``game_positions`` (the start if no move was made)."""
    positions = game_positions(variant_id, plies, seed)
    return positions[-1] if positions else Position.start(load_variant(variant_id))


@pytest.fixture
def shogi_game() -> Position:
    pos = Position.start(load_variant("shogi"))
    for text in SHOGI_MOVES:
        pos.push_usi(text)
    return pos


@pytest.fixture
def wa_game() -> Position:
    return random_game("wa-drops", 40, seed=3)
