"""An external USI engine as an analysis :class:`engine.analysis.Evaluator`.

:class:`UsiEvaluator` drives :class:`engine.usi_client.UsiClient` on an event loop of its own,
so :func:`engine.analysis.analyse_game` stays synchronous: call it from a thread that runs no
event loop (a worker thread or process), and :meth:`UsiEvaluator.close` it afterwards (or use
it as a context manager).  The score is read from the last ``info ... score`` line before
``bestmove``; an engine that gives none, or answers ``resign``/``win``, is scored from that.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Sequence
from types import TracebackType

from engine.analysis import MATE_SCORE, Budget, Verdict
from engine.usi_client import EngineSpec, UsiClient, UsiEngineError
from rules import Position


def parse_score(info: str) -> int | None:
    """The score of an ``info`` line from the side to move's view: ``score cp 123`` is 123,
    ``score mate 5`` is ``MATE_SCORE - 5``, ``score mate -4`` (or ``mate -``) a mate against
    it; None without a readable score."""
    words = info.split()
    for i, word in enumerate(words[:-2]):
        if word != "score":
            continue
        kind, value = words[i + 1], words[i + 2]
        try:
            if kind == "cp":
                return int(value)
            if kind == "mate":
                if value in ("+", "-"):
                    return MATE_SCORE - 1 if value == "+" else -MATE_SCORE + 1
                plies = int(value)
                return MATE_SCORE - plies if plies > 0 else -MATE_SCORE - plies
        except ValueError:
            return None
    return None


class UsiEvaluator:
    """An external engine started on first use; one game's positions in turn."""

    def __init__(self, spec: EngineSpec, budget: Budget, variant_id: str) -> None:
        self.spec = spec
        self._budget = budget
        self._variant = variant_id
        self._loop = asyncio.new_event_loop()
        self._client = UsiClient(spec)
        self._game = 0

    def __enter__(self) -> UsiEvaluator:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def name(self) -> str:
        """What the engine calls itself (``id name``), else its command."""
        return self._client.name or shlex.join(self.spec.command)

    @property
    def budget(self) -> Budget:
        return self._budget

    def new_game(self) -> None:
        self._game += 1

    def evaluate(self, position: Position, sfen: str, moves: Sequence[str]) -> Verdict:
        reply = self._loop.run_until_complete(
            self._client.play(
                self._variant,
                sfen,
                moves,
                movetime_ms=self._budget.movetime_ms,
                nodes=self._budget.nodes,
                game=f"analysis-{self._game}",
            )
        )
        if reply.resigns:
            return Verdict(None, -MATE_SCORE + 1)
        if reply.declares_win:
            return Verdict(None, MATE_SCORE - 1)
        score = parse_score(reply.info)
        if score is None:
            raise UsiEngineError(
                f"USI engine {self.name!r} gave no score before bestmove {reply.bestmove}"
            )
        return Verdict(reply.bestmove, score)

    def close(self) -> None:
        """Stop the engine and the loop (idempotent)."""
        if self._loop.is_closed():
            return
        self._loop.run_until_complete(self._client.close())
        self._loop.close()
