"""``/analyse``'s engine work: off the event loop, one per chat, kept, resumed after a restart.

- **Where it runs.**  One analysis thread runs ``engine.analysis.analyse_game``.  With the
  built-in engine, each position is a job for the bot's engine worker processes
  (:class:`PositionEngine`, the :class:`~bot.core.opponent.engine_runner.EngineRunner`), sent
  one at a time: the bot's moves wait for a free worker in the same line, so an analysis
  delays one by one position at most.  A variant with an external USI engine configured is
  analysed by a process of that engine of its own.  (An engine without workers, a test's,
  leaves the built-in engine searching on the analysis thread.)
- **One per chat, across processes and restarts.**  A chat's request is a row in the database
  (:meth:`~bot.store.interface.Store.claim_analysis_request`): a second one is refused while
  it is there.  The process working on it renews its claim every ``HEARTBEAT`` seconds; at a
  clean shutdown it gives its claims up.  Every ``PICKUP_EVERY`` seconds (and at start) a
  process takes up the requests whose claim ended and runs them again from the start, so the
  card of an analysis cut short by a restart still ends with the result.
- **Kept.**  A finished analysis is saved in the database (sente's score and the engine's move
  in each position) keyed by the game, the budget and the engine, and the most recent
  ``CACHE_ENTRIES`` are kept in memory too: asking again, even after a restart, is instant.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import shlex
import threading
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from bot.chat import ChatKey
from bot.config import Config
from bot.core.clock import Clock
from bot.core.renewed_claims import HEARTBEAT, LEASE, PICKUP_EVERY
from bot.store.errors import StoreError, StoreUnavailable
from bot.store.interface import Store
from bot.store.models import AnalysisRequest, AnalysisRow, GameRow
from engine.analysis import (
    BUILTIN_NAME,
    Budget,
    BuiltinEvaluator,
    Evaluator,
    GameAnalysis,
    Verdict,
    analyse_game,
    judge_game,
)
from engine.analysis_usi import UsiEvaluator
from engine.usi_client import EngineSpec
from rules import Position

log = logging.getLogger("komabot.service")
CACHE_ENTRIES = 64
BUILTIN = "builtin"
WAKE_SECONDS = 0.5  # how often the analysis thread, waiting for a position, looks up
Progress = Callable[[int, int], None]
AnalysisKey = tuple[int, Budget, str]
Resume = Callable[[AnalysisRequest], Coroutine[Any, Any, None]]
T = TypeVar("T")


class AnalysisBusy(Exception):
    """The chat waits for an analysis already."""


class AnalysisStopped(Exception):
    """The service is shutting down: the analysis stops (it is taken up at the next start)."""


@runtime_checkable
class PositionEngine(Protocol):
    """Evaluates one position of an analysis in the engine's workers."""

    async def evaluate(
        self, variant: str, sfen: str, moves: Sequence[str], *, game: str, budget: Budget
    ) -> Verdict: ...


@dataclass(frozen=True)
class WorkerEvaluator:
    """An :class:`~engine.analysis.Evaluator` for the analysis thread whose every position is
    a job for ``engine`` on ``loop``, waiting its turn with the bot's moves; ``game`` names
    the analysis (the worker keeps its table for it)."""

    engine: PositionEngine
    loop: asyncio.AbstractEventLoop
    budget: Budget
    game: str
    stopping: threading.Event
    name: str = BUILTIN_NAME

    def new_game(self) -> None:
        pass  # the game's name tells the worker which table to keep

    def evaluate(self, position: Position, sfen: str, moves: Sequence[str]) -> Verdict:
        if self.stopping.is_set():
            raise AnalysisStopped
        job = self.engine.evaluate(
            position.variant.id, sfen, moves, game=self.game, budget=self.budget
        )
        future = asyncio.run_coroutine_threadsafe(job, self.loop)
        while True:
            try:
                return future.result(timeout=WAKE_SECONDS)
            except concurrent.futures.TimeoutError:
                if self.stopping.is_set():  # the loop may be gone: do not wait for it
                    future.cancel()
                    raise AnalysisStopped from None


