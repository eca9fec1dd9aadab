"""The quiescence generator against the rules core's legal moves."""

from __future__ import annotations

import pytest

from engine.evaluation import Evaluator
from engine.tactical import Tactical, TacticalMoves
from rules import Move, Position, load_variant
from rules.movegen import attacked

from ..rules.random_games import random_positions, test_seed

SEED = test_seed()


def legal_after(pos: Position, generated: list[Tactical]) -> set[Move]:
    """Generated moves that do not leave the mover's king attacked."""
    out = set()
    side = pos.side
    for _, _, move in generated:
        pos.make_unchecked(move)
        king = pos.kings[side]
        if king < 0 or not attacked(pos, king, side ^ 1):
            out.add(move)
        pos.pop()
    return out


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_captures_are_exactly_the_legal_captures(variant_id: str) -> None:
    variant = load_variant(variant_id)
    gen = TacticalMoves(variant, Evaluator(variant))
    captures = 0
    for pos in random_positions(variant_id, 150, SEED + 3):
        legal = pos.legal_moves()
        ours = legal_after(pos, gen.generate(pos, quiet_promotions=True))
        assert ours <= set(legal), (SEED, pos.sfen())  # nothing illegal survives the filter
        # every legal capture's squares are there once, promoting or not as chosen
        wanted = {(m.from_sq, m.to_sq) for m in legal if not m.drop and pos.board[m.to_sq]}
        got = [(m.from_sq, m.to_sq) for m in ours if pos.board[m.to_sq]]
        assert sorted(got) == sorted(wanted), (SEED, pos.sfen())
        captures += len(wanted)
        # quiet moves generated are promotions that gain
        for move in ours:
            if not pos.board[move.to_sq]:
                assert move.promote
    assert captures > 30, SEED


def test_forced_promotion_is_generated_and_gainless_ones_are_declined() -> None:
    variant = load_variant("shogi")
    gen = TacticalMoves(variant, Evaluator(variant))
    # a pawn capturing on the last rank must promote
    pos = Position.from_sfen(variant, "3gk4/3P5/9/9/9/9/9/9/4K4 b - 1")
    moves = [m for _, _, m in gen.generate(pos, quiet_promotions=True)]
    assert [pos.usi(m) for m in moves if pos.board[m.to_sq]] == ["6b6a+"]
