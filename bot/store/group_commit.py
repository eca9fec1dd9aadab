"""Group commit on SQLite: a whole write transaction in one trip to the connection's thread,
and the transactions that wait meanwhile written together in one commit.

Through aiosqlite a transaction goes one statement at a time, each statement a trip to its
thread and back (a queue put, then a wake-up of the event loop), and the event loop, the
database thread and SQLite share one interpreter lock.  Here a transaction is a body written
over :class:`~bot.store.sql.Tx` that awaits nothing but its ``tx``: the connection's thread
drives it to its end, in one trip.

Bodies that arrive while a trip is out (committing, that is waiting for the disk) wait and are
written together in the next transaction, each inside a savepoint of its own: one commit, so
one flush of the disk, for all of them.  A body that fails is rolled back to its savepoint and
fails alone; the others are committed.  Every caller hears of its body only after the commit
that holds it is durable (or that it failed): nothing is acknowledged before.  Should the
transaction itself fail (the disk full, the file gone), every body in it fails, and none is
written.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Body = Callable[[Any], Coroutine[Any, Any, Any]]
"""A transaction body: called with a :class:`~bot.store.sql.Tx`, awaits only it."""

BATCH_LIMIT = 64
"""At most this many bodies in one transaction (a bound on how long its lock is held)."""


class SuspendedBody(RuntimeError):
    """A body run in the connection's thread waited for something else than its ``tx``."""


class ThreadTx:
    """:class:`~bot.store.sql.Tx` straight on the connection, in its thread: each call runs
    the statement at once (sqlite3 keeps each statement prepared for the next time)."""

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
    outcome: tuple[bool, Any] | None = None
    """(True, the body's result) or (False, what it raised); None: not run."""
    trip: asyncio.Future[None] | None = None
    """Done when the trip that took the job is over; None: the job still waits."""


class GroupCommit:
    """Writes transaction bodies on one SQLite connection, those waiting together in one
    transaction (see the module's text).

    ``trip(fn)`` runs ``fn`` in the connection's thread and returns what it returns;
    ``connection()`` (called there) is the sqlite3 connection; ``lock`` is held for each trip
    (it keeps out the transactions the store runs statement by statement); ``before_commit``
    (called there) returns an error that forbids the commit (the file deleted under the store)
    or None.
    """

    def __init__(
        self,
        trip: Callable[[Callable[[], None]], Awaitable[None]],
        connection: Callable[[], sqlite3.Connection],
        lock: asyncio.Lock,
        before_commit: Callable[[], BaseException | None],
    ) -> None:
        self._trip = trip
        self._connection = connection
        self._lock = lock
        self._before_commit = before_commit
        self._waiting: list[_Job] = []
        self._writing: asyncio.Task[None] | None = None
        self.transactions = 0
        """Transactions committed or tried (for the benchmark: bodies per commit)."""

    async def write(self, body: Body) -> Any:
        """Run ``body`` in a transaction; its result once the commit holding it is durable.
        Cancelled, a body not yet begun is not written, and one the database thread already
        began is written whole before the cancellation goes on: either way before any write
        the caller makes next."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job = _Job(body, future)
        self._waiting.append(job)
        if self._writing is None:
            self._writing = asyncio.ensure_future(self._write_waiting())
        try:
            return await future
        except asyncio.CancelledError:
            if job.trip is None:
                self._waiting.remove(job)
            else:
                await asyncio.wait([job.trip])
            raise

    async def stop(self) -> None:
        """Wait until what waits is written."""
        if self._writing is not None:
            await asyncio.wait([self._writing])  # its failures are its callers' to hear

    async def _write_waiting(self) -> None:
        try:
            while self._waiting:
                jobs = self._waiting[:BATCH_LIMIT]
                del self._waiting[:BATCH_LIMIT]
                trip: asyncio.Future[None] = asyncio.get_running_loop().create_future()
                for job in jobs:
                    job.trip = trip
                try:
                    async with self._lock:
                        await self._trip(functools.partial(self._transaction, jobs))
                except BaseException as exc:  # the trip itself failed: nothing was written
                    for job in jobs:
                        job.outcome = (False, exc)
                    if not isinstance(exc, Exception):
                        raise
                finally:
                    trip.set_result(None)
                    _settle_all(jobs)
        finally:
            self._writing = None
            if self._waiting:  # cancelled meanwhile (the loop closing): nobody writes them
                refused = RuntimeError("the store closed before this write was made")
                for job in self._waiting:
                    job.outcome = (False, refused)
                _settle_all(self._waiting)
                self._waiting.clear()

    def _transaction(self, jobs: list[_Job]) -> None:
        """In the connection's thread: every job in one transaction, each in a savepoint."""
        self.transactions += 1
        con = self._connection()
        tx = ThreadTx(con)
        alone = len(jobs) == 1
        try:
            con.execute("BEGIN IMMEDIATE")
            for job in jobs:
                if job.future.cancelled():
                    continue  # its caller gave up before it was written: it is not
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
                if job.outcome is None or job.outcome[0]:
                    job.outcome = (False, exc)  # written with the rest: gone with it


def _settle_all(jobs: list[_Job]) -> None:
    for job in jobs:
        if job.future.done() or job.outcome is None:
            continue  # its caller was cancelled
        ok, value = job.outcome
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)
