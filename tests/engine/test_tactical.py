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
    for _, move in generated:
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
    moves = [m for _, m in gen.generate(pos, quiet_promotions=True)]
    assert [pos.usi(m) for m in moves if pos.board[m.to_sq]] == ["6b6a+"]


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_moves_come_best_first_and_a_deeper_ply_may_grow_the_room(variant_id: str) -> None:
    """Picked in the order of a stable sort by key (best first, equal keys as generated),
    and a position's moves survive a deeper ply's moves growing the scratch arrays, as in
    the search: ply 0 takes a move, ply 1 fills, ply 0 goes on."""
    variant = load_variant(variant_id)
    evaluator = Evaluator(variant)
    roomy = TacticalMoves(variant, evaluator)
    counted = [
        (len(roomy.generate(p, True)), p.copy()) for p in random_positions(variant_id, 80, SEED)
    ]
    counted = sorted((c for c in counted if c[0] >= 2), key=lambda c: c[0])
    half = len(counted) // 2
    pairs = list(zip(counted[:half], reversed(counted[-half:]), strict=True))
    grown = 0
    for (few, shallow), (many, deep) in pairs:
        n = roomy.fill(shallow, True, 0)
        assert n == few
        keys = [roomy.keys[i] for i in range(n)]
        expected = [
            (roomy.wons[i], roomy.moves[i]) for i in sorted(range(n), key=lambda i: -keys[i])
        ]
        tight = TacticalMoves(variant, evaluator, plies=2, room=1)
        assert tight.fill(shallow, True, 0) == n
        first = tight.pick(0, n)
        got = [(tight.wons[first], tight.moves[first])]
        room = tight.room
        assert tight.fill(deep, True, 1) == many
        grown += tight.room > room
        while (at := tight.pick(0, n)) >= 0:
            got.append((tight.wons[at], tight.moves[at]))
        assert got == expected, (SEED, shallow.sfen(), deep.sfen())
    assert grown >= 1, SEED
