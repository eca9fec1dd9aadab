"""PostgreSQL stopped while Komabot runs (issue 24, item 8): every request is answered that the
database is unavailable and nothing was changed, in the chat's language; the log has the
store's one line for the outage and no traceback a request, nor from the timers, the bot's
turns or the delivery of notices; once the database is back, requests are served again."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.config import Config
from bot.core.api import ChatKey
from bot.core.clock import FakeClock
from bot.core.messages import text
from bot.core.scheduler import Scheduler
from bot.store.postgres import PostgresStore
from tests.bot.core.engine_fakes import RecordingEngine
from tests.bot.core.harness import ALICE, BOB, CAROL, Harness, bot_to_move
from tests.postgres_server import PostgresServer

OTHER = ChatKey("console", "other")


async def test_requests_during_an_outage_are_told_so_without_tracebacks(
    own_server: PostgresServer, tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    url = await own_server.new_database()

    async def open_store() -> PostgresStore:
        return await PostgresStore.open(url, pool_size=3)

    h = Harness(tmp_path / "unused", clock, Config(), RecordingEngine(), open_store=open_store)
    await h.open()
    stop = asyncio.Event()
    scheduler = Scheduler(h.service, clock)
    timers: asyncio.Future[None] | None = None
    try:
        game = await h.start_game(ALICE, BOB)
        await h.say(ALICE, "settings", "language", "ru")
        await h.say(ALICE, "board")  # the chat's language is known from a request served
        vs_bot = await h.store.create_game(bot_to_move(OTHER, CAROL), [], free=[CAROL.key])
        caplog.set_level(logging.INFO)
        caplog.clear()
        own_server.pause()
        unavailable = text("error.unavailable", "ru")
        for _ in range(3):
            moved = await h.say(ALICE, "move", "7g7f")
            assert moved.ephemeral and moved.text == unavailable, moved.text
            shown = await h.say(BOB, "board")
            assert shown.ephemeral and shown.text == unavailable, shown.text
        timers = asyncio.ensure_future(scheduler.run(stop))
        h.service.bot_player.start()  # looks for the bot's turns
        h.service.delivery.kick()  # sends queued notices
        assert h.service.bot_player.request(vs_bot)  # the bot's turn, tried and put off
        await asyncio.sleep(0.5)
        await h.service.delivery.settle()
        assert not timers.done()
        assert not [r for r in caplog.records if r.exc_info], "a traceback in the log"
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and "cannot reach the database" in errors[0], errors
        own_server.resume()
        moved = await h.say(ALICE, "move", "7g7f")
        assert not moved.ephemeral, moved.text
        assert (await h.game(game.id)).moves == ("7g7f",)
        for _ in range(10):  # the bot's turn is tried again after a pause
            await clock.advance(1)
            await asyncio.sleep(0.05)
        await h.service.bot_player.settled()
        assert len((await h.game(vs_bot.id)).moves) == 1
    finally:
        stop.set()
        scheduler.wake()
        if timers is not None:
            await asyncio.gather(timers, return_exceptions=True)
        await h.close()
