"""A work queue that takes turns between owners instead of serving whoever asked first.

Each key (a game) waits in the line of its owner (the person playing it); :meth:`FairQueue.get`
serves the owners round-robin, so one person with games in twenty chats gets one turn, then
everyone else gets theirs, before their second.  A key is queued once: asking again for a key
that waits or is being worked on changes nothing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from typing import Generic, TypeVar

K = TypeVar("K")


class FairQueue(Generic[K]):
    """Keys by owner, served round-robin; each key at most once, waiting or taken."""

    def __init__(self) -> None:
        self._lines: OrderedDict[str, deque[K]] = OrderedDict()
        self._waiting: set[K] = set()
        self._taken: set[K] = set()
        self._ready = asyncio.Event()  # some key waits
        self._idle = asyncio.Event()  # no key waits or is taken
        self._idle.set()

    def __len__(self) -> int:
        """Keys waiting (not those taken)."""
        return len(self._waiting)

    @property
    def taken(self) -> frozenset[K]:
        return frozenset(self._taken)

    def put(self, owner: str, key: K) -> bool:
        """Queue ``key`` at the end of ``owner``'s line; False if it waits or is taken."""
        if key in self._waiting or key in self._taken:
            return False
        self._lines.setdefault(owner, deque()).append(key)
        self._waiting.add(key)
        self._changed()
        return True

    async def get(self) -> K:
        """The next key, from the owner whose turn it is; it counts as taken until
        :meth:`done`."""
        while not self._waiting:
            await self._ready.wait()
        owner, line = next(iter(self._lines.items()))
        key = line.popleft()
        del self._lines[owner]
        if line:
            self._lines[owner] = line  # to the back: everyone else goes first
        self._waiting.discard(key)
        self._taken.add(key)
        self._changed()
        return key

    def done(self, key: K) -> None:
        """``key`` is no longer being worked on (it may be queued again)."""
        self._taken.discard(key)
        self._changed()

    async def join(self) -> None:
        """Wait until no key waits and none is taken."""
        await self._idle.wait()

    def clear(self) -> list[K]:
        """Forget every waiting key; return them."""
        gone = [key for line in self._lines.values() for key in line]
        self._lines.clear()
        self._waiting.clear()
        self._changed()
        return gone

    @property
    def busy(self) -> bool:
        """Whether a key waits or is taken."""
        return bool(self._waiting or self._taken)

    def _changed(self) -> None:
        for event, on in ((self._ready, bool(self._waiting)), (self._idle, not self.busy)):
            if on:
                event.set()
            else:
                event.clear()
