"""xboard move notation for 11x11 and 9x9 boards: squares, promotions, drops."""

from __future__ import annotations

import random

import pytest

from engine.xboard_notation import from_xboard, square_name, to_xboard
from rules import InvalidMoveError, Move, Position, load_variant


def test_corners_of_the_wa_board() -> None:
    wa = load_variant("wa")
    names = wa.tables.square_names
    assert square_name(wa, names.index("11k")) == "a1"
    assert square_name(wa, names.index("1a")) == "k11"
    assert square_name(wa, names.index("7i")) == "e3"


def test_every_legal_move_of_a_wa_drops_game_goes_there_and_back() -> None:
    variant = load_variant("wa-drops")
    pos = Position.start(variant)
    rng = random.Random(3)
    seen_drop = False
    for _ in range(120):
        moves = pos.legal_moves()
        if not moves:
            break
        for move in moves:
            assert from_xboard(variant, to_xboard(variant, move)) == move
        seen_drop = seen_drop or any(m.drop for m in moves)
        captures = [m for m in moves if not m.drop and pos.board[m.to_sq]]
        pos.push(rng.choice(captures or moves))
    assert seen_drop


def test_promotion_drop_and_two_digit_ranks() -> None:
    wa = load_variant("wa-drops")
    names = wa.tables.square_names
    move = Move(names.index("7c"), names.index("7b"), True, 0)
    assert to_xboard(wa, move) == "e9e10+"
    assert from_xboard(wa, "e9e10=") == Move(move.from_sq, move.to_sq, False, 0)
    pawn = wa.by_letter["P"].kind
    assert from_xboard(wa, "P@e5") == Move(-1, names.index("7g"), False, pawn)


def test_standard_shogi_squares() -> None:
    shogi = load_variant("shogi")
    pos = Position.start(shogi)
    assert to_xboard(shogi, pos.parse_usi("7g7f")) == "c3c4"


@pytest.mark.parametrize("text", ["", "e3", "l1a1", "a12a11", "e3e3", "K@e5", "+P@e5", "Q@e5"])
def test_bad_xboard_moves_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        from_xboard(load_variant("wa-drops"), text)
    assert repr(text) in str(caught.value) or "not an xboard move" in str(caught.value)
