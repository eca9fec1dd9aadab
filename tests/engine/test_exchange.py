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


@pytest.mark.parametrize(
    ("sfen", "usi", "lost"),
    [
        # the rook checks from 5c, where the gold takes it for nothing
        ("4k4/5g3/R8/9/9/9/9/9/4K4 b - 1", "9c5c", True),
        # the same with a second rook behind it: the gold takes and is taken back, a rook for
        # a gold, still more than the check took (nothing)
        ("4k4/5g3/RR7/9/9/9/9/9/4K4 b - 1", "8c5c", True),
        # the check takes a pawn that a gold defends, with a second rook behind: gold for rook
        # and pawn is still a loss for sente
        ("4k4/5g3/RR2p4/9/9/9/9/9/4K4 b - 1", "8c5c", True),
        # a silver checks from 5b, guarded by the pawn on 5c: the king may not take it
        ("4k4/9/3SP4/9/9/9/9/9/4K4 b - 1", "6c5b", False),
        # the rook takes a gold with check; the king takes the rook back: gold for rook,
        # close to even, and the rook is worth more than the gold it took
        ("4k4/4g4/9/9/4R4/9/9/9/4K4 b - 1", "5e5b", True),
        # a check by a piece nothing attacks
        ("4k4/9/9/9/9/9/9/9/R3K4 b - 1", "9i9a", False),
    ],
)
def test_a_checker_the_exchange_loses_is_told_apart(sfen: str, usi: str, lost: bool) -> None:
    see, _ = exchange("shogi")
    pos = Position.from_sfen(load_variant("shogi"), sfen)
    move = pos.parse_usi(usi)
    taken = pos.board[move.to_sq]
    pos.push(move)
    assert pos.is_check()
    before = list(pos.board)
    assert see.mover_lost(pos, move.to_sq, taken) is lost
    assert list(pos.board) == before
