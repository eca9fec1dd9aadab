"""The bot's engine: one answer (a move, a resignation, a declaration) for a game's position.

The built-in engine (``engine.api.think``) searches in worker processes
(:mod:`bot.core.opponent.engine_workers`) within the configured time per move, of which
each level uses its share.  A search that crashes or hangs is tried once more on a fresh
worker; a second failure raises :class:`EngineUnavailable`.  For a variant with an external
USI engine configured (``KOMABOT_USI_ENGINE`` for Standard Shogi), that engine answers
instead; it is started once and reused, and when it fails even after its own restart, the
built-in engine answers (and the failure is logged).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.config import Config
from bot.core.opponent.engine_workers import EngineFailure, EngineWorkers
from engine.analysis import Budget, Verdict, evaluate_position
from engine.api import position_after, think
from engine.levels import level as level_settings
from engine.usi_client import EngineSpec, UsiClient, UsiEngineError
from rules import RulesError, impasse_report, load_variant

log = logging.getLogger("komabot.engine")

GRACE_SECONDS = 10.0  # beyond its time per move, how long a search may take before it is killed
ATTEMPTS = 2  # a search, and one retry on a fresh worker
MIN_EXTERNAL_MS = 50  # the least time an external engine is given for a move
NODES_TIMEOUT = 60.0  # how long an analysis position with a budget in nodes may take


@dataclass(frozen=True)
class EngineQuery:
    """The position of one game (its start and moves) and how the bot plays it."""

    game: str  # names the game (an external engine starts a new game when it changes)
    variant: str
    sfen: str
    moves: tuple[str, ...]
    level: int
    past_scores: tuple[int, ...] = ()  # the engine's scores for its previous moves here


@dataclass(frozen=True)
class EngineAnswer:
    """What the bot does: play ``move`` (USI), resign, or declare an impasse win."""

    move: str | None
    resign: bool = False
    declare_win: bool = False
    score: int | None = None  # the engine's view, for its next resign decision (None: unknown)


class EngineUnavailable(Exception):
    """The engine gave no answer, even when asked again."""


class Engine(Protocol):
    """What the bot player needs of an engine (:class:`EngineRunner`, or a test's)."""

    @property
    def parallel(self) -> int:
        """How many answers may be worked on at once."""
        ...

    def start(self) -> None: ...
    async def answer(self, query: EngineQuery) -> EngineAnswer: ...
    async def close(self) -> None: ...


class EngineRunner:
    """Answers :class:`EngineQuery` values with the built-in or an external engine."""

    def __init__(
        self,
        *,
        workers: int = 1,
        movetime_ms: int = 3000,
        external: Mapping[str, EngineSpec] | None = None,
        target: Callable[..., Any] = think,
        grace_seconds: float = GRACE_SECONDS,
    ) -> None:
        self.movetime_ms = movetime_ms
        self.grace_seconds = grace_seconds
        self.workers = EngineWorkers(workers, target)
        self.external = dict(external or {})
        self._clients: dict[str, UsiClient] = {}

    @classmethod
    def from_config(cls, config: Config) -> EngineRunner:
        return cls(
            workers=config.engine_workers,
            movetime_ms=config.engine_movetime_ms,
            external=dict(config.usi_engines),
        )

    @property
    def parallel(self) -> int:
        """How many searches may run at once."""
        return self.workers.count

    def start(self) -> None:
        """Start the worker processes in the background."""
        self.workers.warm()

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()
        self._clients.clear()
        await self.workers.close()

    async def answer(self, query: EngineQuery) -> EngineAnswer:
        """The bot's answer in ``query``'s position, which must have a legal move."""
        spec = self.external.get(query.variant)
        if spec is not None:
            try:
                found = await self._external(spec, query)
            except UsiEngineError as exc:
                log.error("external engine failed in game %s (%s); built-in plays", query.game, exc)
            else:
                if found is not None:
                    return found
        return await self._built_in(query)

    async def _built_in(self, query: EngineQuery) -> EngineAnswer:
        job = {
            "variant_id": query.variant,
            "sfen": query.sfen,
            "moves": query.moves,
            "level": query.level,
            "movetime_ms": self.movetime_ms,
            "past_scores": query.past_scores,
        }
        timeout = self.movetime_ms / 1000 + self.grace_seconds
        failure: EngineFailure | None = None
        for attempt in range(1, ATTEMPTS + 1):
            try:
                result = await self.workers.run(job, timeout)
            except EngineFailure as exc:
                failure = exc
                log.warning("engine search for game %s failed (%d): %s", query.game, attempt, exc)
                continue
            return EngineAnswer(
                result.best_move,
                resign=result.resign,
                declare_win=result.declare_win,
                score=result.score,
            )
        raise EngineUnavailable(str(failure))

    async def evaluate(
        self, variant: str, sfen: str, moves: Sequence[str], *, game: str, budget: Budget
    ) -> Verdict:
        """One position of ``/analyse``'s analysis named ``game``, by the built-in engine in
        the workers (waiting for one in line with the bot's moves: ``EngineWorkers.run``);
        tried once more on a fresh worker, then EngineUnavailable."""
        job = {
            "variant_id": variant,
            "sfen": sfen,
            "moves": tuple(moves),
            "game": game,
            "movetime_ms": budget.movetime_ms,
            "nodes": budget.nodes,
        }
        if budget.movetime_ms is not None:
            timeout = budget.movetime_ms / 1000 + self.grace_seconds
        else:
            timeout = NODES_TIMEOUT
        failure: EngineFailure | None = None
        for attempt in range(1, ATTEMPTS + 1):
            try:
                verdict: Verdict = await self.workers.run(job, timeout, evaluate_position)
            except EngineFailure as exc:
                failure = exc
                log.warning("analysis position of %s failed (%d): %s", game, attempt, exc)
                continue
            return verdict
        raise EngineUnavailable(str(failure))

    async def _external(self, spec: EngineSpec, query: EngineQuery) -> EngineAnswer | None:
        """The external engine's answer; None when it declares a win the rules do not grant
        (the built-in engine then finds a move)."""
        client = self._clients.get(query.variant)
        if client is None:
            client = self._clients[query.variant] = UsiClient(spec)
        share = level_settings(query.level).budget_share  # a lower level thinks for less time
        movetime = max(MIN_EXTERNAL_MS, int(self.movetime_ms * share))
        reply = await client.play(
            query.variant, query.sfen, query.moves, movetime_ms=movetime, game=query.game
        )
        if reply.resigns:
            return EngineAnswer(None, resign=True)
        if reply.declares_win:
            if _may_declare(query):
                return EngineAnswer(None, declare_win=True)
            log.warning("external engine declared a win the rules refuse in game %s", query.game)
            return None
        return EngineAnswer(reply.bestmove)


def _may_declare(query: EngineQuery) -> bool:
    try:
        pos = position_after(load_variant(query.variant), query.sfen, query.moves)
    except RulesError:
        return False
    return pos.variant.impasse is not None and not impasse_report(pos).unmet
