"""``/analyse``'s engine work: off the event loop, one at a time, one per chat, remembered.

- Every analysis runs on one worker thread of its own (``engine.analysis.analyse_game`` with
  the built-in evaluator at the configured budget per position, or the external USI engine
  configured for the variant), so at most one engine search for analyses runs at a time and
  the bot's own moves (in the engine worker processes) never wait behind one.
- A chat has at most one analysis running: a second request there is refused at once.
- Finished analyses are kept in memory, most recently used first, up to ``CACHE_ENTRIES``,
  keyed by the game, the budget and the engine: asking again is instant.  A restart loses
  them (a table in the database would keep them).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import shlex
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.chat import ChatKey
from bot.config import Config
from bot.store.models import GameRow
from engine.analysis import Budget, BuiltinEvaluator, GameAnalysis, analyse_game
from engine.analysis_usi import UsiEvaluator
from engine.usi_client import EngineSpec

log = logging.getLogger("komabot.service")
CACHE_ENTRIES = 64
BUILTIN = "builtin"
Progress = Callable[[int, int], None]
AnalysisKey = tuple[int, Budget, str]


class AnalysisBusy(Exception):
    """The chat has an analysis running already."""


class Analyses:
    """Runs analyses on its thread; see the module's docstring for the limits."""

    def __init__(
        self, config: Config, *, budget: Budget | None = None, entries: int = CACHE_ENTRIES
    ) -> None:
        self.budget = budget or Budget(movetime_ms=config.analysis_movetime_ms)
        self.usi_engines: dict[str, EngineSpec] = dict(config.usi_engines)
        self.entries = entries
        self._cache: OrderedDict[AnalysisKey, GameAnalysis] = OrderedDict()
        self._chats: set[str] = set()  # chats with an analysis running
        self._tasks: set[asyncio.Task[None]] = set()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-analysis")

    def key(self, game: GameRow) -> AnalysisKey:
        spec = self.usi_engines.get(game.variant)
        return (game.id, self.budget, shlex.join(spec.command) if spec else BUILTIN)

    def cached(self, game: GameRow) -> GameAnalysis | None:
        """The analysis of ``game`` at the current budget and engine, if one is kept."""
        key = self.key(game)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
        return found

    def claim(self, chat: ChatKey) -> None:
        """Mark ``chat`` as analysing; AnalysisBusy if it already is (see ``start``)."""
        if chat.key in self._chats:
            raise AnalysisBusy
        self._chats.add(chat.key)

    def start(self, chat: ChatKey, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (the analysis of a claimed chat and its replies) in the background;
        the chat is free again when it ends, however it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(functools.partial(self._ended, chat))

    def _ended(self, chat: ChatKey, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._chats.discard(chat.key)
        if not task.cancelled() and task.exception() is not None:
            log.error("analysis in %s failed", chat.key, exc_info=task.exception())

    async def analyse(self, game: GameRow, progress: Progress) -> GameAnalysis:
        """``game`` analysed on the analysis thread (``progress`` is called there), kept."""
        loop = asyncio.get_running_loop()
        work = functools.partial(self._analyse, game, self.key(game), progress)
        analysis = await loop.run_in_executor(self._pool, work)
        self._cache[self.key(game)] = analysis
        while len(self._cache) > self.entries:
            self._cache.popitem(last=False)
        return analysis

    def _analyse(self, game: GameRow, key: AnalysisKey, progress: Progress) -> GameAnalysis:
        found = self._cache.get(key)  # analysed while this one waited for the thread
        if found is not None:
            return found
        sfen, moves = game.start_sfen, game.moves
        spec = self.usi_engines.get(game.variant)
        if spec is not None:
            with UsiEvaluator(spec, self.budget, game.variant) as usi:
                return analyse_game(game.variant, sfen, moves, usi, on_progress=progress)
        own = BuiltinEvaluator(game.variant, self.budget)
        return analyse_game(game.variant, sfen, moves, own, on_progress=progress)

    async def settle(self) -> None:
        """Wait for the analyses running now (and their replies)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
