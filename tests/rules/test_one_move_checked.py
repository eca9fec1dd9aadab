"""Checking one move looks at the piece it moves, not at every move of the position: a long
record is read in time proportional to its moves, with a small constant per move.  The answer
is the same as membership in the full list of legal moves, for legal and illegal moves alike."""

from __future__ import annotations

import random

import pytest

from rules import Move, Position, load_variant, movegen
from tests.rules.random_games import random_positions, test_seed


def candidates(pos: Position, rng: random.Random) -> list[Move]:
    """Every legal move and a spread of illegal ones: each own piece to random squares (with
    and without promotion), each kind in hand (or not) to random squares."""
    size = pos.tables.size
    side = 1 if pos.side == 0 else -1
    found = list(pos.legal_moves())
    for sq in range(size):
        if pos.board[sq] * side > 0:
            for to in rng.sample(range(size), 12):
                found += [Move(sq, to, False, 0), Move(sq, to, True, 0)]
    hand = pos.hands[pos.side]
    for kind in range(1, len(hand)):
        for to in rng.sample(range(size), 6):
            found.append(Move(-1, to, False, kind))
    return found


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_one_move_is_legal_exactly_when_it_is_among_the_legal_moves(variant_id: str) -> None:
    seed = test_seed()
    rng = random.Random(seed)
    for pos in random_positions(variant_id, 60, seed):
        legal = set(pos.legal_moves())
        for move in candidates(pos, rng):
            assert pos.is_legal(move) == (move in legal), (seed, pos.sfen(), move)


def test_checking_a_move_generates_the_moves_of_one_piece(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    real = movegen._piece_moves

    def counted(*args: object) -> list[Move]:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(movegen, "_piece_moves", counted)
    pos = Position.start(load_variant("shogi"))
    for text in ["7g7f", "3c3d", "8h2b+", "3a2b", "5i4h"]:
        before = calls
        pos.push_usi(text)
        assert calls - before <= 1, (text, calls - before)  # the full list takes 20 or more
