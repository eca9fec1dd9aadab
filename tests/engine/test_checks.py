"""The engine's quick check tests agree with the rules core's full attack test."""

from __future__ import annotations

import pytest

from engine.checks import CheckTables
from engine.evaluation import Evaluator
from engine.tactical import TacticalMoves
from rules import SENTE, load_variant
from rules.movegen import attacked

from ..rules.random_games import random_positions, test_seed

SEED = test_seed()


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_gives_check_and_exposed_king_match_the_rules(variant_id: str) -> None:
    variant = load_variant(variant_id)
    checks = CheckTables(variant)
    generator = TacticalMoves(variant, Evaluator(variant))
    given = exposed = 0
    for pos in random_positions(variant_id, 120, SEED + 5):
        for move in pos.legal_moves():
            pos.make_unchecked(move)
            truth = pos.is_check()
            assert checks.gives_check(pos, move.from_sq, move.to_sq) == truth, (
                SEED,
                pos.sfen(),
            )
            given += truth
            pos.pop()
        if pos.is_check():
            continue  # the exposure test is for a side not in check
        side = pos.side
        for _, move in generator.generate(pos, quiet_promotions=True):
            pos.make_unchecked(move)
            king = pos.kings[side]
            truth = king >= 0 and attacked(pos, king, side ^ 1)
            assert checks.exposed_own_king(pos, move.from_sq, move.to_sq) == truth, (
                SEED,
                pos.sfen(),
            )
            exposed += truth
            pos.pop()
    assert given >= 3, SEED  # random Wa games give few checks; some seeds about ten


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_threatens_matches_the_rules_attack_test(variant_id: str) -> None:
    """A quiet move threatens when, once played, the piece it moved attacks an enemy piece
    worth more than itself: the rules core's attack test on a board where the mover's other
    pieces are turned into enemy ones (they still block lines and attack nothing for the
    mover), asked of every enemy piece worth more.  Asked before the move and after it."""
    variant = load_variant(variant_id)
    checks = CheckTables(variant)
    value = Evaluator(variant).piece_value
    threats = quiet = 0
    for pos in random_positions(variant_id, 60, SEED + 7):
        board = pos.board
        for move in pos.legal_moves():
            if move.promote or (move.drop == 0 and board[move.to_sq]):
                continue
            quiet += 1
            mover = pos.side
            sign = 1 if mover == SENTE else -1
            v = board[move.from_sq] if move.drop == 0 else move.drop * sign
            before = checks.threatens(pos, move.from_sq, move.to_sq, v, value)
            pos.make_unchecked(move)
            after = checks.threatens(pos, move.from_sq, move.to_sq, v, value)
            probe = pos.copy()
            victims = []
            for sq, piece in enumerate(pos.board):
                if piece and (piece > 0) != (v > 0) and value[piece] > value[v]:
                    victims.append(sq)
                elif piece and (piece > 0) == (v > 0) and sq != move.to_sq:
                    probe.board[sq] = -piece  # a blocker of the other side
            truth = any(attacked(probe, sq, mover) for sq in victims)
            pos.pop()
            assert before == after == truth, (SEED, pos.sfen(), pos.usi(move))
            threats += truth
    assert quiet > 1000 and threats >= 3, (SEED, quiet, threats)  # Wa: 13-71 on 6 seeds
