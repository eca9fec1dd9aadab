"""The staged move generator against the rules core's legal moves."""

from __future__ import annotations

import pytest

from engine.checks import CheckTables
from engine.moves import StagedMoves
from rules import Move, Position, load_variant

from ..rules.random_games import random_positions, test_seed

SEED = test_seed()


def staged_legal(pos: Position, gen: StagedMoves, checks: CheckTables) -> list[Move]:
    out = []
    for move in gen.board_moves(pos):
        pos.make_unchecked(move)
        if not checks.exposed_own_king(pos, move.from_sq, move.to_sq):
            out.append(move)
        pos.pop()
    return out + gen.drops(pos)


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_stages_together_are_the_legal_moves(variant_id: str) -> None:
    variant = load_variant(variant_id)
    gen, checks = StagedMoves(variant), CheckTables(variant)
    tested = drops = 0
    for pos in random_positions(variant_id, 200, SEED + 9):
        if pos.is_check():
            continue  # in check the search uses the rules core's moves
        ours = staged_legal(pos, gen, checks)
        assert len(ours) == len(set(ours)), (SEED, pos.sfen())
        assert sorted(ours) == sorted(pos.legal_moves()), (SEED, pos.sfen())
        tested += 1
        drops += sum(1 for m in ours if m.drop)
    assert tested > 100
    assert variant_id == "wa" or drops > 100


def test_drops_keep_the_drop_rules() -> None:
    variant = load_variant("shogi")
    gen = StagedMoves(variant)
    # a pawn on file 5 already; a pawn drop on 5b would mate (uchifuzume); the last rank is
    # no place for a pawn or lance, the last two none for a knight
    pos = Position.from_sfen(variant, "4k4/9/4G4/9/4P4/9/9/9/4K4 b PLN 1")
    texts = {pos.usi(m) for m in gen.drops(pos)}
    assert not any(t.startswith("P*") and t[3] == "a" for t in texts)
    assert not any(t.startswith("P*5") for t in texts)  # nifu
    assert "L*1a" not in texts and "N*1b" not in texts and "N*1c" in texts
    mate = Position.from_sfen(variant, "3rkr3/9/4G4/9/9/9/9/9/4K4 b P 1")
    assert "P*5b" not in {mate.usi(m) for m in gen.drops(mate)}
    assert "P*5b" not in {mate.usi(m) for m in mate.legal_moves()}
