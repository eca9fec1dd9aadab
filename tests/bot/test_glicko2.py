"""Glicko-2 against Glickman's worked example, and Komabot's choices around it."""

from __future__ import annotations

import pytest

from bot.glicko2 import (
    MAX_DEVIATION,
    PROVISIONAL_DEVIATION,
    SCALE,
    Rating,
    age,
    shown,
    update,
)


def test_the_papers_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (win),
    1550/100 (loss) and 1700/300 (loss) with tau 0.5 gives 1464.06 / 151.52 / 0.05999.

    The paper rounds its intermediate values; computed exactly the rating is 1464.0507, so
    it is checked to the paper's 0.01 (the volatility, 0.059996, the paper cuts to 0.05999),
    and on the Glicko-2 scale to its four decimals (mu' = -0.2069, phi' = 0.8722)."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = update(player, games, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert round(new.deviation, 2) == 151.52
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.0599960, shown cut
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert round(new.deviation / SCALE, 4) == 0.8722


def test_one_game_between_newcomers() -> None:
    win = update(Rating(), [(Rating(), 1.0)])
    loss = update(Rating(), [(Rating(), 0.0)])
    draw = update(Rating(), [(Rating(), 0.5)])
    assert round(win.rating) == 1662 and round(loss.rating) == 1338
    assert draw.rating == pytest.approx(1500)
    assert win.deviation < MAX_DEVIATION and win.provisional
    assert shown(win) == "1662?"


def test_deviation_grows_with_inactivity_up_to_the_cap() -> None:
    settled = Rating(1700, 60, 0.06)
    assert not settled.provisional and shown(settled) == "1700"
    assert age(settled, 0) == settled
    month = age(settled, 30)
    assert settled.deviation < month.deviation < age(settled, 365).deviation
    assert month.rating == settled.rating
    assert age(settled, 100_000).deviation == MAX_DEVIATION
    assert age(Rating(1500, PROVISIONAL_DEVIATION + 1), 1).provisional


def test_a_period_without_games_only_grows_the_deviation() -> None:
    idle = update(Rating(1600, 80, 0.06), [])
    assert idle.rating == 1600 and idle.deviation > 80
