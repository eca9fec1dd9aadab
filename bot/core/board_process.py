"""Board images drawn in worker processes beside the event loop, on the machine's other core.

Drawing and encoding a board is Python and Pillow under the interpreter lock (2-3 ms of CPU a
board, bench/service.py): on a thread of the service's own process it shares one core with
the rules, the store and the replies.  :class:`BoardProcesses` keeps ``count`` worker
processes (started with ``spawn``: this process has threads, forking it is unsafe), each with
render caches of its own (compressed bands of the boards it drew, square tiles, texts), warmed
when it starts.  A game's boards always go to the same worker (by the game's id), whose
caches hold that game's previous board.  A job is a :class:`~render.board_job.BoardJob`
(a position without its history, and the options: a few hundred bytes), the answer the PNG.

The loop reads the answers as they come (``add_reader``: no thread waits for them).  At most
``IN_FLIGHT`` jobs are sent to a worker before its answers are read, so that neither side ever
blocks writing to a full pipe.  A worker that is not ready yet answers None (the caller draws
the board itself, see ``bot.core.pictures``); one that dies, or does not answer within
``DRAW_TIMEOUT``, is killed, its jobs fail with :class:`DrawerLost`, and it is started again for
the next board (at most once every ``RESTART_SECONDS``), as is one that does not get ready
within ``START_TIMEOUT``.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import multiprocessing
import resource
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from render.board import render_counts
from render.board import warm as warm_render
from render.board_job import BoardJob, draw_board_job
from rules.variant import load_every_variant

log = logging.getLogger("komabot.service")

DRAW_TIMEOUT = 10.0  # seconds a board may take in a worker before the worker is killed
IN_FLIGHT = 4  # jobs sent to a worker and not yet answered, at most
RESTART_SECONDS = 1.0  # a worker that died is started again at most this often
START_TIMEOUT = 60.0  # seconds a new worker may take to warm its caches and say it is ready
SCATTER = 0x9E3779B1  # a game id times this: its high bits mix the id's bits (Knuth)
TRIM_SECONDS = 2.0  # a worker gives freed memory back to the system at most this often
_trims = [0]  # how often this worker did (for tests and benchmarks)


class DrawerLost(Exception):
    """A board that a worker did not draw: it died, hung, or the drawing raised."""


def _serve(conn: Connection, warm: bool, trim_seconds: float = TRIM_SECONDS) -> None:
    """A worker process: warm the render caches (if ``warm``), say so, then answer each
    request on ``conn``: ``(n, job)`` with ``(n, True, png)`` (or ``(n, False, why)``),
    ``(n, None)`` with ``(n, True, stats)``.  After drawing, when no request has come by
    ``trim_seconds`` after its last trim, it gives the memory it freed back (see
    ``_memory_giver``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a terminal is the parent's to handle
    get_ready(warm)
    conn.send(("ready", None))
    give_back, trimmed, drawn = _memory_giver(), time.monotonic(), False
    while True:
        if give_back is not None and drawn:
            due = trimmed + trim_seconds - time.monotonic()
            if not conn.poll(max(0.0, due)):  # nothing to do by then: a trim delays no board
                give_back(0)
                _trims[0] += 1
                trimmed, drawn = time.monotonic(), False
        try:
            n, job = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        answer: tuple[int, bool, object]
        try:
            answer = (n, True, draw_board_job(job) if job is not None else _stats())
        except Exception as exc:  # the parent draws it itself; the worker stays usable
            answer = (n, False, f"{type(exc).__name__}: {exc}")
            gc.collect()  # the exception's frames: the only reference cycles made here
        conn.send(answer)
        drawn = drawn or job is not None


def _memory_giver() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (None elsewhere): the C allocator keeps what the drawing freed
    (crops, canvases, palette lookups between long-lived cache entries) rather than giving it
    back, so a worker drawing the boards of 1,000 games in turn held 410 MiB where its live
    memory was 290; trimmed every 500 boards (about 2 s in bench/service.py; a trim takes 5-10
    ms) it peaked at 330 MiB (the saved jobs of a run drawn again)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def get_ready(warm: bool) -> None:
    """What a worker does before its first board: load the variants, warm the render caches
    (if ``warm``), and leave the garbage collector off.  What warming made lives as long as
    the process (frozen, see bot.app.settle_heap); drawing a board makes no reference cycles
    (measured: no unreachable object left after 4,000 boards of bench/service.py), so the
    collections only walked the caches, each board's new objects and keys, in the middle of a
    board: with them on, 20-25 of the middle generation in 4,000 boards took up to 2-3 ms,
    and one of the oldest 25-30 ms."""
    load_every_variant()
    if warm:
        warm_render()
    gc.collect()
    gc.freeze()
    gc.disable()


def _stats() -> dict[str, float]:
    """This process's CPU seconds so far, its peak resident memory in MiB, how often it gave
    memory back and its render caches' counts (for benchmarks)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux counts KiB
    return {"cpu": time.process_time(), "peak_mib": peak, "trims": _trims[0], **render_counts()}


class _Worker:
    """One worker process, the pipe to it and its jobs under way; used on the loop only."""

    def __init__(self, name: str, warm: bool, trim_seconds: float) -> None:
        self.name = name
        self.warm = warm
        self.trim_seconds = trim_seconds
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.ready = asyncio.Event()
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.slots = asyncio.Semaphore(IN_FLIGHT)
        self.started_at = -RESTART_SECONDS
        self.starts = 0
        self.loop: asyncio.AbstractEventLoop | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def start(self) -> None:
        """Start the process if there is none (or it never said it was ready) and the last
        start was long enough ago."""
        now = time.monotonic()
        starting = self.process is not None and not self.ready.is_set()
        if starting and now - self.started_at > START_TIMEOUT:
            self.stop(f"{self.name} did not start within {START_TIMEOUT:g} s; killed")
        if self.process is not None or now - self.started_at < RESTART_SECONDS:
            return
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(
            target=_serve,
            args=(child, self.warm, self.trim_seconds),
            name=self.name,
            daemon=True,
        )
        process.start()
        child.close()
        self.process, self.conn, self.started_at = process, parent, now
        self.starts += 1
        self.loop = asyncio.get_running_loop()
        self.loop.add_reader(parent.fileno(), self._readable)

    def _readable(self) -> None:
        conn = self.conn
        if conn is None:
            return
        try:
            n, *answer = conn.recv()
        except (EOFError, OSError):
            code = self.process.exitcode if self.process is not None else None
            self.stop(f"{self.name} exited (code {code})")
            return
        except Exception as exc:  # a garbled answer: whatever it was doing is lost
            self.stop(f"{self.name} answered what cannot be read ({exc}); killed")
            return
        if n == "ready":
            self.ready.set()
            return
        future = self.waiting.pop(n, None)
        if future is None or future.done():
            return  # its caller gave up waiting
        ok, value = answer
        if ok:
            future.set_result(value)
        else:
            future.set_exception(DrawerLost(f"drawing failed in {self.name}: {value}"))

    async def ask(self, n: int, job: BoardJob | None) -> Any:
        """The answer to ``job`` (None: the stats); DrawerLost if none comes."""
        async with self.slots:
            conn = self.conn
            if conn is None:
                raise DrawerLost(f"{self.name} is not running")
            future = asyncio.get_running_loop().create_future()
            self.waiting[n] = future
            try:
                conn.send((n, job))
                return await asyncio.wait_for(future, DRAW_TIMEOUT)
            except TimeoutError:
                self.stop(f"{self.name} did not answer within {DRAW_TIMEOUT:g} s; killed")
                raise DrawerLost(f"{self.name} hung") from None
            except OSError as exc:
                self.stop(f"{self.name} could not be reached ({exc})")
                raise DrawerLost(f"{self.name} is gone") from None
            finally:
                self.waiting.pop(n, None)

    def stop(self, why: str = "") -> None:
        """Kill the process; its jobs under way fail with DrawerLost."""
        process, conn, self.process, self.conn = self.process, self.conn, None, None
        self.ready.clear()
        if why:
            log.warning("board process: %s", why)
        if conn is not None:
            if self.loop is not None and not self.loop.is_closed():
                self.loop.remove_reader(conn.fileno())
            conn.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(1)
        waiting, self.waiting = self.waiting, {}
        for future in waiting.values():
            if not future.done():
                future.set_exception(DrawerLost(why or f"{self.name} stopped"))


class BoardProcesses:
    """``count`` worker processes drawing boards (see the module's text); ``warm`` False
    leaves their caches to fill as they draw (a start a second or two quicker, for tests);
    ``trim_seconds``: how often at most a worker gives freed memory back."""

    def __init__(
        self, count: int = 1, *, warm: bool = True, trim_seconds: float = TRIM_SECONDS
    ) -> None:
        self._workers = [
            _Worker(f"komabot-boards-{k}", warm, trim_seconds) for k in range(1, count + 1)
        ]
        self._asked = 0
        self.closed = False
        self.journal: list[tuple[int, int, BoardJob]] | None = None
        """When a list: each job sent from now on, as (worker index, game id, job), in the
        order sent (for benchmarks: ``bench/render.py --jobs`` draws them again)."""

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers running now (for tests and diagnosis)."""
        return [pid for w in self._workers if (pid := w.pid) is not None]

    @property
    def starts(self) -> int:
        """How many worker processes were started so far (restarts included)."""
        return sum(w.starts for w in self._workers)

    def start(self) -> None:
        """Start every worker; each warms its caches (about 2 s of its CPU) and then draws."""
        if not self.closed:
            for worker in self._workers:
                worker.start()

    async def wait_ready(self, timeout: float) -> bool:
        """Wait until every worker can draw; False if one could not within ``timeout``."""
        try:
            async with asyncio.timeout(timeout):
                for worker in self._workers:
                    await worker.ready.wait()
        except TimeoutError:
            return False
        return True

    def worker_of(self, game: int) -> int:
        """The index of the worker that draws the boards of ``game`` (its id): scattered, so
        that games played in a regular order (a benchmark's) do not line up with the
        workers."""
        return (((game * SCATTER) & 0xFFFFFFFF) >> 16) % len(self._workers)

    async def draw(self, game: int, job: BoardJob) -> bytes | None:
        """The PNG of ``job`` drawn by the worker of ``game`` (its id); None when that
        worker is not ready (starting, or started again after it died: the caller draws the
        board itself); DrawerLost when it did not draw it."""
        index = self.worker_of(game)
        worker = self._workers[index]
        if not worker.ready.is_set():
            if not self.closed:
                worker.start()
            return None
        if self.journal is not None:
            self.journal.append((index, game, job))
        self._asked += 1
        png: bytes = await worker.ask(self._asked, job)
        return png

    async def stats(self) -> list[dict[str, float]]:
        """Each running worker's CPU seconds and render counts (see ``render_counts``)."""
        out = []
        for worker in self._workers:
            if worker.ready.is_set():
                self._asked += 1
                out.append(await worker.ask(self._asked, None))
        return out

    def close(self) -> None:
        """Kill every worker (boards under way are drawn by their callers instead)."""
        self.closed = True
        for worker in self._workers:
            worker.stop()
