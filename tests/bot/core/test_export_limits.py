"""/export of long games: off the event loop, a bounded number of animations at once, cached."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable
from dataclasses import replace
from typing import Any

import pytest

from bot.core import exports
from bot.core.api import ChatKey, Reply
from bot.core.exports import ByteLRU
from bot.store import GameRow
from rules.records import ExportedFile
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, Harness

SHUFFLE = ("5i4h", "5a4b", "4h5i", "4b5a")  # kings step out and back: a game as long as wanted


async def long_game(h: Harness, plies: int, **kwargs: Any) -> GameRow:
    game = await h.start_game(**kwargs)
    moves = (SHUFFLE * (plies // 4 + 1))[:plies]
    return await h.store.update_game(replace(await h.game(game.id), moves=moves))


async def longest_stall(work: Awaitable[Reply]) -> tuple[Reply, float]:
    """``work``'s reply and the longest the event loop went without running a ticker task."""
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    try:
        reply = await work
    finally:
        done.set()
        await tick
    return reply, max(gaps)


async def test_a_6000_move_kif_export_leaves_the_loop_free(h: Harness) -> None:
    game = await long_game(h, 6000)
    started = time.perf_counter()
    reply, stall = await longest_stall(h.say(ALICE, "export", "kif", str(game.id)))
    took = time.perf_counter() - started
    assert reply.files and reply.files[0].data.count(b"\n") > 6000, reply.text
    assert stall < max(0.25, took / 3), (stall, took)  # on the loop it stalled for all of it


async def test_a_board_of_a_long_game_not_cached_is_rebuilt_off_the_loop(h: Harness) -> None:
    game = await long_game(h, 12_000)
    h.service.games.positions.forget(game.id)
    started = time.perf_counter()
    reply, stall = await longest_stall(h.say(ALICE, "board", str(game.id)))
    took = time.perf_counter() - started
    assert "Move 12000" in reply.text or "12000" in reply.text, reply.text
    assert stall < max(0.15, took / 3), (stall, took)


async def test_positions_are_rebuilt_on_a_worker_thread(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.core import games, positions

    game = await long_game(h, positions.INLINE_PLIES + 2)
    h.service.games.positions.forget(game.id)

    threads: list[str] = []
    original = positions.rebuild

    def spy(row: GameRow) -> Any:
        threads.append(threading.current_thread().name)
        return original(row)

    monkeypatch.setattr(positions, "rebuild", spy)
    monkeypatch.setattr(games, "rebuild", spy)
    await h.say(CAROL, "board", str(game.id))
    # a thread of its own: a rebuild never waits behind board images on the drawing threads
    assert threads and all(name.startswith("komabot-replay") for name in threads)


class SlowReplays:
    """Stands in for ``render_replay``: counts calls and holds each until released."""

    def __init__(self) -> None:
        self.calls = 0
        self.started = threading.Semaphore(0)
        self.release = threading.Event()

    def __call__(self, *args: object, **kwargs: object) -> bytes:
        self.calls += 1
        self.started.release()
        assert self.release.wait(10)
        return b"GIF89a" + bytes(100)

    async def wait_started(self, n: int) -> None:
        for _ in range(n):
            assert await asyncio.to_thread(self.started.acquire, True, 5)


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> SlowReplays:
    fake = SlowReplays()
    monkeypatch.setattr(exports, "render_replay", fake)
    return fake


async def test_a_repeated_export_is_answered_from_the_cache(h: Harness, slow: SlowReplays) -> None:
    slow.release.set()
    game = await h.start_game()
    first = await h.say(ALICE, "export", "gif", str(game.id))
    again = await h.say(CAROL, "export", "gif", str(game.id))
    assert first.files[0].data == again.files[0].data and slow.calls == 1
    kif = await h.say(ALICE, "export", "kif", str(game.id))
    assert kif.files[0].data == (await h.say(BOB, "export", "kif", str(game.id))).files[0].data
    await h.play(game, "7g7f")  # a new version: a new file
    await h.say(ALICE, "export", "gif", str(game.id))
    assert slow.calls == 2
    await h.say(CAROL, "settings", "language", "ru")  # other words on the image
    await h.say(ALICE, "export", "gif", str(game.id))
    assert slow.calls == 3
    assert len(h.service.exports.cache) == 4  # three GIFs, one KIF


async def test_the_same_export_asked_four_times_at_once_is_made_once(
    h: Harness, slow: SlowReplays
) -> None:
    game = await h.start_game()
    asks = [
        asyncio.create_task(h.say(user, "export", "gif", str(game.id)))
        for user in (ALICE, BOB, CAROL, DAVE)
    ]
    await slow.wait_started(1)
    await asyncio.sleep(0.05)
    slow.release.set()
    replies = await asyncio.wait_for(asyncio.gather(*asks), 5)
    assert slow.calls == 1
    assert all(r.files and r.files[0].filename == f"game-{game.id}.gif" for r in replies)


async def test_animations_past_the_slots_are_refused_not_queued(
    h: Harness, slow: SlowReplays
) -> None:
    games = [
        await h.start_game(chat=ChatKey("console", f"room{i}"))
        for i in range(exports.GIF_SLOTS + 1)
    ]

    def ask(game: GameRow) -> Awaitable[Reply]:
        return h.say(ALICE, "export", "gif", str(game.id), chat=ChatKey("console", "dm"))

    busy = [asyncio.create_task(ask(g)) for g in games[:-1]]
    await slow.wait_started(len(busy))
    refused = await asyncio.wait_for(ask(games[-1]), 2)
    assert "Other animations are being made" in refused.text and not refused.files
    assert f"/export gif {games[-1].id}" in refused.text
    kif = await asyncio.wait_for(ask_kif(h, games[-1]), 5)  # records do not wait for slots
    assert kif.files
    slow.release.set()
    done = await asyncio.wait_for(asyncio.gather(*busy), 5)
    assert all(r.files for r in done)
    assert h.service.exports.making_gifs == 0
    assert (await ask(games[-1])).files  # a slot is free again


async def ask_kif(h: Harness, game: GameRow) -> Reply:
    return await h.say(ALICE, "export", "kif", str(game.id), chat=ChatKey("console", "dm"))


def test_the_cache_keeps_at_most_its_bytes_and_entries() -> None:
    cache = ByteLRU(max_bytes=100, max_entries=3)
    for key in "abc":
        cache.put(key, ExportedFile(bytes(30)))
    assert cache.bytes == 90 and len(cache) == 3
    assert cache.get("a") is not None  # now the most recently used
    cache.put("d", ExportedFile(bytes(30)))  # one entry too many: b goes
    assert cache.get("b") is None and cache.get("a") is not None and len(cache) == 3
    cache.put("e", ExportedFile(bytes(60)))  # too many bytes: the oldest go until it fits
    assert [k for k in "abcd" if cache.get(k)] == ["a"] and cache.bytes == 90
    cache.put("huge", ExportedFile(bytes(101)))  # never kept
    assert cache.get("huge") is None and cache.bytes == 90
    cache.put("e", ExportedFile(bytes(10)))  # replacing an entry counts its new size
    assert cache.bytes == 40 and len(cache) == 2
