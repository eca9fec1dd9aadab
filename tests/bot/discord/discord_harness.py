"""Start and stop Komabot's Discord front end against a :class:`FakeDiscord`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from fake_discord import FakeDiscord

from bot.core.api import Handler, Reply, Request, StateStore
from bot.discord_front import DiscordFrontEnd, DiscordSettings
from bot.store import SqliteStore


@dataclass
class Running:
    front: DiscordFrontEnd
    stop: asyncio.Event
    task: asyncio.Task[None]


@contextlib.asynccontextmanager
async def running_front(
    fake: FakeDiscord,
    handle: Handler,
    tmp_path: Path,
    state: StateStore | None = None,
    **env: str,
) -> AsyncIterator[DiscordFrontEnd]:
    """The front end connected to ``fake``; stopped (and checked to stop cleanly) on exit.

    It remembers its cards in ``state``, by default the database ``tmp_path/komabot.sqlite3``
    (the service's, when a test runs one there), opened for the block.
    """
    async with contextlib.AsyncExitStack() as stack:
        if state is None:
            store = await SqliteStore.open(tmp_path / "komabot.sqlite3", sync="normal")
            stack.push_async_callback(store.close)
            state = store
        async with _running(fake, handle, state, **env) as front:
            yield front


@contextlib.asynccontextmanager
async def _running(
    fake: FakeDiscord, handle: Handler, state: StateStore, **env: str
) -> AsyncIterator[DiscordFrontEnd]:
    settings = DiscordSettings.from_env(fake.env(**env))
    front = DiscordFrontEnd(settings=settings, guild_ready_timeout=0.02)
    front.attach_state(state)
    front.identify_spacing = 0.01  # Discord wants 5 s between shard logins; the fake does not
    stop = asyncio.Event()
    task = asyncio.create_task(front.run(handle, stop))
    try:
        async with asyncio.timeout(10):
            ready = asyncio.create_task(front.ready.wait())
            done, _ = await asyncio.wait({ready, task}, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                ready.cancel()
                task.result()
        yield front
    finally:
        stop.set()
        async with asyncio.timeout(10):
            await task


@dataclass
class Recorder:
    """A stand-in service: records requests and answers from a script of replies."""

    replies: dict[str, Reply] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    delay: float = 0.0
    threads: bool = False  # answer a challenge that may go to a thread as a chat with threads on

    async def __call__(self, request: Request) -> Reply:
        self.requests.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if request.command == "boom":
            raise RuntimeError("the service fell over")
        if self.threads and request.command == "challenge" and request.options.get("threads"):
            return Reply("", thread_title=f"Shogi: {request.user.name}'s challenge")
        return self.replies.get(request.command, Reply(f"ok {request.command} {request.args}"))
