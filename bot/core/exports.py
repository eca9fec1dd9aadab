"""``/export``'s files, made off the event loop, bounded in number and remembered.

A record (KIF, KIFU, CSA, USI) and an animated GIF both cost time in proportion to the game,
so neither is made on the event loop:

- Every export runs on the export threads (``EXPORT_THREADS``), apart from the drawing
  threads, so board images never wait behind an animation.
- At most ``GIF_SLOTS`` animations are made at once (each holds a few frames and the file
  being written: see ``render.replay``); a request for another is refused at once with
  ``export.busy`` rather than queued.  Records take well under a second even for thousands
  of moves; they wait for one of the threads the animations cannot take.
- A request for an export that is being made waits for that one instead of making another.
- Finished files are kept, most recently used first, up to ``CACHE_BYTES`` in all, keyed by
  the game, its version and number of moves, the format and everything else that changes the
  file (players' names, the chat's language and board settings); asking again costs nothing.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

from render import BoardOptions, render_replay
from rules import Variant
from rules.records import ExportedFile, GameRecord, export_file

GIF_SLOTS = 2
EXPORT_THREADS = GIF_SLOTS + 2  # records always find a thread the animations do not hold
CACHE_BYTES = 64 * 1024 * 1024
CACHE_ENTRIES = 512


class ExportBusy(Exception):
    """Every animation slot is taken: ask again shortly."""


class ByteLRU:
    """Exports by key, least recently used dropped first, at most ``max_bytes`` of data and
    ``max_entries`` entries; a file larger than ``max_bytes`` is not kept."""

    def __init__(self, max_bytes: int = CACHE_BYTES, max_entries: int = CACHE_ENTRIES) -> None:
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.bytes = 0
        self._entries: OrderedDict[Hashable, ExportedFile] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> ExportedFile | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: Hashable, value: ExportedFile) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self.bytes -= len(old.data)
        if len(value.data) > self.max_bytes:
            return
        self._entries[key] = value
        self.bytes += len(value.data)
        while self.bytes > self.max_bytes or len(self._entries) > self.max_entries:
            _, dropped = self._entries.popitem(last=False)
            self.bytes -= len(dropped.data)


class Exports:
    """Makes exports on its own threads: see the module's docstring for the limits."""

    def __init__(
        self,
        *,
        gif_slots: int = GIF_SLOTS,
        threads: int = EXPORT_THREADS,
        cache: ByteLRU | None = None,
    ) -> None:
        if threads <= gif_slots:
            raise ValueError("records need a thread the animations cannot take")
        self.cache = cache if cache is not None else ByteLRU()
        self.gif_slots = gif_slots
        self.making_gifs = 0
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="komabot-export")
        self._making: dict[Hashable, asyncio.Future[ExportedFile]] = {}

    async def make(
        self, key: Hashable, fn: Callable[..., ExportedFile], *args: object, gif: bool = False
    ) -> ExportedFile:
        """``fn(*args)`` on an export thread, or the file already made (or being made) for
        ``key``.  ``gif`` takes an animation slot; ExportBusy when none is free.  What ``fn``
        raises reaches every request waiting for it; nothing failed is remembered."""
        found = self.cache.get(key)
        if found is not None:
            return found
        pending = self._making.get(key)
        if pending is None:
            if gif and self.making_gifs >= self.gif_slots:
                raise ExportBusy
            loop = asyncio.get_running_loop()
            pending = loop.run_in_executor(self._pool, functools.partial(fn, *args))
            self._making[key] = pending
            if gif:
                self.making_gifs += 1
            # The slot frees when the work ends, even if every request waiting for it is gone.
            pending.add_done_callback(functools.partial(self._done, key, gif))
        return await asyncio.shield(pending)

    def _done(self, key: Hashable, gif: bool, future: asyncio.Future[ExportedFile]) -> None:
        self._making.pop(key, None)
        if gif:
            self.making_gifs -= 1
        if not future.cancelled() and future.exception() is None:
            self.cache.put(key, future.result())

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def gif_export(
    variant: Variant,
    start_sfen: str | None,
    moves: Sequence[str],
    max_bytes: int,
    options: BoardOptions,
    notation: str,
) -> ExportedFile:
    """The game's animated GIF (``render.replay``: sampled past ``MAX_FRAMES`` positions,
    streamed frame by frame, at most ``max_bytes``, each frame naming its move in
    ``notation``); runs on an export thread."""
    return ExportedFile(
        render_replay(variant, start_sfen, moves, max_bytes, options, notation=notation)
    )


def record_export(
    record: GameRecord, fmt: str, comments: Mapping[int, Sequence[str]] | None = None
) -> ExportedFile:
    """The game's record in ``fmt`` (every move checked and written, in time proportional to
    the game), with ``comments`` (an analysis: KIF and KIFU only); runs on an export thread."""
    return export_file(record, fmt, comments)
