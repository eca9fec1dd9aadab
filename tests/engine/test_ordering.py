"""Move ordering: captures that lose by the static exchange come after the killers."""

from __future__ import annotations

from engine.evaluation import Evaluator
from engine.exchange import StaticExchange
from engine.ordering import CAPTURE, KILLER, LOSING_CAPTURE, MoveOrdering
from rules import Position, load_variant


def ordering(variant_id: str = "shogi") -> MoveOrdering:
    variant = load_variant(variant_id)
    evaluator = Evaluator(variant)
    return MoveOrdering(variant, evaluator, StaticExchange(variant, evaluator), 8)


def test_a_losing_capture_comes_after_the_killers_and_a_winning_one_before() -> None:
    order = ordering()
    # the rook on 5e takes a pawn the gold guards; the bishop on 9e takes a free pawn on 7c
    pos = Position.from_sfen(load_variant("shogi"), "4k4/5g3/2p1p4/9/B3R4/9/9/9/4K4 b - 1")
    losing, winning, quiet = (pos.parse_usi(m) for m in ("5e5c", "9e7c", "5e6e"))
    order.killers[0][0] = quiet
    moves = [losing, winning, quiet]
    keys = dict(zip(moves, order.keys(pos, moves, None, 0), strict=True))
    assert keys[winning] >= CAPTURE
    assert KILLER <= keys[quiet] < CAPTURE
    assert LOSING_CAPTURE <= keys[losing] < KILLER


def test_the_counter_move_of_the_last_move_comes_after_the_killers() -> None:
    order = ordering()
    variant = load_variant("shogi")
    before = Position.from_sfen(variant, "4k4/5g3/2p1p4/9/B3R4/9/9/9/4K4 w - 1")
    previous = before.parse_usi("4b4c")  # gote's gold steps to 4c
    pos = before.copy()
    pos.push(previous)
    killer, counter, other = (pos.parse_usi(m) for m in ("5e6e", "5e4e", "5e3e"))
    order.killers[1][0] = killer
    # the counter move cut a node off after this move before
    order.reward(pos, counter, 3, 5, previous, [])
    assert order.counter(pos, previous) == counter
    moves = [killer, counter, other]
    keys = dict(
        zip(moves, order.keys(pos, moves, None, 1, order.counter(pos, previous)), strict=True)
    )
    assert keys[killer] > keys[counter] > keys[other]
    assert LOSING_CAPTURE < keys[counter] < KILLER


def test_quiet_moves_tried_before_a_cut_off_lose_history() -> None:
    order = ordering()
    pos = Position.from_sfen(load_variant("shogi"), "4k4/5g3/2p1p4/9/B3R4/9/9/9/4K4 b - 1")
    cut, tried, untouched = (pos.parse_usi(m) for m in ("5e4e", "5e6e", "5e3e"))
    order.reward(pos, cut, 4, 2, None, [tried])
    moves = [cut, tried, untouched]
    keys = dict(zip(moves, order.keys(pos, moves, None, 0), strict=True))
    assert keys[cut] == 16
    assert keys[untouched] == 0
    assert keys[tried] == -16
