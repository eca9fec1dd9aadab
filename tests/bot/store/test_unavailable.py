"""A database that cannot be reached (PostgreSQL stopped, an SQLite file locked by another
process past the wait): every backend raises :class:`StoreUnavailable`, never its driver's
errors; the log has one line when the outage begins and one when it ends, not one a request;
and the store serves again by itself once the database is back."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.store import ChatKey, SqliteStore
from bot.store.errors import StoreUnavailable
from bot.store.postgres import PostgresStore
from bot.store.sql import SqlStore
from tests.postgres_server import PostgresServer

CHAT = ChatKey("console", "main")


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("bot.store")]


async def requests_fail_as_unavailable(store: SqlStore, count: int = 5) -> None:
    for n in range(count):
        with pytest.raises(StoreUnavailable):
            await store.get_settings(CHAT)
        with pytest.raises(StoreUnavailable):
            await store.put_state("console", "k", str(n), "v")


async def test_postgresql_stopped_and_started_again(
    own_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    store = await PostgresStore.open(await own_server.new_database(), pool_size=3)
    try:
        await store.put_state("console", "k", "before", "v")
        caplog.set_level(logging.INFO, logger="bot.store")
        for outage in range(2):
            caplog.clear()
            own_server.pause()
            await requests_fail_as_unavailable(store)
            down = outage_lines(caplog)
            assert len(down) == 1 and "cannot reach" in down[0], down
            assert "password" not in down[0] and "Traceback" not in caplog.text
            own_server.resume()
            await store.put_state("console", "k", f"after {outage}", "v")
            assert await store.get_state("console", "k", "before") == "v"
            await store.get_settings(CHAT)
            lines = outage_lines(caplog)
            assert len(lines) == 2 and "reachable again" in lines[1], lines
    finally:
        await store.close()


async def test_sqlite_locked_past_the_wait_is_unavailable_then_serves_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SqliteStore, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        caplog.set_level(logging.INFO, logger="bot.store")
        other.execute("BEGIN EXCLUSIVE")  # another process holds the file
        for n in range(3):
            with pytest.raises(StoreUnavailable):
                await store.put_state("console", "k", str(n), "v")
        other.execute("COMMIT")
        await store.put_state("console", "k", "after", "v")
        lines = outage_lines(caplog)
        assert len(lines) == 2, lines
        assert "cannot reach" in lines[0] and "reachable again" in lines[1], lines
    finally:
        other.close()
        await store.close()
