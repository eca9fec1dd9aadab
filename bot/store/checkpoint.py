"""Copying SQLite's write-ahead log into the database beside the writes, not inside them.

In WAL mode every commit appends its pages to the ``-wal`` file (and, with synchronous
commits, flushes it: that is what makes a move durable).  Now and then the log is copied into
the database file and flushed again -- a checkpoint -- so that the log can start over and stay
small.  Left to SQLite, the commit that takes the log over 1,000 pages runs the checkpoint
itself, in its own thread and before its caller hears of the commit: measured in
``bench/service.py`` (1,000 games, 4 moves each, a loaded machine), one commit in 54 copied
about a thousand pages and flushed the database file, taking 2.3-2.8 times as long as the others
on average and up to 25-68 ms, and every request whose reads waited behind it waited as long.

Here a thread of its own, on a connection of its own, runs a passive checkpoint every
:data:`CHECKPOINT_EVERY` seconds: it copies what is committed without taking the writers'
lock, so commits go on meanwhile (a checkpoint with nothing to copy does nothing, no flush).
That alone does not keep the log small: the log starts over only at a write that finds all of
it copied, and under a steady stream of moves the commits made during a copy are always left
(measured: the log grew to 16,000 pages in one run of the benchmark).  Letting this thread
also finish the job (a restarting checkpoint, which keeps the writers waiting for the short
remainder) was measured too and left out: it starts the log over from the other connection,
and the writing connection then drops its page cache (its CPU a commit rose from 0.35 to 0.41
ms).  So the writing connection still checkpoints by itself, but only past
:data:`WRITER_CHECKPOINT_PAGES` pages instead of 1,000: a quarter as often, and what it copies
then is only what was committed since the last background checkpoint.  Durability is
untouched: a commit is durable once its pages are flushed in the log, checkpoint or not.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 0.25
"""Seconds between two background checkpoints."""
WRITER_CHECKPOINT_PAGES = 4000
"""The writing connection checkpoints by itself (inside a commit) past this many pages in the
log (16 MiB of 4 KiB pages; SQLite's own default is 1,000): the background has copied all but
the last interval's by then, and the log then starts over."""


class Checkpointer:
    """Passive checkpoints of the database at ``path`` every ``every`` seconds, in a daemon
    thread on a connection of its own (:meth:`start`, :meth:`stop`); :meth:`checkpoint` runs
    one at once."""

    def __init__(self, path: Path, every: float = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.every = every
        self.runs = 0
        """Checkpoints run, whether they had anything to copy or not."""
        self._con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="komabot-checkpoint", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the thread (a checkpoint under way is interrupted) and close the connection."""
        self._stop.set()
        thread = self._thread
        while thread is not None and thread.is_alive():
            with contextlib.suppress(sqlite3.Error):
                self._con.interrupt()
            thread.join(0.05)
        with self._lock:
            self._con.close()

    def checkpoint(self) -> tuple[int, int, int]:
        """One passive checkpoint now: (1 if it could not run as another connection was
        checkpointing, else 0; frames in the log; frames of it now in the database)."""
        with self._lock:
            busy, frames, done = self._con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.runs += 1
        return int(busy), int(frames), int(done)

    def _run(self) -> None:
        failed = False
        while not self._stop.wait(self.every):
            try:
                self.checkpoint()
            except sqlite3.Error as exc:
                # the file gone, the disk failing: the writers hear of it themselves; said once
                if not failed and not self._stop.is_set():
                    log.warning("background checkpoint of %s failed: %s", self.path, exc)
                failed = True
            else:
                failed = False
