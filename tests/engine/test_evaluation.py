"""Evaluation: the sums the search keeps move by move equal a fresh count, and colours are
symmetric."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.evaluation import Evaluator
from engine.weights import weights_for
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
    # sente is a Flying Goose ahead (less than the full mop-up lead; a piece that does not
    # ride, so no reach counts): the pull towards the gote king is part of the score
    # already, at part strength, and grows with the lead
    wa = load_variant("wa")
    evaluator = Evaluator(wa)
    pos = Position.from_sfen(wa, "5k5/11/11/11/11/11/11/11/11/G10/5K5 b - 1")
    lead = evaluator.material(pos)
    assert evaluator.mop_up_start < lead < evaluator.mop_up_from
    assert evaluator.ride_reach(pos) == 0
    plain = lead + evaluator.king_safety(pos, SENTE) - evaluator.king_safety(pos, GOTE)
    pull = evaluator.full(pos) - plain - evaluator.tempo
    assert 0 < pull < evaluator.mop_up(pos, SENTE)


def _without_reach(evaluator: Evaluator, pos: Position) -> int:
    """Sente's score of ``pos`` (sente to move) but for the ranging pieces' reach, sente
    far ahead: material, king safety, the full mop-up pull, the tempo."""
    material = evaluator.material(pos)
    assert material >= evaluator.mop_up_from
    safety = evaluator.king_safety(pos, SENTE) - evaluator.king_safety(pos, GOTE)
    return material + safety + evaluator.mop_up(pos, SENTE) + evaluator.tempo


def test_far_ahead_the_reach_counts_against_a_full_defence_not_a_bare_king() -> None:
    # Wa's ranging pieces score their reach (what keeps them from being walled in), but far
    # ahead against a bare king it counted more than closing in: it fades with the defence
    wa = load_variant("wa")
    evaluator = Evaluator(wa)
    assert evaluator.ride_mobility > 0
    start = Position.start(wa)
    # gote without its Flying Falcon and Cloud Eagle: far ahead, the defence still full
    board = list(start.board)
    for sq, v in enumerate(board):
        if v < 0 and wa.piece(-v).letter in "EF":
            board[sq] = 0
    fuller = Position(wa, board, [[0] * len(h) for h in start.hands], SENTE, 1)
    assert evaluator.defence(fuller, GOTE) >= evaluator.thin_defence
    reach = round(evaluator.ride_mobility * evaluator.ride_reach(fuller))
    assert reach != 0
    assert evaluator.full(fuller) == _without_reach(evaluator, fuller) + reach
    # a Swallow's Wings, a Running Rabbit and a Flying Falcon against a bare king: no reach
    bare = Position.from_sfen(wa, "5k5/11/11/11/11/11/11/11/11/S1R1F6/5K5 b - 1")
    assert evaluator.defence(bare, GOTE) == 0 and evaluator.ride_reach(bare) > 0
    assert evaluator.full(bare) == _without_reach(evaluator, bare)
    # part of a thin defence left: that part of the reach
    part = Position.from_sfen(wa, "5k5/1x1r1o5/11/11/11/11/11/11/11/SRFXE6/5K5 b - 1")
    left = evaluator.defence(part, GOTE)
    assert 0 < left < evaluator.thin_defence
    reach = evaluator.ride_mobility * evaluator.ride_reach(part) * left / evaluator.thin_defence
    assert reach != 0
    assert abs(evaluator.full(part) - _without_reach(evaluator, part) - reach) <= 1


def test_open_squares_next_to_the_king_cost_more_the_more_the_enemy_holds() -> None:
    # no enemy piece near either king: only the open squares and the enemy's hand differ
    variant = load_variant("shogi")
    evaluator = Evaluator(variant)
    bare = "4k4/9/9/9/9/9/9/9/4K4 b {} 1"
    castle = "4k4/9/9/9/9/9/9/3GSG3/3GKS3 b {} 1"
    nothing, pawns, rook = (Position.from_sfen(variant, bare.format(h)) for h in ("-", "2p", "r"))
    assert evaluator.king_safety(nothing, SENTE) == 0
    assert evaluator.king_safety(rook, SENTE) < evaluator.king_safety(pawns, SENTE) < 0
    # five open squares cost 5 x 2% of a rook in hand; none open, nothing
    rook_in_hand = evaluator.hand_worth[variant.by_letter["R"].kind]
    assert evaluator.king_safety(rook, SENTE) == -round(5 * rook_in_hand * 0.02)
    shut = Position.from_sfen(variant, castle.format("r"))
    assert evaluator.king_safety(shut, SENTE) == evaluator.defender * 5
    # without drops the term is not there
    wa = load_variant("wa")
    wa_eval = Evaluator(wa)
    assert (
        wa_eval.king_safety(
            Position.from_sfen(wa, "5k5/11/11/11/11/11/11/11/11/11/5K5 b - 1"), SENTE
        )
        == 0
    )


def _reach_by_rays(pos: Position) -> int:
    """The real-board reach of the ranging pieces counted square by square from the rules'
    rays: sente's less gote's."""
    rides = pos.variant.tables.rides
    board = pos.board
    total = 0
    for sq, v in enumerate(board):
        if not v:
            continue
        reach = 0
        for ray in rides[v][sq]:
            for to in ray:
                if board[to]:
                    reach += (board[to] > 0) != (v > 0)
                    break
                reach += 1
        total += reach if v > 0 else -reach
    return total


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_ride_reach_counts_each_ray_up_to_the_first_piece(variant_id: str) -> None:
    evaluator = Evaluator(load_variant(variant_id))
    for pos in random_positions(variant_id, 40, SEED + 2):
        assert evaluator.ride_reach(pos) == _reach_by_rays(pos), (SEED, pos.sfen())


def test_a_walled_in_ranging_piece_reaches_less() -> None:
    wa = load_variant("wa")
    evaluator = Evaluator(wa)
    # a lone Oxcart (fR) on 6k: the ten squares ahead
    alone = "k10/11/11/11/11/11/11/11/11/11/5O4K b - 1"
    assert evaluator.ride_reach(Position.from_sfen(wa, alone)) == 10
    # a sente pawn on 6f stops it after four; a gote pawn there is taken: five
    own = "k10/11/11/11/11/5P5/11/11/11/11/5O4K b - 1"
    enemy = "k10/11/11/11/11/5p5/11/11/11/11/5O4K b - 1"
    assert evaluator.ride_reach(Position.from_sfen(wa, own)) == 4
    assert evaluator.ride_reach(Position.from_sfen(wa, enemy)) == 5
    # a gote Oxcart on 6a, facing sente's on the file, reaches as far: the two cancel
    facing = "k4o5/11/11/11/11/11/11/11/11/11/5O4K b - 1"
    assert evaluator.ride_reach(Position.from_sfen(wa, facing)) == 0


def test_ride_mobility_counts_in_wa_only() -> None:
    wa = load_variant("wa")
    weights = weights_for(wa)
    assert weights.ride_mobility > 0
    with_term = Evaluator(wa)
    without = Evaluator(wa, weights=replace(weights, ride_mobility=0))
    checked = 0
    for pos in random_positions("wa", 20, SEED + 3):
        material = with_term.material(pos)
        weak = GOTE if material > 0 else SENTE
        far_ahead = abs(material) > with_term.mop_up_start
        if far_ahead and with_term.defence(pos, weak) < with_term.thin_defence:
            continue  # far ahead against a thin defence the reach fades (tested above)
        extra = round(weights.ride_mobility * with_term.ride_reach(pos))
        sign = 1 if pos.side == SENTE else -1
        assert with_term.full(pos) == without.full(pos) + sign * extra, (SEED, pos.sfen())
        checked += 1
    assert checked >= 10
    # fitted and measured in Wa only: Wa with drops (which inherits wa.toml) and Standard
    # Shogi leave it off
    for variant_id in ("shogi", "wa-drops"):
        assert weights_for(load_variant(variant_id)).ride_mobility == 0
