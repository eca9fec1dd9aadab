"""SQLite's group commit: moves that wait while the database thread is busy are written in one
commit, a move that fails there (a stale version) fails alone, and nobody hears of a move
before the commit that holds it (see bot/store/group_commit.py)."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from bot.store import SqliteStore
from bot.store.errors import DatabaseFileGone, VersionConflict
from bot.store.group_commit import GroupCommit, SuspendedBody
from bot.store.models import GameRow
from bot.store.sql import Tx
from tests.bot.store.test_file_gone import delete_database
from tests.bot.store.test_sqlite import add_game


async def games(store: SqliteStore, n: int) -> list[GameRow]:
    return [await add_game(store, f"console:a{k}", f"console:b{k}") for k in range(n)]


def moved(game: GameRow, usi: str = "7g7f") -> GameRow:
    return replace(game, moves=(*game.moves, usi), updated_at=game.updated_at + 1)


class Held:
    """A body that keeps the database thread busy until released: what arrives meanwhile
    waits for the next transaction."""

    def __init__(self) -> None:
        self.running = threading.Event()
        self.release = threading.Event()

    async def __call__(self, tx: Tx) -> None:
        self.running.set()
        self.release.wait(10)  # blocks the thread, as a commit waiting for the disk

    async def hold(self, store: SqliteStore) -> asyncio.Future[None]:
        held = asyncio.ensure_future(store._transact(self))
        await asyncio.to_thread(self.running.wait, 10)
        return held


def writer_of(store: SqliteStore) -> GroupCommit:
    assert store.writer is not None
    return store.writer


async def test_moves_waiting_together_are_written_in_one_commit(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    try:
        played = await games(store, 5)
        writer = writer_of(store)
        held = Held()
        first = await held.hold(store)
        before = writer.transactions
        moves = [asyncio.ensure_future(store.update_game(moved(g))) for g in played]
        await asyncio.sleep(0.05)
        assert not any(m.done() for m in moves)  # none told before its commit
        held.release.set()
        await first
        saved = await asyncio.gather(*moves)
        assert writer.transactions == before + 1  # the five in one transaction
        assert [s.version for s in saved] == [g.version + 1 for g in played]
    finally:
        await store.close()
    store = await SqliteStore.open(path)  # on disk, as acknowledged
    try:
        for game in played:
            again = await store.get_game(game.id)
            assert again is not None and again.moves == ("7g7f",)
            assert again.version == game.version + 1
    finally:
        await store.close()


async def test_a_stale_move_fails_alone_in_its_commit(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    try:
        one, two, three = await games(store, 3)
        held = Held()
        first = await held.hold(store)
        before = writer_of(store).transactions
        writes = [
            asyncio.ensure_future(store.update_game(moved(one))),
            asyncio.ensure_future(store.update_game(moved(two, "2g2f"))),
            asyncio.ensure_future(store.update_game(moved(two, "7g7f"))),  # stale after the 2nd
            asyncio.ensure_future(store.update_game(moved(three))),
        ]
        await asyncio.sleep(0.05)
        held.release.set()
        await first
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
        assert writer_of(store).transactions == before + 1
        assert isinstance(outcomes[2], VersionConflict)
        assert [type(o) for o in outcomes[:2] + outcomes[3:]] == [GameRow] * 3
        for game, moves in ((one, ("7g7f",)), (two, ("2g2f",)), (three, ("7g7f",))):
            again = await store.get_game(game.id)
            assert again is not None and again.moves == moves
            assert again.version == game.version + 1
    finally:
        await store.close()


async def test_a_failed_commit_fails_every_move_in_it_and_writes_none(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    try:
        played = await games(store, 3)
        held = Held()
        first = await held.hold(store)
        moves = [asyncio.ensure_future(store.update_game(moved(g))) for g in played]
        await asyncio.sleep(0.05)
        delete_database(path)
        held.release.set()
        with pytest.raises(DatabaseFileGone):
            await first
        outcomes = await asyncio.gather(*moves, return_exceptions=True)
        assert all(isinstance(o, DatabaseFileGone) for o in outcomes)
    finally:
        await store.close()


async def test_a_body_that_waits_for_something_else_is_refused(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    try:
        (game,) = await games(store, 1)

        async def waits(tx: Tx) -> None:
            await tx.run("UPDATE games SET moves = '7g7f' WHERE id = ?", (game.id,))
            await asyncio.sleep(0)

        with pytest.raises(SuspendedBody):
            await store._transact(waits)
        again = await store.get_game(game.id)
        assert again is not None and again.moves == ()  # rolled back
        assert (await store.update_game(moved(game))).version == game.version + 1
    finally:
        await store.close()


async def test_a_move_cancelled_while_it_waits_is_not_written(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    try:
        one, two = await games(store, 2)
        held = Held()
        first = await held.hold(store)
        waiting = asyncio.ensure_future(store.update_game(moved(one)))
        kept = asyncio.ensure_future(store.update_game(moved(two)))
        await asyncio.sleep(0.05)
        waiting.cancel()
        held.release.set()
        await first
        await asyncio.gather(waiting, return_exceptions=True)
        assert waiting.cancelled()
        assert (await kept).version == two.version + 1
        again = await store.get_game(one.id)
        assert again is not None and again.moves == () and again.version == one.version
        assert (await store.update_game(moved(one))).version == one.version + 1
    finally:
        await store.close()
