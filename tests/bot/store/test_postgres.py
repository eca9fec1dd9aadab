"""PostgreSQL only: what opening a database refuses, read-only servers, connection failures."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.database_url import redacted
from bot.store import ChatKey, ReadOnlyStore, StoreOpenError, UserRow
from bot.store.migrations import LATEST
from bot.store.postgres import PostgresStore, numbered
from tests.postgres_server import BINARIES_VARIABLE, REQUIRE_VARIABLE, PostgresServer

ROOT = Path(__file__).resolve().parents[3]

CHAT = ChatKey("console", "main")


@pytest.fixture
async def url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    yield await postgres_server.new_database()


async def tables(url: str) -> dict[str, int]:
    con = await asyncpg.connect(url)
    try:
        names = [
            r[0]
            for r in await con.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        ]
        return {n: await con.fetchval(f'SELECT count(*) FROM "{n}"') for n in sorted(names)}
    finally:
        await con.close()


async def test_a_new_database_is_marked_and_migrated(url: str) -> None:
    store = await PostgresStore.open(url)
    try:
        assert await store.schema_version() == LATEST
        assert store.read_only is None
    finally:
        await store.close()
    assert {"komabot_schema", "games", "timers", "outbox", "ratings"} <= set(await tables(url))


async def test_another_programs_database_is_refused_untouched(url: str) -> None:
    con = await asyncpg.connect(url)
    await con.execute("CREATE TABLE invoices (id serial PRIMARY KEY, amount real)")
    await con.execute("INSERT INTO invoices (amount) VALUES (12.5)")
    await con.close()
    with pytest.raises(StoreOpenError, match="none is Komabot's"):
        await PostgresStore.open(url)
    assert await tables(url) == {"invoices": 1}


async def test_a_database_from_a_newer_komabot_is_refused_untouched(url: str) -> None:
    await (await PostgresStore.open(url)).close()
    con = await asyncpg.connect(url)
    await con.execute("UPDATE komabot_schema SET version = $1", LATEST + 1)
    await con.close()
    before = await tables(url)
    with pytest.raises(StoreOpenError, match="newer than this Komabot"):
        await PostgresStore.open(url)
    assert await tables(url) == before


@pytest.mark.parametrize(
    "bad",
    [
        "postgresql://komabot:secret@/nowhere?host=/nonexistent-folder&port=5432",
        "postgresql://komabot:secret@localhost:notaport/komabot",
    ],
)
async def test_an_unreachable_server_or_a_bad_url_is_one_line(bad: str) -> None:
    with pytest.raises(StoreOpenError) as refused:
        await PostgresStore.open(bad)
    message = str(refused.value)
    assert message.startswith("cannot connect to PostgreSQL at ") and "\n" not in message
    assert "secret" not in message and "***" in message


async def test_a_read_only_connection_reads_and_refuses_writes(url: str) -> None:
    writer = await PostgresStore.open(url)
    await writer.save_user(UserRow("console:a", "console", "a", "Ann"))
    await writer.close()
    store = await PostgresStore.open(url, read_only=True)
    try:
        assert store.read_only == "opened read-only on request"
        assert await store.get_user("console:a") == UserRow("console:a", "console", "a", "Ann")
        with pytest.raises(ReadOnlyStore):
            await store.save_user(UserRow("console:b", "console", "b", "Bob"))
    finally:
        await store.close()


async def test_a_read_only_connection_will_not_migrate(url: str) -> None:
    await (await PostgresStore.open(url, target_version=5)).close()
    with pytest.raises(StoreOpenError, match="needs upgrading"):
        await PostgresStore.open(url, read_only=True)


def test_placeholders_are_numbered_and_passwords_hidden() -> None:
    assert numbered("SELECT ? + ?, 'x'") == "SELECT $1 + $2, 'x'"
    assert redacted("postgresql://bot:pw@db:5432/k") == "postgresql://bot:***@db:5432/k"
    assert redacted("postgresql:///k?host=/run") == "postgresql:///k?host=/run"


@pytest.mark.parametrize("required", ["", "1"])
def test_without_postgresql_the_tests_skip_in_one_line_or_fail_when_required(
    required: str,
) -> None:
    """What a machine without PostgreSQL sees, and what CI (KOMABOT_REQUIRE_POSTGRES=1) sees."""
    test = "tests/bot/store/test_postgres.py::test_a_new_database_is_marked_and_migrated"
    env = {**os.environ, BINARIES_VARIABLE: "/nonexistent", REQUIRE_VARIABLE: required}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", test],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )  # fmt: skip
    if required:
        assert done.returncode == 1 and "1 error" in done.stdout, done.stdout
        assert f"{REQUIRE_VARIABLE}=1, but PostgreSQL is not installed" in done.stdout
    else:
        assert done.returncode == 0 and "1 skipped" in done.stdout, done.stdout
        assert "SKIPPED [1] " in done.stdout and "PostgreSQL is not installed" in done.stdout


async def test_processes_opening_a_new_database_together_all_start(url: str) -> None:
    """Each sees the database empty or Komabot's, never half made; each migration runs once.
    (The soak test met the race between reading the tables and the schema table that this
    guards against; eight openings in one loop meet it only rarely.)"""
    import asyncio

    stores = await asyncio.gather(*(PostgresStore.open(url, pool_size=1) for _ in range(8)))
    try:
        assert {await s.schema_version() for s in stores} == {LATEST}
    finally:
        await asyncio.gather(*(s.close() for s in stores))
