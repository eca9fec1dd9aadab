"""Fixtures: the fake Bot API server and the real Telegram front end running against it."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.core.api import Handler, StateStore
from bot.store import SqliteStore
from bot.telegram_front import TelegramFrontEnd, TelegramSettings
from tests.bot.telegram.fake_botapi import FakeBotApi


@pytest.fixture(autouse=True)
def ptb_timedelta(monkeypatch: pytest.MonkeyPatch) -> None:
    """ptb 22's future behaviour: durations such as ``RetryAfter.retry_after`` as timedeltas."""
    monkeypatch.setenv("PTB_TIMEDELTA", "1")


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    server = FakeBotApi()
    await server.start()
    try:
        yield server
    finally:
        await server.close()


def settings_for(fake: FakeBotApi, tmp_path: Path, **changes: Any) -> TelegramSettings:
    settings = TelegramSettings(
        token=fake.token,
        api_base=f"http://127.0.0.1:{fake.port}",
        poll_timeout=5,
    )
    return dataclasses.replace(settings, **changes)


@contextlib.asynccontextmanager
async def running(
    front: TelegramFrontEnd,
    handle: Handler,
    timeout: float = 10.0,
    state: StateStore | None = None,
) -> AsyncIterator[TelegramFrontEnd]:
    """Run ``front`` with ``handle`` until the block ends; fail if it stops on its own.

    It remembers cards and usernames in ``state``, by default its configured database
    (``front.config.db_path``), opened for the block: a restart reopens the same one.
    """
    async with contextlib.AsyncExitStack() as stack:
        if state is None:
            store = await SqliteStore.open(front.config.db_path, sync="normal")
            stack.push_async_callback(store.close)
            state = store
        front.attach_state(state)
        async with _running(front, handle, timeout) as running_front:
            yield running_front


@contextlib.asynccontextmanager
async def _running(
    front: TelegramFrontEnd, handle: Handler, timeout: float
) -> AsyncIterator[TelegramFrontEnd]:
    stop = asyncio.Event()
    task = asyncio.create_task(front.run(handle, stop))
    ready = asyncio.create_task(front.wait_ready(timeout))
    done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        ready.cancel()
        task.result()
        raise AssertionError("the front end stopped before it was ready")
    await ready
    try:
        yield front
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout)


StartFront = Callable[..., contextlib.AbstractAsyncContextManager[TelegramFrontEnd]]


@pytest.fixture
def start_front(fake: FakeBotApi, tmp_path: Path) -> StartFront:
    """``async with start_front(handle, **settings) as front:`` runs a fresh front end."""

    def start(
        handle: Handler, **changes: Any
    ) -> contextlib.AbstractAsyncContextManager[TelegramFrontEnd]:
        config = Config(db_path=tmp_path / "komabot.sqlite3", telegram_token=fake.token)
        front = TelegramFrontEnd(config, settings_for(fake, tmp_path, **changes))
        return running(front, handle)

    return start
