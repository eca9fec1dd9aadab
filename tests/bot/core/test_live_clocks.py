"""Live games: per-move limits in minutes (1m to 1h), a warning 30 seconds before the deadline
posted once, and loss on time by the durable timers across restarts (fake clock, no sleeps)."""

from __future__ import annotations

import pytest

from bot.store import TimerKind
from tests.bot.core.harness import ALICE, BOB, Harness


@pytest.mark.parametrize(
    ("typed", "seconds"), [("1m", 60), ("5m", 300), ("30m", 1800), ("1h", 3600)]
)
async def test_minutes_per_move_are_live_games(h: Harness, typed: str, seconds: int) -> None:
    card = await h.say(ALICE, "challenge", "sente", typed, target=BOB)
    assert f"{typed} per move" in card.text, card.text
    await h.say(BOB, "accept")
    game = await h.game(1)
    assert game.time_per_move == seconds and game.deadline == h.clock.now() + seconds
    pending = await h.store.pending_timers(game.id)
    # the configured reminders (a day, an hour) are longer than a live move: only the warning
    assert [(t.kind, t.offset) for t in pending] == [
        (TimerKind.REMINDER, 30),
        (TimerKind.DEADLINE, 0),
    ]


async def test_a_ten_minute_game_warns_once_and_ends_on_time_across_restarts(h: Harness) -> None:
    game = await h.start_game(time="10m")
    start = await h.play(game, "7g7f")  # Bob's ten minutes start now
    assert "(in 10m)" in start.text, start.text
    await h.restart()
    await h.clock.advance(570 - 1)
    assert await h.service.fire_due() == 0 and h.outbox.sent == []
    await h.clock.advance(1)
    assert await h.service.fire_due() == 1
    ((_chat, warning),) = h.outbox.sent
    assert "Bob, it's your move in game #1 against Alice: 30s left" in warning.text  # seconds
    assert "15:16:40 UTC (in 30s)" in warning.text, warning.text
    assert warning.mentions == (BOB,)
    await h.restart()
    assert await h.service.fire_due() == 0  # the warning is posted once
    await h.clock.advance(29)
    assert await h.service.fire_due() == 0 and (await h.game(1)).active
    await h.restart()
    await h.clock.advance(1)  # the deadline, exactly ten minutes after Alice's move
    assert await h.service.fire_due() == 1
    assert "Bob ran out of time" in h.outbox.sent[-1][1].text
    final = await h.game(1)
    assert (final.termination, final.winner) == ("timeout", 0)
    await h.restart()
    await h.clock.advance(3600)
    assert await h.service.fire_due() == 0 and len(h.outbox.sent) == 2  # lost once


async def test_a_move_in_time_restarts_the_live_clock(h: Harness) -> None:
    game = await h.start_game(time="1m")
    await h.clock.advance(50)
    await h.play(game, "7g7f")
    assert (await h.game(1)).deadline == h.clock.now() + 60
    await h.clock.advance(59)
    assert await h.service.fire_due() == 1  # Bob's warning only: Alice's timers are gone
    assert "Bob" in h.outbox.sent[-1][1].text and (await h.game(1)).active


@pytest.mark.parametrize("typed", ["30s", "59s"])
async def test_under_a_minute_per_move_is_refused(h: Harness, typed: str) -> None:
    reply = await h.say(ALICE, "challenge", typed, target=BOB)
    assert "between 1m and 30d" in reply.text and reply.card is None


async def test_help_challenge_explains_live_games(h: Harness) -> None:
    reply = await h.say(ALICE, "help", "challenge")
    assert "1m, 5m, 10m, 30m, 1h" in reply.text and "lose on time" in reply.text
