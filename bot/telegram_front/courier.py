"""Bot API calls that survive flood limits and network hiccups: no reply is ever dropped.

Telegram answers 429 with ``retry_after`` when a chat (about one message a second, twenty a
minute in groups) or the bot (about thirty a second) sends too fast.  The courier waits that long
and sends again; while a chat is in its flood wait every other call for that chat waits too, so
messages keep their order.  Network errors are retried with a growing pause; answers that
cannot succeed on retry (bad request, bot blocked) are raised at once.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import time
import warnings
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram.error import BadRequest, ChatMigrated, NetworkError, RetryAfter, TimedOut
from telegram.warnings import PTBDeprecationWarning

log = logging.getLogger(__name__)

T = TypeVar("T")
ChatId = int | str
Sleep = Callable[[float], Awaitable[None]]


def retry_seconds(error: RetryAfter) -> float:
    """``retry_after`` in seconds, whether ptb gives an int or a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = error.retry_after
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


class Courier:
    """Runs Bot API calls for a chat, retrying after 429 and transient network errors."""

    def __init__(
        self,
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        flood_attempts: int = 12,
        network_attempts: int = 4,
    ) -> None:
        self._sleep = sleep
        self._clock = clock
        self._flood_attempts = flood_attempts
        self._network_attempts = network_attempts
        self._not_before: dict[str, float] = {}
        self._migrated: dict[str, int] = {}

    def chat_id(self, chat_id: ChatId) -> ChatId:
        """The chat's current id (a group upgraded to a supergroup gets a new one)."""
        return self._migrated.get(str(chat_id), chat_id)

    async def call(self, chat_id: ChatId, make: Callable[[ChatId], Awaitable[T]]) -> T:
        """``await make(chat_id)``, retried until it succeeds or cannot succeed."""
        floods = network = 0
        while True:
            chat_id = self.chat_id(chat_id)
            await self._wait_turn(str(chat_id))
            try:
                return await make(chat_id)
            except RetryAfter as error:
                floods += 1
                if floods >= self._flood_attempts:
                    raise
                wait = retry_seconds(error)
                log.warning("telegram flood limit in chat %s: waiting %.0f s", chat_id, wait)
                self._not_before[str(chat_id)] = self._clock() + wait
            except ChatMigrated as error:
                log.info("telegram chat %s moved to %s", chat_id, error.new_chat_id)
                self._migrated[str(chat_id)] = error.new_chat_id
            except BadRequest:
                raise
            except (TimedOut, NetworkError) as error:
                network += 1
                if network >= self._network_attempts:
                    raise
                pause = float(2 ** (network - 1))
                log.warning("telegram network error (%s); retrying in %.0f s", error, pause)
                await self._sleep(pause)

    async def _wait_turn(self, key: str) -> None:
        until = self._not_before.get(key)
        if until is None:
            return
        left = until - self._clock()
        if left > 0:
            await self._sleep(left)
        if self._not_before.get(key) == until:
            del self._not_before[key]
