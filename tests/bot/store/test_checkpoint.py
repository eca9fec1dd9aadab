"""SQLite's write-ahead log is copied into the database by the store's background thread, not
by the commits of moves, and stays small (see bot/store/checkpoint.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.store import SqliteStore
from bot.store.checkpoint import WRITER_CHECKPOINT_PAGES, Checkpointer
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


async def most_log_pages(path: Path, every: float, moves: int) -> tuple[int, int]:
    """The most pages the log held over ``moves`` moves made without a pause (the background
    thread checkpointing meanwhile), and the moves then in the file once it had two more
    turns."""
    store = await SqliteStore.open(path, checkpoint_every=every)
    try:
        checkpointer = checkpointer_of(store)
        game = await add_game(store)
        checkpointer.checkpoint()  # the tables in the file, the log started over
        most = 0
        for _ in range(moves // 50):
            game = await play(store, game, 50)
            most = max(most, log_pages(path))
        runs = checkpointer.runs
        for _ in range(500):
            if every == NEVER or checkpointer.runs > runs + 2:
                break
            await asyncio.sleep(0.01)
        return most, moves_in_file(path, game)
    finally:
        await store.close()


async def test_the_background_thread_copies_the_log(tmp_path: Path) -> None:
    # 1,000 moves: a move without timers writes one page to the log, until its moves overflow it
    most, in_file = await most_log_pages(tmp_path / "alone.sqlite3", NEVER, 1000)
    assert (in_file, most > SQLITE_OWN_BOUND) == (0, True)  # no commit copied anything
    most, in_file = await most_log_pages(tmp_path / "background.sqlite3", 0.005, 1000)
    assert in_file == 1000  # the file caught up with the log, by the background alone


async def test_the_log_stays_bounded_under_a_steady_stream(tmp_path: Path) -> None:
    most, in_file = await most_log_pages(tmp_path / "k.sqlite3", 0.005, 1500)
    # a few commits past the bound at most (the commit's own checkpoint gives way while the
    # background one runs, and the next commit tries again)
    assert most <= WRITER_CHECKPOINT_PAGES + 300
    assert in_file == 1500


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
