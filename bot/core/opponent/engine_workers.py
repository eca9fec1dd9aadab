"""Engine searches in worker processes, so that a search never holds up the event loop.

:class:`EngineWorkers` keeps a few worker processes, started with the ``spawn`` method (this
process has threads: forking it is unsafe), each running one search at a time: a job is the
keyword arguments of a picklable function (the workers' ``target``, ``engine.api.think``, or
the one a job names: ``engine.analysis.evaluate_position``), the answer its picklable result.
The parent waits for a worker on a thread of its own, so the loop keeps serving.  Jobs wait
for a free worker in the order they came, whoever sent them: an analysis that sends its
positions one at a time delays a bot's move by one position at most.

A worker that dies (killed, out of memory) or does not answer within the job's time is killed
and started again for the next job; the job fails with :class:`EngineFailure`, which says which
of the two happened (or that the function raised).  Workers start in the background at
:meth:`EngineWorkers.warm`, or with their first job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from rules.variant import load_every_variant

log = logging.getLogger("komabot.engine")

START_TIMEOUT = 60.0  # seconds a new worker may take to import the engine and say it is ready
Job = Mapping[str, Any]


class EngineFailure(Exception):
    """A search that did not come back: ``kind`` is ``crash`` (the worker died), ``timeout``
    (it did not answer in time; it was killed) or ``error`` (the search raised)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def _serve(conn: Connection, target: Callable[..., Any], prepare: Callable[[], object]) -> None:
    """A worker process: answer each job sent on ``conn`` with ``target(**job)`` (or the
    function the job names)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is the parent's to handle
    prepare()
    conn.send(("ready", None))
    while True:
        try:
            function, job = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        try:
            answer = ("ok", (function or target)(**job))
        except Exception as exc:  # the parent reports it; the worker stays usable
            answer = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(answer)


class _Worker:
    """One worker process and the pipe to it; used by one thread at a time."""

    def __init__(
        self, name: str, target: Callable[..., Any], prepare: Callable[[], object]
    ) -> None:
        self.name = name
        self.target = target
        self.prepare = prepare
        self.process: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None
        self._lock = threading.Lock()  # start and stop, from a job's thread or the loop's

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def ensure_started(self, timeout: float = START_TIMEOUT) -> Connection:
        """The pipe to a running worker, starting one if there is none (or it died)."""
        with self._lock:
            if self.process is not None and self.process.is_alive() and self.conn is not None:
                return self.conn
            self._stop_locked()
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            process = context.Process(
                target=_serve,
                args=(child, self.target, self.prepare),
                name=self.name,
                daemon=True,
            )
            process.start()
            child.close()
            self.process, self.conn = process, parent
        try:
            if not parent.poll(timeout):
                raise EngineFailure("timeout", f"{self.name} did not start within {timeout:g} s")
            parent.recv()
        except (EOFError, OSError):
            self.stop(parent)
            raise EngineFailure("crash", f"{self.name} exited as it started") from None
        except EngineFailure:
            self.stop(parent)
            raise
        return parent

    def run(self, job: Job, timeout: float, function: Callable[..., Any] | None = None) -> Any:
        """``function(**job)`` (by default ``target``'s) in the worker; EngineFailure when it
        does not come back."""
        conn = self.ensure_started()
        try:
            conn.send((function, dict(job)))
            if not conn.poll(timeout):
                self.stop(conn)
                raise EngineFailure("timeout", f"no answer within {timeout:.1f} s; worker killed")
            status, value = conn.recv()
        except (EOFError, OSError):
            code = self.process.exitcode if self.process is not None else None
            self.stop(conn)
            raise EngineFailure("crash", f"{self.name} exited (code {code})") from None
        if status == "error":
            raise EngineFailure("error", str(value))
        return value

    def stop(self, conn: Connection | None = None) -> None:
        """Kill the worker (only if it is still the one behind ``conn``, when given)."""
        with self._lock:
            if conn is None or conn is self.conn:
                self._stop_locked()

    def _stop_locked(self) -> None:
        process, conn, self.process, self.conn = self.process, self.conn, None, None
        if process is not None and process.is_alive():
            process.kill()
        if process is not None:
            process.join(5)
        if conn is not None:
            conn.close()


class EngineWorkers:
    """``count`` worker processes running ``target``; :meth:`run` waits for a free one."""

    def __init__(
        self,
        count: int,
        target: Callable[..., Any],
        *,
        prepare: Callable[[], object] = load_every_variant,
    ) -> None:
        self.count = count
        self._workers = [
            _Worker(f"komabot-engine-{n}", target, prepare) for n in range(1, count + 1)
        ]
        self._threads = ThreadPoolExecutor(max_workers=count, thread_name_prefix="komabot-engine")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._warming: set[asyncio.Future[None]] = set()

    def _free(self) -> asyncio.Queue[_Worker]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for worker in self._workers:
                self._idle.put_nowait(worker)
        return self._idle

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers running now (for tests and diagnosis)."""
        return [pid for w in self._workers if (pid := w.pid) is not None]

    def warm(self) -> None:
        """Start every worker in the background (a few tenths of a second each, off the
        loop): the first search after start-up does not wait for a process."""
        for _ in self._workers:
            task = asyncio.ensure_future(self._warm_one())
            self._warming.add(task)
            task.add_done_callback(self._warming.discard)

    async def _warm_one(self) -> None:
        try:
            await self._use(_Worker.ensure_started)
        except EngineFailure as exc:
            log.warning("an engine worker did not start: %s", exc)

    async def run(
        self, job: Job, timeout: float, function: Callable[..., Any] | None = None
    ) -> Any:
        """Run ``job`` (for ``function``, a module-level one; by default the workers'
        ``target``) in a free worker; EngineFailure if it crashed, hung or raised."""
        return await self._use(_Worker.run, job, timeout, function)

    async def _use(self, action: Callable[..., Any], *args: Any) -> Any:
        """``action(worker, *args)`` on a thread, with a free worker held meanwhile.

        When the caller is cancelled, the worker is killed (its search abandoned) and becomes
        free again once its thread has let go of it."""
        idle = self._free()
        worker = await idle.get()
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._threads, action, worker, *args)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if not future.done():
                worker.stop()
            raise
        finally:
            if future.done():
                idle.put_nowait(worker)
            else:
                future.add_done_callback(_swallow)
                future.add_done_callback(lambda _: idle.put_nowait(worker))

    async def close(self) -> None:
        """Kill every worker; searches under way fail."""
        for task in list(self._warming):
            task.cancel()
        await asyncio.to_thread(self._stop_all)
        self._threads.shutdown(wait=False, cancel_futures=True)

    def _stop_all(self) -> None:
        for worker in self._workers:
            worker.stop()


def _swallow(future: asyncio.Future[Any]) -> None:
    """Fetch an abandoned search's outcome so that asyncio does not log it as never read."""
    with contextlib.suppress(BaseException):
        future.exception()