class Analyses:
    """Runs, keeps and resumes analyses; see the module's docstring."""

    def __init__(
        self,
        config: Config,
        store: Store,
        clock: Clock,
        owner: str,
        *,
        engine: object = None,
        budget: Budget | None = None,
        entries: int = CACHE_ENTRIES,
    ) -> None:
        self.budget = budget or Budget(movetime_ms=config.analysis_movetime_ms)
        self.usi_engines: dict[str, EngineSpec] = dict(config.usi_engines)
        self.store = store
        self.clock = clock
        self.owner = owner  # this process, as its claims name it
        self.workers = engine if isinstance(engine, PositionEngine) else None
        self.entries = entries
        self._cache: OrderedDict[AnalysisKey, GameAnalysis] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._pickup: asyncio.Task[None] | None = None
        self._writes: set[asyncio.Future[Any]] = set()  # see _written
        self._stopping = threading.Event()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-analysis")
        self._runs = 0  # names each run's table in the workers

    # --- what is kept ---------------------------------------------------------------------

    def engine_key(self, game: GameRow) -> str:
        spec = self.usi_engines.get(game.variant)
        return shlex.join(spec.command) if spec else BUILTIN

    def key(self, game: GameRow) -> AnalysisKey:
        return (game.id, self.budget, self.engine_key(game))

    async def kept(self, game: GameRow) -> GameAnalysis | None:
        """The analysis of ``game`` at the current budget and engine, if one is kept (in
        memory, else in the database)."""
        key = self.key(game)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return found
        row = await self.store.get_analysis(game.id, self.budget.key, key[2])
        if row is None or len(row.scores) != len(game.moves) + 1:
            return None
        found = judge_game(
            game.variant, game.start_sfen, game.moves, row.engine, self.budget, row.scores,
            row.best_moves,
        )  # fmt: skip
        self._remember(key, found)
        return found

    def _remember(self, key: AnalysisKey, analysis: GameAnalysis) -> None:
        self._cache[key] = analysis
        self._cache.move_to_end(key)
        while len(self._cache) > self.entries:
            self._cache.popitem(last=False)

    # --- requests -------------------------------------------------------------------------

    async def claim(self, chat: ChatKey, game: GameRow, card: str) -> None:
        """Record ``chat``'s request for ``game``'s analysis; AnalysisBusy if it has one."""
        now = self.clock.now()
        request = AnalysisRequest(chat, game.id, card, now)
        if not await self.store.claim_analysis_request(request, self.owner, now + LEASE):
            raise AnalysisBusy

    def start(self, chat: ChatKey, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (the claimed request's analysis and replies) in the background; the
        request is forgotten when it ends, unless the service stopped it (see ``close``)."""
        task = asyncio.get_running_loop().create_task(self._held(chat, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _held(self, chat: ChatKey, work: Coroutine[Any, Any, None]) -> None:
        beat = asyncio.ensure_future(self._heartbeat(chat))
        try:
            await work
        except asyncio.CancelledError:
            raise  # shutting down: the request stays for the next start
        except Exception:
            log.exception("analysis in %s failed", chat.key)
        finally:
            beat.cancel()
            await asyncio.gather(beat, return_exceptions=True)
        with contextlib.suppress(StoreError):  # still there: taken up again later
            await self._written(self.store.end_analysis_request(chat, self.owner))

    async def _heartbeat(self, chat: ChatKey) -> None:
        while True:
            await self.clock.sleep(HEARTBEAT)
            until = self.clock.now() + LEASE
            with contextlib.suppress(StoreError):
                await self._written(self.store.renew_analysis_request(chat, self.owner, until))

    def resume_from_now_on(self, resume: Resume) -> None:
        """Take up the requests nobody holds (a restart cut them short) now and every
        ``PICKUP_EVERY`` seconds, each run by ``resume``."""
        if self._pickup is None:
            self._pickup = asyncio.ensure_future(self._pick_up(resume))

    async def _pick_up(self, resume: Resume) -> None:
        while True:
            try:
                await self.take_up(resume)
            except StoreUnavailable:
                pass  # the store logged the outage once
            except StoreError:
                log.exception("looking for analyses to resume failed; looking again later")
            await self.clock.sleep(PICKUP_EVERY)

    async def take_up(self, resume: Resume) -> int:
        """Run every request whose claim ended; how many."""
        now = self.clock.now()
        taken = await self._written(self.store.take_analysis_requests(self.owner, now, now + LEASE))
        for request in taken:
            log.info("resuming the analysis of game %s in %s", request.game_id, request.chat.key)
            self.start(request.chat, resume(request))
        return len(taken)

    # --- the engine work ------------------------------------------------------------------

    async def analyse(self, game: GameRow, progress: Progress) -> GameAnalysis:
        """``game`` analysed on the analysis thread (``progress`` is called there), or as it
        is kept; kept afterwards, in memory and in the database."""
        found = await self.kept(game)
        if found is not None:
            return found
        loop = asyncio.get_running_loop()
        self._runs += 1
        name = f"analysis:{self.owner}:{self._runs}:{game.id}"
        work = functools.partial(self._analyse, game, loop, name, progress)
        analysis = await loop.run_in_executor(self._pool, work)
        key = self.key(game)
        self._remember(key, analysis)
        row = AnalysisRow(
            game_id=game.id,
            budget=self.budget.key,
            engine_key=key[2],
            engine=analysis.engine,
            scores=analysis.scores,
            best_moves=analysis.best_moves,
            created_at=self.clock.now(),
        )
        try:
            await self._written(self.store.save_analysis(row))
        except StoreError as exc:  # answered all the same; asked again after a restart, redone
            log.warning("the analysis of game %s was not kept: %s", game.id, exc)
        return analysis

    def _analyse(
        self, game: GameRow, loop: asyncio.AbstractEventLoop, name: str, progress: Progress
    ) -> GameAnalysis:
        sfen, moves = game.start_sfen, game.moves
        spec = self.usi_engines.get(game.variant)
        if spec is not None:
            with UsiEvaluator(spec, self.budget, game.variant) as usi:
                return analyse_game(game.variant, sfen, moves, usi, on_progress=progress)
        own: Evaluator
        if self.workers is not None:
            own = WorkerEvaluator(self.workers, loop, self.budget, name, self._stopping)
        else:
            own = BuiltinEvaluator(game.variant, self.budget)
        return analyse_game(game.variant, sfen, moves, own, on_progress=progress)

    async def _written(self, write: Coroutine[Any, Any, T]) -> T:
        """``write`` (a store write) carried out whole even when the service's shutdown
        cancels the task waiting for it (``close`` waits for it): a request answered is
        forgotten, a claim taken is recorded, an analysis made is kept."""
        task = asyncio.ensure_future(write)
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        return await asyncio.shield(task)

    async def settle(self) -> None:
        """Wait for the analyses running now (and their replies)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self, *, release: bool = True) -> None:
        """Stop: the analyses under way are cut short and, with ``release``, given up at once
        for the next start to take up (else when their claims run out, as after a crash)."""
        if self._stopping.is_set():
            return  # closed already (as after a crash: nothing given up)
        self._stopping.set()
        tasks = [*self._tasks, *([self._pickup] if self._pickup else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*self._writes, return_exceptions=True)
        self._pool.shutdown(wait=False, cancel_futures=True)
        if release:
            with contextlib.suppress(StoreError):
                await self.store.release_analysis_requests(self.owner)
