"""The SQLite write thread: a whole write transaction in one trip, and group commit.

A transaction goes through aiosqlite one statement at a time, each statement a trip to its
thread and back (a queue put, then a wake-up of the event loop), and the event loop, the
database thread and SQLite share one interpreter lock.  Here a transaction is a body written
over :class:`~bot.store.sql.Tx` that awaits nothing but its ``tx``: the write thread drives it
to its end on a connection of its own, in one trip.

Bodies that arrive while the thread is busy (committing, that is waiting for the disk) wait in
its queue and are written together in the next transaction, each inside a savepoint of its own:
one commit, so one flush of the disk, for all of them.  A body that fails is rolled back to its
savepoint and fails alone; the others are committed.  Every caller hears of its body only after
the commit that holds it is durable (or that it failed): nothing is acknowledged before.  Should
the transaction itself fail (the disk full, the file gone), every body in it fails, and none is
written.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Body = Callable[[Any], Coroutine[Any, Any, Any]]
"""A transaction body: called with a :class:`~bot.store.sql.Tx`, awaits only it."""

BATCH_LIMIT = 64
"""At most this many bodies in one transaction (a bound on how long its lock is held)."""


class SuspendedBody(RuntimeError):
    """A body run by the write thread waited for something else than its ``tx``."""


class ThreadTx:
    """:class:`~bot.store.sql.Tx` straight on the write thread's connection: each call runs
    the statement at once (SQLite keeps each statement prepared for the next time)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._con.execute(sql, params).fetchall()

    async def row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._con.execute(sql, params).fetchone()

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int(self._con.execute(sql, params).rowcount)

    async def run_many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        self._con.executemany(sql, params)

    async def insert(self, sql: str, params: Sequence[Any]) -> int | None:
        cur = self._con.execute(sql, params)
        return cur.lastrowid if cur.rowcount == 1 else None


def run_body(body: Body, tx: ThreadTx) -> Any:
    """Drive ``body(tx)`` to its end here and now (it never suspends: each ``tx`` call
    returns at once); its result, or what it raised."""
    coro = body(tx)
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise SuspendedBody("a transaction body waited for something else than its transaction")


@dataclass
class _Job:
    body: Body
    future: asyncio.Future[Any]
    outcome: tuple[bool, Any] = (False, None)
    """(ok, the body's result) or (False, what it raised)."""


_STOP = object()


class WriteThread:
    """One SQLite connection on a thread of its own that writes transaction bodies, those
    waiting together in one transaction (see the module's text).

    ``connect`` opens the connection (in the thread); ``before_commit`` is called before each
    commit and returns an error that forbids it (the file deleted under the store) or None.
    """

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        before_commit: Callable[[], BaseException | None],
    ) -> None:
        self._connect = connect
        self._before_commit = before_commit
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._ready: asyncio.Future[None] | None = None
        self._stopped = False
        self._thread = threading.Thread(target=self._serve, name="komabot-sqlite-writer")
        self.transactions = 0
        """Transactions committed or tried (for the benchmark: bodies per commit)."""
        self.bodies = 0
        """Bodies run."""

    async def start(self) -> None:
        """Open the connection in the thread; raises what opening raised."""
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        self._thread.start()
        await self._ready

    async def write(self, body: Body) -> Any:
        """Run ``body`` in a transaction of the thread; its result once the commit holding it
        is durable.  Cancelled, the body may still be written (whole) or not at all."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self._stopped:
            raise RuntimeError("the store is closed")
        self._queue.put(_Job(body, future))
        return await future

    async def stop(self) -> None:
        """Write what is queued, then close the connection and end the thread."""
        self._stopped = True
        if self._thread.is_alive():
            self._queue.put(_STOP)
            await asyncio.to_thread(self._thread.join)

    # --- in the thread ------------------------------------------------------------------

    def _serve(self) -> None:
        ready = self._ready
        assert ready is not None
        try:
            con = self._connect()
        except BaseException as exc:  # told to the opener, never lost in a thread
            ready.get_loop().call_soon_threadsafe(_settle, ready, (False, exc))
            return
        ready.get_loop().call_soon_threadsafe(_settle, ready, (True, None))
        try:
            while True:
                first = self._queue.get()
                if first is _STOP:
                    return
                jobs = [first]
                stop = False
                while len(jobs) < BATCH_LIMIT:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is _STOP:
                        stop = True
                        break
                    jobs.append(more)
                self._transaction(con, jobs)
                _tell(jobs)
                if stop:
                    return
        finally:
            con.close()

    def _transaction(self, con: sqlite3.Connection, jobs: list[_Job]) -> None:
        self.transactions += 1
        self.bodies += len(jobs)
        tx = ThreadTx(con)
        alone = len(jobs) == 1
        try:
            con.execute("BEGIN IMMEDIATE")
            for job in jobs:
                if not alone:
                    con.execute("SAVEPOINT body")
                try:
                    job.outcome = (True, run_body(job.body, tx))
                except Exception as exc:
                    job.outcome = (False, exc)
                    if alone or not con.in_transaction:
                        raise  # the whole transaction is over (SQLite rolls back on some errors)
                    con.execute("ROLLBACK TO body")
                if not alone:
                    con.execute("RELEASE body")
            refusal = self._before_commit()
            if refusal is not None:
                raise refusal
            con.execute("COMMIT")
        except BaseException as exc:  # told to every caller, never lost in a thread
            if con.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    con.execute("ROLLBACK")
            for job in jobs:
                if job.outcome[0] or job.outcome[1] is None:
                    job.outcome = (False, exc)  # written with the rest: gone with it


def _tell(jobs: list[_Job]) -> None:
    """Hand every job's outcome to its caller: one wake-up of each event loop for all."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
    for job in jobs:
        by_loop.setdefault(job.future.get_loop(), []).append(job)
    for loop, mine in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a loop closed meanwhile: nobody waits
            loop.call_soon_threadsafe(_settle_all, mine)


def _settle_all(jobs: list[_Job]) -> None:
    for job in jobs:
        _settle(job.future, job.outcome)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():
        return  # its caller was cancelled
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
