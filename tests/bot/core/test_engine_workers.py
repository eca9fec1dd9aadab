"""The engine's worker processes and the queue in front of them, on their own."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bot.core.opponent.engine_workers import EngineFailure, EngineWorkers
from bot.core.opponent.fair_queue import FairQueue
from tests.bot.core.engine_fakes import SCRIPT, scripted_think

QUICK = {"variant_id": "shogi", "movetime_ms": 30, "level": 1}


async def test_the_queue_serves_owners_round_robin_and_each_key_once() -> None:
    queue: FairQueue[int] = FairQueue()
    for key in (1, 2, 3, 4):
        assert queue.put("alice", key)
    assert queue.put("bob", 5) and queue.put("carol", 6)
    assert not queue.put("alice", 2)  # already waiting
    first = await queue.get()
    assert not queue.put("alice", first)  # being worked on
    served = [first] + [await queue.get() for _ in range(5)]
    assert served == [1, 5, 6, 2, 3, 4]
    assert queue.busy and not len(queue)
    for key in served:
        queue.done(key)
    await asyncio.wait_for(queue.join(), 1)
    assert queue.put("alice", 1)  # done: it may come again


async def test_a_worker_killed_mid_search_fails_that_search_and_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "script"
    script.write_text("hang")
    monkeypatch.setenv(SCRIPT, str(script))
    workers = EngineWorkers(1, scripted_think)
    try:
        search = asyncio.ensure_future(workers.run(QUICK, 30))
        async with asyncio.timeout(10):
            while not workers.pids:
                await asyncio.sleep(0.01)
        victim = workers.pids[0]
        await asyncio.sleep(0.2)
        os.kill(victim, signal.SIGKILL)
        with pytest.raises(EngineFailure) as failed:
            await search
        assert failed.value.kind == "crash"
        script.write_text("")
        result = await workers.run(QUICK, 30)
        assert result.best_move and workers.pids != [victim]
    finally:
        await workers.close()


async def test_a_hung_search_times_out_and_a_cancelled_one_frees_its_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "script"
    script.write_text("hang")
    monkeypatch.setenv(SCRIPT, str(script))
    workers = EngineWorkers(1, scripted_think)
    try:
        with pytest.raises(EngineFailure) as failed:
            await workers.run(QUICK, 0.5)
        assert failed.value.kind == "timeout" and workers.pids == []  # killed
        search = asyncio.ensure_future(workers.run(QUICK, 30))
        await asyncio.sleep(0.5)
        search.cancel()
        with pytest.raises(asyncio.CancelledError):
            await search
        script.write_text("fail")
        with pytest.raises(EngineFailure, match="the search fell over"):
            await workers.run(QUICK, 30)
        script.write_text("")
        assert (await workers.run(QUICK, 30)).best_move  # the same worker, still usable
    finally:
        await workers.close()
