"""Two stores on one database (two processes, each with its own connections), on both
backends: racing moves, racing game starts and racing timer claims each have one winner;
databases at every older version upgrade with their data."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.store import ChatKey, GameStatus, UserRow, VersionConflict
from bot.store.migrations import LATEST
from bot.store.models import NewTimer, TimerKind
from tests.bot.store.conftest import OpenStore
from tests.bot.store.test_sqlite import CHAT, add_game, new_game


async def test_of_racing_moves_from_two_stores_exactly_one_wins(open_store: OpenStore) -> None:
    one, two = await open_store(), await open_store()
    try:
        game = await add_game(one)
        tries = [
            (one if i % 2 else two).update_game(replace(game, moves=(f"move{i}",)))
            for i in range(20)
        ]
        results = await asyncio.gather(*tries, return_exceptions=True)
        won = [r for r in results if not isinstance(r, BaseException)]
        assert len(won) == 1
        assert all(isinstance(r, VersionConflict) for r in results if r not in won)
        assert await two.get_game(game.id) == won[0]
    finally:
        await one.close()
        await two.close()


async def test_racing_game_starts_leave_a_player_one_game_per_chat(
    open_store: OpenStore,
) -> None:
    one, two = await open_store(), await open_store()
    try:
        starts = [
            (one if i % 2 else two).create_game(
                new_game("console:a", f"console:o{i}"), [], free=["console:a"]
            )
            for i in range(10)
        ]
        results = await asyncio.gather(*starts, return_exceptions=True)
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert all(isinstance(r, VersionConflict) for r in results if isinstance(r, Exception))
        assert await one.count_active_games_of("console:a") == 1
    finally:
        await one.close()
        await two.close()


async def test_racing_timer_claims_give_each_timer_to_one_store(open_store: OpenStore) -> None:
    one, two = await open_store(), await open_store()
    try:
        game = await add_game(one)
        timers = [NewTimer(TimerKind.REMINDER, 100.0 + i, game.id, None, 1) for i in range(30)]
        await one.update_game(game, timers)
        ids = [t.id for t in await one.due_timers(10**9)]
        assert len(ids) == 30
        claims = [(one if i % 2 else two).mark_fired([tid], 5.0) for i in range(4) for tid in ids]
        claimed = [tid for got in await asyncio.gather(*claims) for tid in got]
        assert sorted(claimed) == sorted(ids)  # every timer once, none twice
        assert await two.due_timers(10**9) == []
    finally:
        await one.close()
        await two.close()


async def test_rated_games_finishing_together_are_each_rated_once(open_store: OpenStore) -> None:
    one, two = await open_store(), await open_store()
    try:
        games = []
        for i in range(6):
            chat = ChatKey("console", f"room{i}")
            game = replace(new_game("console:a", f"console:o{i}"), chat=chat, rated=True)
            games.append(await one.create_game(game, [], free=[]))
        ends = [
            (one if i % 2 else two).update_game(
                replace(g, moves=("a", "b", "c", "d"), status=GameStatus.FINISHED, winner=0,
                        termination="resignation", finished_at=2000.0 + i)
            )
            for i, g in enumerate(games)
        ]  # fmt: skip
        await asyncio.gather(*ends)
        for g in games:
            assert len(await one.rating_changes(await one.get_game(g.id))) == 2  # type: ignore[arg-type]
        board = await one.ratings_of("console", "", "console:a")
        assert [(r.variant, r.games, r.wins) for r in board] == [("shogi", 6, 6)]
    finally:
        await one.close()
        await two.close()


@pytest.mark.parametrize("old", range(2, LATEST))
async def test_a_database_at_every_older_version_upgrades_with_its_data(
    open_store: OpenStore, old: int
) -> None:
    store = await open_store(target_version=old)
    await store.save_user(UserRow("console:a", "console", "a", "Ann"))
    made = await store.create_challenge(CHAT, "console:a", None, "wa", "random", None, 1.0, 2.0)
    await store.close()
    store = await open_store()
    try:
        assert await store.get_user("console:a") == UserRow("console:a", "console", "a", "Ann")
        again = await store.get_challenge(made.id)
        assert again is not None and again.variant == "wa" and again.rated
        assert len(await store.due_timers(10.0)) == 1  # its expiry
    finally:
        await store.close()
