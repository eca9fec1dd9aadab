"""The won-endgame terms: the side ahead is drawn towards the enemy king, pushes that king to an
edge and, without drops, trades pieces."""

from __future__ import annotations

from engine.evaluation import Evaluator
from rules import GOTE, SENTE, Position, load_variant


def _pull(variant_id: str, sfen: str, strong: int = SENTE) -> int:
    variant = load_variant(variant_id)
    return Evaluator(variant).conversion.pull(Position.from_sfen(variant, sfen), strong)


def test_a_piece_next_to_the_enemy_king_pulls_more_than_one_further_away() -> None:
    far = _pull("wa", "5k5/11/11/11/11/11/11/11/11/P10/5K5 b - 1")
    middle = _pull("wa", "5k5/11/11/11/11/P10/11/11/11/11/5K5 b - 1")
    near = _pull("wa", "5k5/4P6/11/11/11/11/11/11/11/11/5K5 b - 1")
    assert far < middle < near
    # the last squares count most: a step at the king weighs more than a step far away
    one_step_far = _pull("wa", "5k5/11/11/11/11/11/11/11/P10/11/5K5 b - 1")
    one_step_near = _pull("wa", "5k5/11/4P6/11/11/11/11/11/11/11/5K5 b - 1")
    assert near - one_step_near > one_step_far - far


def test_the_enemy_king_in_the_middle_is_worth_less_to_the_side_ahead() -> None:
    edge = _pull("wa", "5k5/11/11/11/11/11/11/11/11/11/R4K5 b - 1")
    centre = _pull("wa", "11/11/11/11/11/5k5/11/11/11/11/R4K5 b - 1")
    assert edge > centre


def test_trading_pieces_pays_without_drops_only() -> None:
    # the same two rabbits ahead, with and without a pair of Plodding Oxen besides
    more = "o4k5/11/11/11/11/11/11/11/11/RR9/O4K5 b - 1"
    fewer = "5k5/11/11/11/11/11/11/11/11/RR9/5K5 b - 1"
    assert _pull("wa", fewer) > _pull("wa", more)
    # with drops a capture goes to a hand: nothing leaves the game, nothing to gain by it
    wa_drops = load_variant("wa-drops")
    conversion = Evaluator(wa_drops).conversion
    assert not conversion.trades


def test_the_terms_count_for_the_side_ahead_only_and_from_its_view() -> None:
    wa = load_variant("wa")
    evaluator = Evaluator(wa)
    level = Position.from_sfen(wa, "5k5/11/11/11/11/11/11/11/11/11/5K5 b - 1")
    assert evaluator.conversion.bonus(evaluator.material(level), level) == 0
    ahead = Position.from_sfen(wa, "5k5/11/11/11/RR9/11/11/11/11/11/5K5 b - 1")
    behind = Position.from_sfen(wa, "5k5/11/11/11/11/11/9rr/11/11/11/5K5 b - 1")
    up = evaluator.conversion.bonus(evaluator.material(ahead), ahead)
    down = evaluator.conversion.bonus(evaluator.material(behind), behind)
    assert up > 0
    assert down == -up
    assert evaluator.conversion.pull(behind, GOTE) == up
