"""Move ordering: captures that lose by the static exchange come after the killers; the hash
move and the killers are known by their fields; the search takes moves by their keys as
sorting (key, index) pairs would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.evaluation import Evaluator
from engine.exchange import StaticExchange
from engine.ordering import CAPTURE, KILLER, LOSING_CAPTURE, MoveOrdering
from engine.search import _best_first, _best_index
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


@given(st.lists(st.integers(min_value=-30_000_000, max_value=200_000_000) | st.integers(-3, 3)))
def test_best_first_orders_as_sorting_the_key_index_pairs(keys: list[int]) -> None:
    # the search's order of moves: larger key first, ties by the later index first
    expected = [i for _, i in sorted(zip(keys, range(len(keys)), strict=True), reverse=True)]
    assert _best_first(keys) == expected
    if keys:  # the first without sorting: what the staged generator tries before sorting
        assert _best_index(keys) == expected[0]


def test_the_hash_move_and_both_killers_are_found_by_their_fields() -> None:
    order = ordering()
    pos = Position.start(load_variant("shogi"))
    hash_move, first, second, other = (pos.parse_usi(m) for m in ("7g7f", "2g2f", "1g1f", "9g9f"))
    order.killers[3][0], order.killers[3][1] = first, second
    moves = [other, second, first, hash_move]
    keys = order.keys(pos, moves, pos.parse_usi("7g7f"), 3)  # an equal move, not the same object
    assert keys[3] > keys[2] == KILLER + 1 and keys[1] == KILLER and keys[0] < KILLER
    order.killers[3][1] = None  # an empty slot matches no move
    assert order.keys(pos, moves, None, 3)[1] < KILLER
