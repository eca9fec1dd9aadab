"""Move generation against independent generators on positions from random games.

Standard Shogi against cshogi (C++); every variant against the naive generator in ``naive.py``.
"""

from __future__ import annotations

import cshogi
import pytest

from .naive import naive_in_check, naive_legal_moves
from .random_games import random_positions, test_seed

SEED = test_seed()
MIN_CHECKS = 6


def test_standard_shogi_matches_cshogi() -> None:
    checked = checks = mates = drops = 0
    for pos in random_positions("shogi", 1500, SEED):
        board = cshogi.Board(pos.sfen())
        ours = sorted(pos.usi(m) for m in pos.legal_moves())
        theirs = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
        where = f"seed {SEED}, sfen {pos.sfen()}"
        assert ours == theirs, where
        assert pos.is_check() == board.is_check(), where
        mate = pos.is_check() and not ours
        assert mate == (board.is_check() and board.is_game_over()), where
        checked += 1
        checks += pos.is_check()
        mates += mate
        drops += any("*" in m for m in ours)
    assert checked == 1500
    assert checks > 20 and drops > 200 and mates > 0, (checks, drops, mates, SEED)


@pytest.mark.parametrize(("variant", "count"), [("shogi", 300), ("wa", 300), ("wa-drops", 300)])
def test_matches_naive_generator(variant: str, count: int) -> None:
    # ``count`` positions, and more (up to four times as many) until the sample holds enough
    # checks: some seeds' games give few, and a sample without checks would prove little.
    checks = 0
    for seen, pos in enumerate(random_positions(variant, 4 * count, SEED + 7), start=1):
        ours = sorted(pos.usi(m) for m in pos.legal_moves())
        naive = sorted(pos.usi(m) for m in naive_legal_moves(pos))
        where = f"seed {SEED + 7}, sfen {pos.sfen()}"
        assert ours == naive, where
        assert pos.is_check() == naive_in_check(pos), where
        checks += pos.is_check()
        if seen >= count and checks >= MIN_CHECKS:
            break
    assert checks >= MIN_CHECKS, f"too few checks to be a useful sample (seed {SEED + 7})"
