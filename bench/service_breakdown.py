"""Where a move's wall time goes (``bench/service.py --breakdown``): the slowest moves against
the median ones, in figures that keep their meaning on a loaded machine (CPU times, counts).

While the moves are played, every task the event loop runs is wrapped so that each of its
steps (one pass of the loop: the task resumed until it waits again) is counted with its CPU
time, and charged to the move whose request made the task (a context variable: tasks inherit
it).  Per move this records:

- the loop's passes for the move and their CPU (``own``), and the loop thread's CPU over the
  move's wall time minus that (``other``: the other request in flight, the store's writer
  task, callbacks, garbage collections);
- garbage collections while the move was in flight (``gc.callbacks``): how many, how many of
  the oldest generation, and their time;
- the store's calls (every coroutine method of the store, wall time from call to resumption:
  the reads, and the write with its wait for the disk);
- the board: the boards already in flight when it was sent (all, and at its board process:
  queued ahead of it),
  the wall time from sending to the answer's resumption, and how long the move waited for it
  after its write was durable (when the board came after the write);
- the loop thread's involuntary context switches (``getrusage(RUSAGE_THREAD)``): the system
  took the core away (a loaded machine) -- wall time spent neither in the loop's CPU nor in a
  wait of the move's own.

The wrapping costs CPU of its own (a few microseconds a pass): compare rates and CPU a move
between runs with and without ``--breakdown``, never across.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import inspect
import resource
import statistics
import time
from collections.abc import Callable, Coroutine, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

WRITES = frozenset({"update_game"})
"""The store calls that write a move."""
CURRENT: contextvars.ContextVar[Move | None] = contextvars.ContextVar("bench_move", default=None)
_IN_STORE = contextvars.ContextVar("bench_in_store", default=False)
"""In a store call already (one calling another is counted once)."""


@dataclass
class Move:
    """What one move took; wall times in seconds (see the module's text)."""

    wall: float = 0.0
    passes: int = 0
    own_cpu: float = 0.0
    loop_cpu: float = 0.0
    gcs: int = 0
    full_gcs: int = 0
    gc_time: float = 0.0
    store_calls: int = 0
    store_wall: float = 0.0
    write_wall: float = 0.0
    boards_ahead: int = 0
    boards_ahead_there: int = 0
    board_wall: float = 0.0
    board_after_write: float = 0.0
    switches: int = 0
    began: float = 0.0
    """When the move was sent (``time.time()``: to line it up with other logs)."""
    # marks (perf_counter)
    _written_at: float = field(default=0.0, repr=False)
    _board_at: float = field(default=0.0, repr=False)


class _Traced(Coroutine[Any, Any, Any]):
    """A coroutine whose every step is charged to the move current in its task's context."""

    def __init__(self, inner: Coroutine[Any, Any, Any]) -> None:
        self._inner = inner

    def _step(self, step: Callable[[], Any]) -> Any:
        move = CURRENT.get()
        t = time.thread_time()
        try:
            return step()
        finally:
            if move is not None:
                move.passes += 1
                move.own_cpu += time.thread_time() - t

    def send(self, value: Any) -> Any:
        return self._step(lambda: self._inner.send(value))

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        exc = typ if val is None else val
        return self._step(lambda: self._inner.throw(exc))

    def close(self) -> None:
        self._inner.close()

    def __await__(self) -> Generator[Any, None, Any]:
        raise TypeError("a traced coroutine runs as a task")


class Breakdown:
    """Hooks the loop, the store and the board processes of one service (``attach``), and
    records each move (``move``)."""

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self._gc_start = 0.0
        self._in_flight: list[Move] = []
        self._boards_in_flight = 0
        self._boards_at: dict[int, int] = {}
        """Boards in flight by the board process drawing them."""

    def attach(self, service: Any) -> None:
        loop = asyncio.get_running_loop()
        loop.set_task_factory(lambda loop, coro, **kw: asyncio.Task(_Traced(coro), loop=loop, **kw))
        gc.callbacks.append(self._on_gc)
        store = service.store
        for name, method in inspect.getmembers(store, inspect.iscoroutinefunction):
            if not name.startswith("_"):
                setattr(store, name, self._store_call(method, name))
        processes = service.pictures.processes
        if processes is not None:
            processes.draw = self._board_call(processes.draw, processes.worker_of)

    def detach(self) -> None:
        asyncio.get_running_loop().set_task_factory(None)
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            return
        took = time.perf_counter() - self._gc_start
        for move in self._in_flight:
            move.gcs += 1
            move.full_gcs += info["generation"] == 2
            move.gc_time += took

    def _store_call(
        self, method: Callable[..., Coroutine[Any, Any, Any]], name: str
    ) -> Callable[..., Coroutine[Any, Any, Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            move, t = CURRENT.get(), time.perf_counter()
            if move is None or _IN_STORE.get():
                return await method(*args, **kwargs)
            token = _IN_STORE.set(True)
            try:
                return await method(*args, **kwargs)
            finally:
                _IN_STORE.reset(token)
                now = time.perf_counter()
                move.store_calls += 1
                move.store_wall += now - t
                if name in WRITES:
                    move.write_wall += now - t
                    move._written_at = now

        return call

    def _board_call(
        self, method: Callable[..., Coroutine[Any, Any, Any]], worker_of: Callable[[int], int]
    ) -> Callable[..., Coroutine[Any, Any, Any]]:
        async def call(game: int, *args: Any, **kwargs: Any) -> Any:
            move, t = CURRENT.get(), time.perf_counter()
            there = worker_of(game)
            if move is not None:
                move.boards_ahead += self._boards_in_flight
                move.boards_ahead_there += self._boards_at.get(there, 0)
            self._boards_in_flight += 1
            self._boards_at[there] = self._boards_at.get(there, 0) + 1
            try:
                return await method(game, *args, **kwargs)
            finally:
                self._boards_in_flight -= 1
                self._boards_at[there] -= 1
                if move is not None:
                    move._board_at = time.perf_counter()
                    move.board_wall += move._board_at - t

        return call

    async def move(self, play: Coroutine[Any, Any, Any]) -> Any:
        """Await ``play`` (one request) as one recorded move."""
        move = Move(began=time.time())
        token = CURRENT.set(move)
        self._in_flight.append(move)
        wall, cpu = time.perf_counter(), time.thread_time()
        switches = resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw
        try:
            return await play
        finally:
            move.wall = time.perf_counter() - wall
            move.loop_cpu = time.thread_time() - cpu
            move.switches = resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw - switches
            if move._board_at and move._written_at:
                move.board_after_write = max(0.0, move._board_at - move._written_at)
            self._in_flight.remove(move)
            CURRENT.reset(token)
            self.moves.append(move)


ROWS: Sequence[tuple[str, Callable[[Move], float], str]] = (
    ("wall time (load-dependent)", lambda m: m.wall * 1e3, "ms"),
    ("loop passes for the move", lambda m: m.passes, ""),
    ("  their CPU (the move's own)", lambda m: m.own_cpu * 1e3, "ms"),
    ("loop CPU on other work meanwhile", lambda m: (m.loop_cpu - m.own_cpu) * 1e3, "ms"),
    ("  of which garbage collection", lambda m: m.gc_time * 1e3, "ms"),
    ("garbage collections meanwhile", lambda m: m.gcs, ""),
    ("  of the oldest generation", lambda m: m.full_gcs, ""),
    ("store calls", lambda m: m.store_calls, ""),
    ("  the reads' wall time", lambda m: (m.store_wall - m.write_wall) * 1e3, "ms"),
    ("  the write's (commit, fsync)", lambda m: m.write_wall * 1e3, "ms"),
    ("boards in flight ahead of its board", lambda m: m.boards_ahead, ""),
    ("  at its board process", lambda m: m.boards_ahead_there, ""),
    ("board: sent to answer read", lambda m: m.board_wall * 1e3, "ms"),
    ("  waited for it after the write", lambda m: m.board_after_write * 1e3, "ms"),
    ("loop thread preempted (switches)", lambda m: m.switches, ""),
    (
        "wall neither loop CPU nor own waits",
        lambda m: max(0.0, m.wall - m.loop_cpu - m.store_wall - m.board_after_write) * 1e3,
        "ms",
    ),
)


def report(moves: Sequence[Move]) -> str:
    """The mean of each figure over the median moves (the 45th-55th percentiles of wall time)
    and over the slowest 2% and 1%."""
    ranked = sorted(moves, key=lambda m: m.wall)
    n = len(ranked)
    groups = {
        "median": ranked[int(n * 0.45) : max(int(n * 0.55), int(n * 0.45) + 1)],
        "slowest 2%": ranked[min(n - 1, int(n * 0.98)) :],
        "slowest 1%": ranked[min(n - 1, int(n * 0.99)) :],
    }
    width = max(len(label) for label, _, _ in ROWS) + 2
    out = [f"breakdown of a move (means; {n} moves): " + "".join(f"{name:>12}" for name in groups)]
    for label, value, unit in ROWS:
        cells = "".join(
            f"{statistics.fmean(value(m) for m in group):>10.2f}{unit:>2}"
            for group in groups.values()
        )
        out.append(f"  {label:<{width}}{cells}")
    return "\n".join(out)


SLOWEST_SHOWN = 5
"""How many of the slowest moves :func:`slowest` shows one by one."""


def slowest(moves: Sequence[Move], n: int = SLOWEST_SHOWN) -> str:
    """The ``n`` slowest moves one by one, with the UTC time each was sent (to line a pause up
    with a log of the system's calls, e.g. ``strace -tt``): a single pause is averaged away
    in :func:`report`'s groups."""
    out = [f"the {min(n, len(moves))} slowest moves (sent at, UTC):"]
    for m in sorted(moves, key=lambda m: m.wall, reverse=True)[:n]:
        sent = time.strftime("%H:%M:%S", time.gmtime(m.began)) + f"{m.began % 1:.3f}"[1:]
        out.append(
            f"  {sent} wall {m.wall * 1e3:.1f} ms: reads {(m.store_wall - m.write_wall) * 1e3:.1f}"
            f", write {m.write_wall * 1e3:.1f}, board after the write "
            f"{m.board_after_write * 1e3:.1f}, loop CPU own {m.own_cpu * 1e3:.1f} and other "
            f"{(m.loop_cpu - m.own_cpu) * 1e3:.1f} (gc {m.gc_time * 1e3:.1f}, "
            f"{m.full_gcs} full), preempted {m.switches}x"
        )
    return "\n".join(out)
