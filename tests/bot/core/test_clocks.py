"""Correspondence clocks: deadlines, reminders, loss on time, restarts (fake clock, no sleeps)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.core.scheduler import Scheduler
from bot.store import TimerKind
from tests.bot.core.harness import ALICE, BOB, Harness, until

DAY = 86400
HOUR = 3600


async def test_reminders_then_loss_on_time(h: Harness) -> None:
    game = await h.start_game(time="3d")
    await h.play(game, "7g7f")  # Bob's three days start now
    pending = await h.store.pending_timers(game.id)
    assert [(t.kind, t.offset) for t in pending] == [
        (TimerKind.REMINDER, DAY),
        (TimerKind.REMINDER, HOUR),
        (TimerKind.DEADLINE, 0),
    ]
    await h.clock.advance(2 * DAY - 60)
    assert await h.service.fire_due() == 0 and h.outbox.sent == []
    await h.clock.advance(61)
    assert await h.service.fire_due() == 1
    ((_chat, reminder),) = h.outbox.sent
    assert "Bob, it's your move in game #1 against Alice: 1d left" in reminder.text
    assert reminder.mentions == (BOB,)
    assert await h.service.fire_due() == 0  # never twice
    await h.clock.advance(DAY - HOUR)
    assert await h.service.fire_due() == 1
    assert "1h left" in h.outbox.sent[-1][1].text
    await h.clock.advance(HOUR)
    assert await h.service.fire_due() == 1
    _chat, timeout = h.outbox.sent[-1]
    assert "Bob ran out of time" in timeout.text
    assert "Alice wins by time forfeit" in timeout.text
    assert "Game #1 is over: Alice wins by time" in timeout.text
    assert set(timeout.mentions) == {ALICE, BOB}
    assert any(b.action == "export kif 1" for row in timeout.buttons for b in row)
    final = await h.game(game.id)
    assert (final.termination, final.winner, final.active) == ("timeout", 0, False)
    assert len(h.outbox.sent) == 3
    assert await h.service.fire_due() == 0


async def test_a_move_resets_the_clock_and_cancels_old_timers(h: Harness) -> None:
    game = await h.start_game(time="1d")
    await h.clock.advance(20 * HOUR)
    await h.play(game, "7g7f")
    await h.clock.advance(5 * HOUR)  # Alice's old deadline has passed; Bob's has not
    assert await h.service.fire_due() == 0
    assert (await h.game(game.id)).active
    await h.clock.advance(18 * HOUR)  # Bob's deadline minus one hour: a reminder
    assert await h.service.fire_due() == 1
    assert "Bob, it's your move" in h.outbox.sent[-1][1].text
    # A one-day clock gets no one-day reminder (it would come when the move starts).
    assert all("23h" not in r.text for _, r in h.outbox.sent)


async def test_no_clock_no_timers(h: Harness) -> None:
    game = await h.start_game(time="none")
    await h.play(game, "7g7f")
    assert await h.store.pending_timers(game.id) == []
    await h.clock.advance(365 * DAY)
    assert await h.service.fire_due() == 0
    assert (await h.game(game.id)).active


async def test_restart_fires_what_came_due_once(h: Harness) -> None:
    first = await h.start_game(ALICE, BOB, time="1d")
    await h.play(first, "7g7f")
    await h.restart()  # the bot stops...
    await h.clock.advance(23 * HOUR + 1)  # ...and while it is down a reminder comes due
    assert await h.service.fire_due() == 1
    assert len(h.outbox.sent) == 1
    await h.restart()
    assert await h.service.fire_due() == 0  # not again after another restart
    assert len(h.outbox.sent) == 1
    await h.restart()
    await h.clock.advance(3 * DAY)  # down past the deadline: the game is lost on time, once
    assert await h.service.fire_due() == 1
    assert "Bob ran out of time" in h.outbox.sent[-1][1].text
    await h.restart()
    assert await h.service.fire_due() == 0
    assert len(h.outbox.sent) == 2


async def test_a_long_outage_skips_stale_reminders(h: Harness) -> None:
    game = await h.start_game(time="3d")
    await h.restart()
    await h.clock.advance(3 * DAY - 30 * 60)  # both reminders are due; half an hour is left
    assert await h.service.fire_due() == 2
    ((_, only),) = h.outbox.sent
    assert "30m left" in only.text
    assert (await h.game(game.id)).active


async def test_the_scheduler_loop_fires_on_its_own(h: Harness) -> None:
    scheduler = Scheduler(h.service, h.clock, max_wait=DAY)
    stop = asyncio.Event()
    task = asyncio.create_task(scheduler.run(stop))
    try:
        game = await h.start_game(time="1d")
        for _ in range(5):
            await asyncio.sleep(0)
        await h.clock.advance(DAY - HOUR)
        await until(lambda: bool(h.outbox.sent))
        assert "Alice, it's your move" in h.outbox.sent[0][1].text
        await h.clock.advance(HOUR)

        async def ended() -> bool:
            return not (await h.game(game.id)).active

        await until(ended)
        assert (await h.game(game.id)).termination == "timeout"
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)


async def test_the_scheduler_waits_while_the_store_is_found_damaged(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    scheduler = Scheduler(h.service, h.clock, max_wait=DAY)
    game = await h.start_game(time="1d")
    h.store.damaged = "quick_check: page 7 is never used"  # as the background check sets it
    stop = asyncio.Event()
    task = asyncio.create_task(scheduler.run(stop))
    try:
        await h.clock.advance(2 * DAY)
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert (await h.game(game.id)).active
        assert not h.outbox.sent
        # no pass ran: nothing was tried, failed and logged pass after pass
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)
