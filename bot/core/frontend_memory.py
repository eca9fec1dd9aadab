"""The part every front end's memory shares: the attached state store and its pruning."""

from __future__ import annotations

import time
from collections.abc import Iterable

from bot.core.api import StateStore

KEEP_SECONDS = 90 * 86400  # entries not written for this long are forgotten at start-up


class FrontEndMemory:
    """What one platform's front end remembers, in the :class:`StateStore` ``run_app`` attaches."""

    def __init__(self, platform: str, state: StateStore | None = None) -> None:
        self.platform = platform
        self._state = state

    def attach(self, state: StateStore) -> None:
        self._state = state

    @property
    def attached(self) -> bool:
        return self._state is not None

    @property
    def state(self) -> StateStore:
        if self._state is None:
            raise RuntimeError(f"the {self.platform} front end has no state store attached")
        return self._state

    async def prune(self, kinds: Iterable[str], now: float | None = None) -> None:
        """Drop entries of ``kinds`` not written for :data:`KEEP_SECONDS`."""
        before = (time.time() if now is None else now) - KEEP_SECONDS
        for kind in kinds:
            await self.state.prune_state(self.platform, kind, before)
