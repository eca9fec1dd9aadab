"""A SQLite database file deleted or replaced while Komabot runs: SQLite would go on writing into
the deleted file (gone at the next start), so every write checks the file's identity before it
commits and refuses with a clear error; nothing is acknowledged that is not on disk."""

from __future__ import annotations

import logging
import os
import queue
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from bot.store import ReadOnlyStore, SqliteStore
from bot.store.errors import DatabaseFileGone
from tests.bot.store.test_sqlite import add_game

ROOT = Path(__file__).resolve().parents[3]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script


def delete_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


async def test_a_deleted_database_refuses_writes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    try:
        game = await add_game(store)
        delete_database(path)
        moved = replace(game, moves=("7g7f",))
        with caplog.at_level(logging.ERROR), pytest.raises(DatabaseFileGone, match="deleted"):
            await store.update_game(moved)
        assert isinstance(DatabaseFileGone("x"), ReadOnlyStore)  # players hear "read-only"
        with pytest.raises(DatabaseFileGone):  # and every write after it, at once
            await store.put_state("console", "k", "k", "v")
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and str(path) in errors[0].getMessage()
        assert not path.exists()  # nothing made a new empty file meanwhile
    finally:
        await store.close()


async def test_a_database_replaced_by_another_file_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    try:
        game = await add_game(store)
        other = await SqliteStore.open(tmp_path / "other.db")
        await other.close()
        os.replace(tmp_path / "other.db", path)  # say, a backup restored under the bot
        with pytest.raises(DatabaseFileGone, match="replaced"):
            await store.update_game(replace(game, moves=("7g7f",)))
    finally:
        await store.close()


async def test_a_deleted_wal_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    try:
        game = await add_game(store)
        path.with_name("g.db-wal").unlink()
        with pytest.raises(DatabaseFileGone):
            await store.update_game(replace(game, moves=("7g7f",)))
    finally:
        await store.close()


async def test_writes_go_on_while_the_file_stays(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    try:
        game = await add_game(store)
        for ply in range(1, 30):
            game = await store.update_game(replace(game, moves=("7g7f",) * ply))
    finally:
        await store.close()
    again = await SqliteStore.open(path)
    try:
        stored = await again.get_game(game.id)
        assert stored is not None and stored.version == game.version
    finally:
        await again.close()


def test_the_console_never_acknowledges_a_move_after_the_file_is_deleted(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", ENTRY, "console", "--quiet"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={
            **os.environ,
            "DISCORD_TOKEN": "",
            "TELEGRAM_TOKEN": "",
            "KOMABOT_DB": str(db),
            "KOMABOT_CONSOLE_OUT": str(tmp_path / "out"),
        },
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()  # type: ignore[union-attr]

    def until(text: str) -> list[str]:
        seen = []
        while True:
            line = lines.get(timeout=60)
            seen.append(line)
            if text in line:
                return seen

    try:
        for line in ("@alice /challenge @bob shogi sente", "@bob /accept", "@alice /move 7g7f"):
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        until("alice played P-7f")
        delete_database(db)
        proc.stdin.write("@bob /move 3c3d\n")
        proc.stdin.close()
        out, err = "".join(until("> @bob /move 3c3d")), ""
        proc.wait(60)
        out += "".join(iter_rest(lines))
        err = proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
    assert "bob played" not in out, out
    assert "can't save" in out, out
    assert "deleted" in err and str(db) in err, err
    assert not db.exists()


def iter_rest(lines: queue.Queue[str]) -> list[str]:
    rest = []
    while True:
        try:
            rest.append(lines.get(timeout=5))
        except queue.Empty:
            return rest
