"""Fires the service's timers (deadlines, reminders, challenge expiry) when they come due, and
sends the notices they leave (see :mod:`bot.core.delivery`).

The timers and notices live in the database, so after a restart the first pass fires everything
that came due while the bot was down and sends what was not yet delivered; a timer's effect is
claimed in the database, so none happens twice, and a notice is leased while it is sent.
"""

from __future__ import annotations

import asyncio
import logging

from bot.core.clock import Clock
from bot.core.service import GameService
from bot.store.errors import StoreUnavailable

log = logging.getLogger("komabot.scheduler")


class Scheduler:
    """Sleeps until the next timer is due (or ``max_wait``), fires what is due, repeats."""

    def __init__(self, service: GameService, clock: Clock, max_wait: float = 60.0) -> None:
        self.service = service
        self.clock = clock
        self.max_wait = max_wait
        self._wake = asyncio.Event()
        service.bell.listen(self.wake)

    def wake(self) -> None:
        """A timer was added: look again at when the next one is due."""
        self._wake.set()

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            # Cleared before the pass, not after: a timer added while the pass runs wakes the
            # wait below at once instead of being missed until ``max_wait``.
            self._wake.clear()
            if getattr(self.service.store, "damaged", None) is not None:
                # the background check found the file damaged: writes are refused (and logged
                # once, loudly, by the store), so timers wait for a restored file
                await self._pause(self.clock.now() + self.max_wait, stop)
                continue
            try:
                await self.service.fire_due()
                due = await self.service.next_due()
            except StoreUnavailable:  # the store logs the outage once; the next pass tries again
                due = None
            except Exception:
                log.exception("firing timers failed; trying again shortly")
                due = None
            # A deadline, not a length: the clock may move on before the sleep below starts
            # (a loaded loop), and that time must not be waited twice.
            now = self.clock.now()
            until = now + self.max_wait if due is None else min(now + self.max_wait, due)
            if until <= now:
                await asyncio.sleep(0)
                continue
            await self._pause(until, stop)

    async def _pause(self, until: float, stop: asyncio.Event) -> None:
        """Until the clock reads ``until``, a timer is added (:meth:`wake`) or ``stop`` is
        set."""
        waiters = [
            asyncio.ensure_future(self.clock.sleep_until(until)),
            asyncio.ensure_future(self._wake.wait()),
            asyncio.ensure_future(stop.wait()),
        ]
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()
            await asyncio.gather(*waiters, return_exceptions=True)
