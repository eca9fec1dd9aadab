"""Time for the service and the scheduler: the real clock, or a fake one that tests move."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (UTC)."""
        ...

    async def sleep(self, seconds: float) -> None: ...

    async def sleep_until(self, when: float) -> None:
        """Until ``now()`` reaches ``when``: a deadline fixed before the call, so time that
        passes before the sleep starts is not slept twice."""
        ...


class SystemClock:
    """Wall-clock time and real sleeping."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def sleep_until(self, when: float) -> None:
        await asyncio.sleep(max(0.0, when - time.time()))


class FakeClock:
    """A clock that only moves when told: ``advance`` wakes the sleepers whose time came."""

    def __init__(self, start: float = 1_750_000_000.0) -> None:
        self._now = start
        self._changed = asyncio.Condition()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        await self.sleep_until(self._now + max(0.0, seconds))

    async def sleep_until(self, when: float) -> None:
        async with self._changed:
            await self._changed.wait_for(lambda: self._now >= when)

    async def advance(self, seconds: float) -> None:
        self._now += seconds
        async with self._changed:
            self._changed.notify_all()
        await asyncio.sleep(0)


class Bell:
    """Rung whenever timers were added or moved, so that whoever fires them (the scheduler)
    looks again sooner than it planned."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def listen(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def ring(self) -> None:
        for listener in self._listeners:
            listener()
