"""The engine's quick check tests agree with the rules core's full attack test."""

from __future__ import annotations

import pytest

from engine.checks import CheckTables
from engine.evaluation import Evaluator
from engine.tactical import TacticalMoves
from rules import load_variant
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
        for _, _, move in generator.generate(pos, quiet_promotions=True):
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
