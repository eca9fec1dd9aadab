"""SQLite's write-ahead log is copied into the database by the store's background thread, not
by the commits of moves, and stays small (see bot/store/checkpoint.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.store import SqliteStore
from bot.store.checkpoint import Checkpointer
from bot.store.models import GameRow
from bot.store.sqlite import _uri
from tests.bot.store.test_group_commit import moved
from tests.bot.store.test_sqlite import add_game

NEVER = 3600.0
"""A background interval that does not come round within a test."""
SQLITE_OWN_BOUND = 1000
"""The pages in the log past which SQLite's commits would checkpoint by themselves."""


def moves_in_file(path: Path, game: GameRow) -> int:
    """How many moves of ``game`` the database file itself holds (the log not read: an
    immutable connection ignores it)."""
    con = sqlite3.connect(_uri(path, immutable="1"), uri=True)
    try:
        row = con.execute("SELECT moves FROM games WHERE id = ?", (game.id,)).fetchone()
    finally:
        con.close()
    return len(row[0].split())


def log_pages(path: Path) -> int:
    page = sqlite3.connect(path).execute("PRAGMA page_size").fetchone()[0]
    return path.with_name(path.name + "-wal").stat().st_size // page


def checkpointer_of(store: SqliteStore) -> Checkpointer:
    assert store.checkpointer is not None
    return store.checkpointer


async def play(store: SqliteStore, game: GameRow, n: int) -> GameRow:
    for k in range(n):
        game = await store.update_game(moved(game, "7g7f" if k % 2 == 0 else "3c3d"))
    return game


async def test_commits_leave_the_log_to_the_background_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path, checkpoint_every=NEVER)
    try:
        game = await add_game(store)
        checkpointer_of(store).checkpoint()
        played = 0
        while log_pages(path) <= SQLITE_OWN_BOUND + 100 and played < 1000:
            game = await play(store, game, 50)
            played += 50
        # past SQLite's own bound, and no commit copied the log into the file
        assert log_pages(path) > SQLITE_OWN_BOUND
        assert moves_in_file(path, game) == 0
        busy, frames, done = checkpointer_of(store).checkpoint()
        assert (busy, done) == (0, frames) and frames > SQLITE_OWN_BOUND
        assert moves_in_file(path, game) == played
        size = log_pages(path)
        game = await play(store, game, 50)  # the log starts over: the file does not grow
        assert log_pages(path) == size
        assert moves_in_file(path, game) == played
    finally:
        await store.close()


async def test_the_background_thread_keeps_the_log_small(tmp_path: Path) -> None:
    async def log_after_moves(every: float) -> tuple[int, int]:
        """The log's pages after 300 moves, and the moves then in the database file."""
        path = tmp_path / f"every-{every}.sqlite3"
        store = await SqliteStore.open(path, checkpoint_every=every)
        try:
            game = await add_game(store)
            checkpointer_of(store).checkpoint()  # the tables in the file, the log started over
            for _ in range(6):
                game = await play(store, game, 50)
                if every != NEVER:  # the background's turn, between two groups of moves
                    runs = checkpointer_of(store).runs
                    for _ in range(500):
                        if checkpointer_of(store).runs > runs + 1:
                            break
                        await asyncio.sleep(0.01)
            return log_pages(path), moves_in_file(path, game)
        finally:
            await store.close()

    left_alone, in_file = await log_after_moves(NEVER)
    assert in_file == 0
    checkpointed, in_file = await log_after_moves(0.01)
    assert in_file >= 250  # the file caught up with the log, by the background alone
    assert checkpointed < left_alone / 3


async def test_the_checkpoint_thread_ends_with_the_store(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path, checkpoint_every=0.01)
    thread = checkpointer_of(store)._thread
    assert thread is not None and thread.is_alive()
    await store.close()
    assert not thread.is_alive()
    assert not path.with_name(path.name + "-wal").exists()  # the last close took the log in
    reader = await SqliteStore.open(path, read_only=True)
    try:
        assert reader.checkpointer is None  # a read-only store writes nothing, not even this
    finally:
        await reader.close()
