"""Positions from random games, for differential tests.

The seed comes from ``KOMABOT_TEST_SEED`` or the clock, so every run looks at positions nobody
chose in advance; a failing assertion message includes the seed and SFEN to replay it.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator

from rules import Move, Position, load_variant


def test_seed() -> int:
    return int(os.environ.get("KOMABOT_TEST_SEED", time.time_ns() % 1_000_000_007))


test_seed.__test__ = False  # type: ignore[attr-defined]


def random_positions(
    variant_id: str, count: int, seed: int, max_plies: int = 200, share: float = 0.35
) -> Iterator[Position]:
    """``count`` positions from random games that favour captures, drops and checks.

    About ``share`` of the positions of each game are yielded, so that many games contribute.
    """
    rng = random.Random(seed)
    variant = load_variant(variant_id)
    made = 0
    while made < count:
        pos = Position.start(variant)
        for _ in range(max_plies):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                yield pos  # always include how the game ended (mate, repetition)
                made += 1
                break
            if rng.random() < share:
                yield pos
                made += 1
                if made >= count:
                    return
            captures = [m for m in moves if m.drop == 0 and pos.board[m.to_sq]]
            drops = [m for m in moves if m.drop]
            roll = rng.random()
            if roll < 0.15:
                checking = [m for m in moves if _gives_check(pos, m)]
                move = rng.choice(checking or moves)
            elif captures and roll < 0.55:
                move = rng.choice(captures)
            elif drops and roll < 0.75:
                move = rng.choice(drops)
            else:
                move = rng.choice(moves)
            pos.make_unchecked(move)


def _gives_check(pos: Position, move: Move) -> bool:
    pos.make_unchecked(move)
    try:
        return pos.is_check()
    finally:
        pos.pop()
