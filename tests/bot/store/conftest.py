"""The store tests run on both backends: ``store`` and ``open_store`` are parametrized over
SQLite (a file in the test's folder) and PostgreSQL (a fresh database on the session's
throw-away server).  Tests of what only SQLite has (its file, its query plans) open
:class:`SqliteStore` themselves and say so."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store.postgres import PostgresStore
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore

OpenStore = Callable[..., Awaitable[SqlStore]]
"""Opens (another connection to) the test's database; keywords go to the backend's ``open``."""


@pytest.fixture(params=["sqlite", "postgres"])
async def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> OpenStore:
    if request.param == "sqlite":
        path = tmp_path / "k.sqlite3"

        async def on_sqlite(**options: Any) -> SqlStore:
            return await SqliteStore.open(path, **options)

        return on_sqlite
    url = await request.getfixturevalue("postgres_server").new_database()

    async def on_postgres(**options: Any) -> SqlStore:
        return await PostgresStore.open(url, **options)

    return on_postgres


@pytest.fixture
async def store(open_store: OpenStore) -> AsyncIterator[SqlStore]:
    opened = await open_store()
    try:
        yield opened
    finally:
        await opened.close()
