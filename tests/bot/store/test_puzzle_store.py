"""Puzzles on both backends, two bot processes on one database: a session started on one is
answered on the other, each result rated once, and the daily puzzle posted once however the
two race for it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot import glicko2
from bot.config import Config
from bot.core.clock import FakeClock
from tests.bot.core.harness import ALICE, BOB, MAIN, Harness
from tests.bot.core.puzzle_fixtures import KEY, MATE, PUZZLE_ID, one_puzzle_book
from tests.bot.store.conftest import OpenStore


async def two_processes(open_store: OpenStore, tmp_path: Path) -> tuple[Harness, Harness]:
    clock = FakeClock()
    book = one_puzzle_book(tmp_path)
    made = [
        await Harness(
            tmp_path / "unused", clock, Config(), open_store=open_store, puzzle_book=book
        ).open()
        for _ in range(2)
    ]
    return made[0], made[1]


async def test_a_puzzle_across_two_processes_is_rated_once(
    open_store: OpenStore, tmp_path: Path
) -> None:
    one, two = await two_processes(open_store, tmp_path)
    try:
        assert PUZZLE_ID in (await one.say(ALICE, "puzzle")).text
        assert "right" in (await two.say(ALICE, "puzzle", KEY)).text
        answers = await asyncio.gather(
            one.say(ALICE, "puzzle", MATE), two.say(ALICE, "puzzle", MATE)
        )
        assert sum("Solved." in a.text for a in answers) == 1, [a.text for a in answers]
        mine = await one.store.puzzle_rating("console", "main", ALICE.key)
        assert mine is not None and mine.attempts == 1
        await two.say(BOB, "puzzle")
        await one.say(BOB, "puzzle", "solution")
        assert (await two.store.puzzle_difficulties())[PUZZLE_ID][0] != 1250.0
        bob = await two.store.puzzle_rating("console", "main", BOB.key)
        assert bob is not None and bob.rating < glicko2.START_RATING
        reply = await one.say(ALICE, "leaderboard", "puzzles")
        assert "is still provisional" in reply.text
    finally:
        await one.close()
        await two.close()


async def test_the_daily_puzzle_is_posted_once_by_two_processes(
    open_store: OpenStore, tmp_path: Path
) -> None:
    one, two = await two_processes(open_store, tmp_path)
    try:
        await one.say(ALICE, "settings", "puzzle", "daily", "16:00")
        await one.clock.advance(3600)
        await asyncio.gather(one.service.fire_due(), two.service.fire_due())
        await asyncio.gather(one.service.fire_due(), two.service.fire_due())
        sent = [r for h in (one, two) for _, r in h.outbox.sent if "Puzzle of the day" in r.text]
        assert len(sent) == 1
        assert await one.store.daily_post(MAIN) == ("2025-06-15", PUZZLE_ID)
        said = (await two.say(BOB, "puzzle", "daily")).text
        assert "solved by 0 players so far" in said
    finally:
        await one.close()
        await two.close()
