"""Static exchange evaluation on hand-made exchanges, and its board left as found."""

from __future__ import annotations

import pytest

from engine.evaluation import Evaluator
from engine.exchange import StaticExchange
from rules import GOTE, Position, load_variant

from ..rules.random_games import random_positions, test_seed

SEED = test_seed()
CAPTURES_TRIED = 40


def exchange(variant_id: str) -> tuple[StaticExchange, Evaluator]:
    variant = load_variant(variant_id)
    evaluator = Evaluator(variant)
    return StaticExchange(variant, evaluator), evaluator


def test_an_undefended_pawn_is_won_whole() -> None:
    see, _ = exchange("shogi")
    pos = Position.from_sfen(load_variant("shogi"), "4k4/9/4p4/9/4R4/9/9/9/4K4 b - 1")
    move = pos.parse_usi("5e5c")
    assert see.value(pos, move) == see.worth[pos.board[move.to_sq]]
    assert not see.loses(pos, move)


def test_a_rook_taking_a_pawn_a_gold_defends_loses_the_difference() -> None:
    see, _ = exchange("shogi")
    pos = Position.from_sfen(load_variant("shogi"), "4k4/5g3/4p4/9/4R4/9/9/9/4K4 b - 1")
    move = pos.parse_usi("5e5c")
    pawn, rook = pos.board[move.to_sq], pos.board[move.from_sq]
    assert see.value(pos, move) == see.worth[pawn] - see.worth[rook]
    assert see.loses(pos, move)


def test_a_second_rook_behind_the_first_recaptures_through_the_line() -> None:
    see, _ = exchange("shogi")
    pos = Position.from_sfen(load_variant("shogi"), "4k4/5g3/4p4/9/4R4/9/9/4R4/4K4 b - 1")
    move = pos.parse_usi("5e5c")
    pawn, rook = pos.board[move.to_sq], pos.board[move.from_sq]
    gold = pos.board[pos.with_side_to_move(GOTE).parse_usi("4b3b").from_sq]
    # rook takes pawn, gold takes rook, the rook behind takes the gold
    assert see.value(pos, move) == see.worth[pawn] + see.worth[gold] - see.worth[rook]


def test_the_king_does_not_recapture_into_an_attack() -> None:
    see, _ = exchange("shogi")
    # the silver takes the gold next to the gote king; the rook behind it guards the square
    pos = Position.from_sfen(load_variant("shogi"), "9/9/4k4/4g4/4S4/9/9/4R4/4K4 b - 1")
    move = pos.parse_usi("5e5d")
    assert see.value(pos, move) == see.worth[pos.board[move.to_sq]]


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_the_board_is_left_as_found(variant_id: str) -> None:
    see, _ = exchange(variant_id)
    tried = 0
    # random positions until 40 captures were valued: how many positions hold a capture
    # varies with the seed (60 positions once gave 19 captures in Wa)
    for pos in random_positions(variant_id, 600, SEED + 11):
        if tried >= CAPTURES_TRIED:
            break
        before = list(pos.board)
        for move in pos.legal_moves():
            if move.drop or not pos.board[move.to_sq]:
                continue
            value = see.value(pos, move)
            assert list(pos.board) == before, (SEED, pos.sfen(), pos.usi(move))
            # a capture never loses more than the capturing piece
            assert value >= see.worth[pos.board[move.to_sq]] - see.worth[pos.board[move.from_sq]]
            tried += 1
    assert tried >= CAPTURES_TRIED, (SEED, tried)
