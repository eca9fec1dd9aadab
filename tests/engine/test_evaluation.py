"""Evaluation: the sums the search keeps move by move equal a fresh count, and colours are
symmetric."""

from __future__ import annotations

import pytest

from engine.evaluation import Evaluator
from rules import GOTE, SENTE, Position, load_variant

from ..rules.random_games import random_positions, test_seed

SEED = test_seed()
VARIANTS = ("shogi", "wa", "wa-drops")


def mirrored(pos: Position) -> Position:
    """The same position with the colours swapped (board turned round, hands swapped)."""
    board = [-v for v in reversed(pos.board)]
    hands = [pos.hands[GOTE][:], pos.hands[SENTE][:]]
    return Position(pos.variant, board, hands, pos.side ^ 1, pos.move_number)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_move_delta_keeps_material_exact(variant_id: str) -> None:
    evaluator = Evaluator(load_variant(variant_id))
    checked = 0
    for pos in random_positions(variant_id, 60, SEED):
        material = evaluator.material(pos)
        for move in pos.legal_moves():
            delta = evaluator.move_delta(pos, move)
            pos.make_unchecked(move)
            assert evaluator.material(pos) == material + delta, (SEED, pos.sfen(), move)
            pos.pop()
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_evaluation_is_the_same_for_either_colour(variant_id: str) -> None:
    evaluator = Evaluator(load_variant(variant_id))
    for pos in random_positions(variant_id, 40, SEED + 1):
        assert evaluator.full(pos) == evaluator.full(mirrored(pos)), (SEED, pos.sfen())


def test_start_position_is_balanced_and_material_counts() -> None:
    for variant_id in VARIANTS:
        variant = load_variant(variant_id)
        evaluator = Evaluator(variant)
        start = Position.start(variant)
        assert evaluator.material(start) == 0
        # without its rook (or eagle), sente is clearly worse
        letter = "R" if variant_id == "shogi" else "E"
        sq = start.board.index(variant.by_letter[letter].kind)
        weaker = start.copy()
        weaker.board[sq] = 0
        weaker = Position(variant, weaker.board, weaker.hands, SENTE)
        assert evaluator.full(weaker) < evaluator.full(start) - 500


def test_king_safety_counts_defenders_and_attackers() -> None:
    variant = load_variant("shogi")
    evaluator = Evaluator(variant)
    alone = Position.from_sfen(variant, "4k4/9/9/9/9/9/9/9/4K4 b - 1")
    guarded = Position.from_sfen(variant, "4k4/9/9/9/9/9/9/3GSG3/4K4 b - 1")
    attacked = Position.from_sfen(variant, "4k4/9/9/9/9/9/3g1g3/9/4K4 b - 1")
    assert evaluator.king_safety(guarded, SENTE) > evaluator.king_safety(alone, SENTE)
    assert evaluator.king_safety(attacked, SENTE) < evaluator.king_safety(alone, SENTE)
    # pieces in the enemy's hand make attackers more dangerous
    armed = Position.from_sfen(variant, "4k4/9/9/9/9/9/3g1g3/9/4K4 b 3p 1")
    assert evaluator.king_safety(armed, SENTE) < evaluator.king_safety(attacked, SENTE)


def test_a_moderate_lead_already_pulls_towards_the_enemy_king() -> None:
    # sente is a Running Rabbit ahead (less than the full mop-up lead): the pull towards the
    # gote king is part of the score already, at part strength, and grows with the lead
    wa = load_variant("wa")
    evaluator = Evaluator(wa)
    pos = Position.from_sfen(wa, "5k5/11/11/11/11/11/11/11/11/R10/5K5 b - 1")
    lead = evaluator.material(pos)
    assert evaluator.mop_up_start < lead < evaluator.mop_up_from
    plain = lead + evaluator.king_safety(pos, SENTE) - evaluator.king_safety(pos, GOTE)
    pull = evaluator.full(pos) - plain - evaluator.tempo
    assert 0 < pull < evaluator.mop_up(pos, SENTE)
