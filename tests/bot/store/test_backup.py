"""``komabot db backup FILE``: a live database (SQLite, PostgreSQL) into a new, checked SQLite
file that holds every row; a file already there, a missing database or a folder that does not
exist are refused with nothing written."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.cli import main
from bot.store.backup import BackupError, backup_sqlite
from bot.store.copy import TABLES
from bot.store.sqlite import SqliteStore
from tests.bot.store.test_copy import contents, sqlite_with_everything
from tests.postgres_server import PostgresServer


async def rows_of(path: Path) -> dict[str, list[tuple[object, ...]]]:
    store = await SqliteStore.open(path, read_only=True)
    try:
        return await contents(store)
    finally:
        await store.close()


def test_sqlite_backup_holds_every_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, copy = tmp_path / "k.sqlite3", tmp_path / "backup.sqlite3"
    asyncio.run(sqlite_with_everything(source))
    assert main(["db", "backup", str(copy), "--db", str(source)]) == 0
    out = capsys.readouterr().out
    assert f"to {copy}" in out and "checked" in out and "\ngames " in out
    assert asyncio.run(rows_of(copy)) == asyncio.run(rows_of(source))
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".backup")]


def test_sqlite_backup_while_another_connection_writes(tmp_path: Path) -> None:
    """A writer commits all the time the backup runs: the copy is one consistent state (every
    row it holds complete, its count one the writer committed) and passes the integrity check."""
    source = tmp_path / "k.sqlite3"
    asyncio.run(sqlite_with_everything(source))
    stop = threading.Event()
    committed = []

    def write() -> None:
        with sqlite3.connect(source) as db:
            n = 0
            while not stop.is_set():
                db.execute(
                    "INSERT INTO frontend_state (platform, kind, key, value, updated_at) "
                    "VALUES ('test', 'load', ?, ?, 0)",
                    (f"key{n}", "x" * 1000),
                )
                db.commit()
                n += 1
                committed.append(n)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while len(committed) < 50 and writer.is_alive():
            threading.Event().wait(0.01)
        done = backup_sqlite(source, tmp_path / "copy.sqlite3")
    finally:
        stop.set()
        writer.join()
    assert committed, "the writer never committed"
    written = dict(done.rows)["frontend_state"]
    with sqlite3.connect(tmp_path / "copy.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        keys = [r[0] for r in db.execute("SELECT key FROM frontend_state WHERE platform='test'")]
    assert sorted(keys, key=lambda k: int(k[3:])) == [f"key{n}" for n in range(len(keys))]
    assert written >= 50


def test_refusals_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "k.sqlite3"
    asyncio.run(sqlite_with_everything(source))
    there = tmp_path / "there.sqlite3"
    there.write_bytes(b"precious")
    assert main(["db", "backup", str(there), "--db", str(source)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert there.read_bytes() == b"precious"
    with pytest.raises(BackupError, match="no database to back up"):
        backup_sqlite(tmp_path / "missing.sqlite3", tmp_path / "b.sqlite3")
    assert not (tmp_path / "missing.sqlite3").exists()
    with pytest.raises(BackupError, match="does not exist"):
        backup_sqlite(source, tmp_path / "nowhere" / "b.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.sqlite3", "there.sqlite3"]


def test_postgresql_backup_restores_every_row(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PostgreSQL into a SQLite backup, and the backup back into an empty PostgreSQL database:
    every row of every table survives both ways."""
    source = tmp_path / "k.sqlite3"
    asyncio.run(sqlite_with_everything(source))
    live = asyncio.run(postgres_server.new_database())
    assert main(["db", "copy", "--from", str(source), "--to", live]) == 0
    copy = tmp_path / "backup.sqlite3"
    assert main(["db", "backup", str(copy), "--db", live]) == 0
    assert "password" not in capsys.readouterr().out
    assert asyncio.run(rows_of(copy)) == asyncio.run(rows_of(source))
    restored = asyncio.run(postgres_server.new_database())
    assert main(["db", "copy", "--from", str(copy), "--to", restored]) == 0
    assert set(TABLES) <= {line.split()[0] for line in capsys.readouterr().out.splitlines()}
