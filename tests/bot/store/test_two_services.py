"""Two game services (two bot processes) on one database, on both backends: each reminder is
claimed by one of them and sent once, also when a process dies holding its claim."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.config import Config
from bot.core.api import ChatRef
from bot.core.clock import FakeClock
from bot.core.service import TIMER_LEASE
from tests.bot.core.harness import Harness, person
from tests.bot.store.conftest import OpenStore

GAMES = 12


async def two_services(open_store: OpenStore, tmp_path: Path) -> tuple[FakeClock, Harness, Harness]:
    clock = FakeClock()
    config = Config(reminders=(86400,))
    one = await Harness(tmp_path / "unused", clock, config, open_store=open_store).open()
    two = await Harness(tmp_path / "unused", clock, config, open_store=open_store).open()
    for i in range(GAMES):  # each game in a chat of its own, started on either process
        h = one if i % 2 else two
        await h.start_game(
            person(f"s{i}"), person(f"g{i}"), time="3d", chat=ChatRef("console", f"c{i}")
        )
    return clock, one, two


def reminders(*services: Harness) -> list[str]:
    return [
        chat.chat_id
        for h in services
        for chat, reply in h.outbox.sent
        if reply.text.startswith("⏰")  # the reminder's text (messages: clock.reminder)
    ]


async def test_each_reminder_is_sent_once_by_one_of_two_processes(
    open_store: OpenStore, tmp_path: Path
) -> None:
    clock, one, two = await two_services(open_store, tmp_path)
    try:
        await clock.advance(2 * 86400 + 1)  # a day before every deadline
        handled = await asyncio.gather(one.service.fire_due(), two.service.fire_due())
        assert sum(handled) == GAMES
        await asyncio.gather(one.service.fire_due(), two.service.fire_due())
        sent = reminders(one, two)
        assert sorted(sent) == sorted(f"c{i}" for i in range(GAMES)), sent
        assert await one.store.next_due() is not None  # the deadlines are still to come
    finally:
        await one.close()
        await two.close()


async def test_reminders_a_dead_process_had_claimed_are_sent_after_its_lease(
    open_store: OpenStore, tmp_path: Path
) -> None:
    clock, one, two = await two_services(open_store, tmp_path)
    try:
        await clock.advance(2 * 86400 + 1)
        now = clock.now()
        taken = await one.store.claim_timers(now, now + TIMER_LEASE)
        assert len(taken) == GAMES
        await one.close()  # it dies holding them: nothing fired, nothing sent
        assert await two.service.fire_due() == 0
        await clock.advance(TIMER_LEASE)
        assert await two.service.fire_due() == GAMES
        await two.service.fire_due()
        assert sorted(reminders(one, two)) == sorted(f"c{i}" for i in range(GAMES))
    finally:
        await two.close()
