"""Engines for the bot player's tests.

``scripted_think`` runs in the real worker processes: it is ``engine.api.think`` unless the file
named by ``KOMABOT_TEST_ENGINE_SCRIPT`` (read at each search) says ``crash-once`` (the worker
dies, once), ``fail`` (the search raises) or ``hang`` (it never answers).  ``RecordingEngine``
answers in this process, with the first legal move, and notes which games it was asked about.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

from bot.core.opponent.engine_runner import EngineAnswer, EngineQuery
from engine.api import Result, position_after, think
from rules import load_variant

SCRIPT = "KOMABOT_TEST_ENGINE_SCRIPT"


def scripted_think(**job: Any) -> Result:
    path = Path(os.environ[SCRIPT])
    mode = path.read_text().strip() if path.exists() else ""
    if mode == "crash-once":
        path.write_text("")
        os._exit(1)
    if mode == "fail":
        raise RuntimeError("the search fell over")
    if mode == "hang":
        time.sleep(3600)
    return think(**job)


def first_legal_move(query: EngineQuery) -> str:
    pos = position_after(load_variant(query.variant), query.sfen, query.moves)
    return pos.usi(pos.legal_moves()[0])


class RecordingEngine:
    """An in-process engine: the first legal move after ``delay`` seconds; ``asked`` lists
    the games in the order it was asked about them."""

    parallel = 1

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.asked: list[int] = []
        self.answers: dict[int, EngineAnswer] = {}  # game id -> a fixed answer

    def start(self) -> None:
        pass

    async def answer(self, query: EngineQuery) -> EngineAnswer:
        self.asked.append(int(query.game))
        await asyncio.sleep(self.delay)
        fixed = self.answers.get(int(query.game))
        return fixed or EngineAnswer(first_legal_move(query), score=0)

    async def close(self) -> None:
        pass
