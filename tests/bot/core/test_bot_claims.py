"""The bot's turn after a process died while it thought: the claim on the turn is short and
renewed while the search runs (a heartbeat), so a dead process's claim ends within seconds and
another process (or the restarted one) takes the turn up; a live thinker's claim is never taken
from it however long it thinks."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.config import Config
from bot.core.clock import FakeClock
from bot.core.opponent.engine_runner import EngineAnswer, EngineQuery
from tests.bot.core.engine_fakes import RecordingEngine
from tests.bot.core.harness import ALICE, Harness, bot_to_move


class GatedEngine(RecordingEngine):
    """Thinks until ``go`` is set, however much (fake) time passes meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def answer(self, query: EngineQuery) -> EngineAnswer:
        self.asked.append(int(query.game))
        await self.go.wait()
        return await RecordingEngine().answer(query)


async def let_run() -> None:
    """Let the tasks the clock woke do their work (the database is in another thread)."""
    for _ in range(5):
        await asyncio.sleep(0.005)


async def test_a_dead_processs_claim_ends_within_seconds(tmp_path: Path, clock: FakeClock) -> None:
    engine = RecordingEngine()
    h = await Harness(tmp_path / "k.sqlite3", clock, Config(), engine=engine).open()
    try:
        game = await h.store.create_game(bot_to_move(), [], free=[ALICE.key])
        player = h.service.bot_player
        now = clock.now()
        # a process claimed the turn as this code claims, then was killed (never renewed)
        assert await h.store.claim_engine_turn(
            game.id, game.version, "dead", now, now + player.lease
        )
        player.start()  # the restarted process (or another one)
        waited = 0
        while not engine.asked and waited < 30:
            await clock.advance(1)
            waited += 1
            await let_run()
        assert engine.asked == [game.id], f"the turn was not taken up within {waited} s"
        await player.settled()
        assert len((await h.game(game.id)).moves) == 1
    finally:
        await h.close()


async def test_a_live_thinkers_claim_is_not_taken(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "k.sqlite3"
    thinker = GatedEngine()
    other = RecordingEngine()
    a = await Harness(path, clock, Config(), engine=thinker).open()
    b = await Harness(path, clock, Config(), engine=other).open()
    try:
        game = await a.store.create_game(bot_to_move(), [], free=[ALICE.key])
        a.service.bot_player.start()
        for _ in range(400):  # up to 10 s: a loaded machine (test workers, other jobs) is slow
            await let_run()
            if thinker.asked:
                break
        # the other process starts once the thinker holds the turn (started together, either
        # may claim it first: a race the test is not about)
        b.service.bot_player.start()
        await let_run()
        assert thinker.asked == [game.id] and other.asked == []
        for _ in range(150):  # five minutes of thinking, far beyond any lease
            await clock.advance(2)
            await let_run()
            await b.service.bot_player.resume()  # what its timer passes do
        assert other.asked == [], "the other process took a turn that was being thought about"
        thinker.go.set()
        await a.service.bot_player.settled()
        assert len((await a.game(game.id)).moves) == 1
    finally:
        thinker.go.set()
        await a.close()
        await b.close()
