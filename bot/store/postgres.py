"""The :class:`Store` on a PostgreSQL database through asyncpg (a connection pool, the same
numbered migrations as SQLite's).

Several bot processes may share one database.  Every public method is one transaction at READ
COMMITTED; what SQLite gets from its single writer is held here by row locks and conditions
(a game's version, a challenge's status, a timer row deleted once), ``FOR UPDATE SKIP LOCKED``
where processes claim work, and transaction-scoped advisory locks where a transaction reads
before it writes (starting a game in a chat, rating a finished game, migrating).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from bot.store.database import redacted
from bot.store.errors import ReadOnlyStore, StoreFull, StoreOpenError
from bot.store.migrations import APPLICATION_ID, LATEST, MIGRATIONS, RATINGS_VERSION, postgres_sql
from bot.store.models import ChatKey
from bot.store.sql import SqlStore, Tx

log = logging.getLogger(__name__)

# the first key of each transaction-scoped advisory lock (pg_advisory_xact_lock(key, n))
_LOCK_MIGRATE = 1
_LOCK_CHAT = 2
_LOCK_RATINGS = 3

CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the server when the pool opens."""


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered the PostgreSQL way (``$1``, ``$2``...);
    the shared queries hold no ``?`` in a string."""
    first, *rest = sql.split("?")
    return first + "".join(f"${n}{part}" for n, part in enumerate(rest, 1))


def _changed(status: str) -> int:
    """How many rows a statement changed, from its status (``UPDATE 1``, ``INSERT 0 3``)."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class _PostgresTx:
    """:class:`~bot.store.sql.Tx` on one pooled connection."""

    def __init__(self, con: asyncpg.Connection) -> None:
        self._con = con

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._con.fetch(numbered(sql), *params))

    async def row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._con.fetchrow(numbered(sql), *params)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _changed(await self._con.execute(numbered(sql), *params))

    async def run_many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self._con.executemany(numbered(sql), list(params))

    async def insert(self, sql: str, params: Sequence[Any]) -> int | None:
        new_id = await self._con.fetchval(numbered(sql) + " RETURNING id", *params)
        return None if new_id is None else int(new_id)


class PostgresStore(SqlStore):
    """The store on a PostgreSQL database. Create with :meth:`open`."""

    _NO_LIMIT = None
    _LOCK_DUE = " FOR UPDATE SKIP LOCKED"
    _WITHOUT_PICTURES = (
        "CASE WHEN payload LIKE '{%' "
        """THEN (payload::jsonb || '{"image": null, "files": []}'::jsonb)::text """
        "ELSE payload END"
    )

    def __init__(self, pool: asyncpg.Pool, url: str, read_only: str | None = None) -> None:
        self._pool = pool
        self.url = redacted(url)
        """Where the database is (its password left out)."""
        self.read_only = read_only
        """Why this store takes no writes (None: it takes them)."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        target_version: int = LATEST,
        read_only: bool = False,
        pool_size: int = 10,
    ) -> PostgresStore:
        """Connect to the database at ``url`` (``postgresql://...``), check it is Komabot's
        (or empty) and migrate it.

        Raises StoreOpenError, with nothing written, when the server cannot be reached, the
        database holds another program's tables or is from a newer Komabot.  A server that
        takes no writes (a standby), or ``read_only``, opens read-only: :attr:`read_only`
        says why, and writes raise :class:`~bot.store.errors.ReadOnlyStore`.  Several
        processes may open one database at once.
        """
        settings = {"application_name": "komabot"}
        if read_only:
            settings["default_transaction_read_only"] = "on"
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT,
                server_settings=settings,
            )
        except Exception as exc:  # any failure to connect is one line, never a traceback
            raise StoreOpenError(
                f"cannot connect to PostgreSQL at {redacted(url)}: {_one_line(exc)}"
            ) from None
        try:
            store = await cls._prepare(pool, url, target_version, read_only)
        except BaseException:
            pool.terminate()
            raise
        return store

    @classmethod
    async def _prepare(
        cls, pool: asyncpg.Pool, url: str, target_version: int, read_only: bool
    ) -> PostgresStore:
        where = redacted(url)
        try:
            async with pool.acquire() as con:
                version = await cls._check(con, where)
                standby = await con.fetchval("SHOW transaction_read_only") == "on"
                problem = (
                    "opened read-only on request"
                    if read_only
                    else "the server takes no writes (a standby, or read-only by default)"
                    if standby
                    else None
                )
                if problem is None:
                    await cls._migrate(con, target_version)
                elif version < target_version:
                    raise StoreOpenError(
                        f"{where} has schema version {version} and needs upgrading to "
                        f"{target_version}, but {problem}; start once on a writable server"
                    )
            store = cls(pool, url, problem)
            if problem is None and target_version >= RATINGS_VERSION:
                await store._rate_history_once()
        except asyncpg.PostgresError as exc:
            raise StoreOpenError(f"cannot prepare {where}: {_one_line(exc)}") from None
        return store

    @staticmethod
    async def _check(con: asyncpg.Connection, where: str) -> int:
        """Refuse a foreign or newer database; return its schema version (0: empty)."""
        # one statement, one snapshot: another process may be creating the schema meanwhile
        ours, tables = await con.fetchrow(
            "SELECT to_regclass('komabot_schema') IS NOT NULL, "
            "(SELECT count(*) FROM pg_tables WHERE schemaname = current_schema())"
        )
        if not ours:
            if tables:
                raise StoreOpenError(
                    f"{where} holds {tables} tables but none is Komabot's; Komabot left it "
                    "untouched. Give KOMABOT_DATABASE_URL an empty database."
                )
            return 0
        row = await con.fetchrow("SELECT application_id, version FROM komabot_schema")
        if row is None or row[0] != APPLICATION_ID:
            raise StoreOpenError(
                f"{where} has a komabot_schema table that is not Komabot's; Komabot left it "
                "untouched."
            )
        if row[1] > LATEST:
            raise StoreOpenError(
                f"{where} has schema version {row[1]}, newer than this Komabot knows "
                f"({LATEST}); upgrade Komabot. The database was left untouched."
            )
        return int(row[1])

    @staticmethod
    async def _migrate(con: asyncpg.Connection, target: int) -> None:
        """Apply the migrations up to ``target``, each with its version bump in one
        transaction under an advisory lock taken before it reads the version, so processes
        starting together apply each migration once."""
        for migration in MIGRATIONS:
            if migration.version > target:
                break
            async with con.transaction():
                await con.execute("SELECT pg_advisory_xact_lock($1, 0)", _LOCK_MIGRATE)
                await con.execute(
                    "CREATE TABLE IF NOT EXISTS komabot_schema "
                    "(application_id BIGINT NOT NULL, version INTEGER NOT NULL)"
                )
                version = await con.fetchval("SELECT version FROM komabot_schema") or 0
                if version >= migration.version:
                    continue
                await con.execute(postgres_sql(migration))
                await con.execute("DELETE FROM komabot_schema")
                await con.execute(
                    "INSERT INTO komabot_schema (application_id, version) VALUES ($1, $2)",
                    APPLICATION_ID,
                    migration.version,
                )

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT version FROM komabot_schema"))

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), 10.0)
        except TimeoutError:
            log.warning("PostgreSQL connections still busy after 10 s: closing them")
            self._pool.terminate()

    # --- transactions -------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """One write transaction; a database that takes no writes or a full disk raises
        ReadOnlyStore or StoreFull (nothing of the transaction kept)."""
        try:
            async with self._pool.acquire() as con, con.transaction():
                yield _PostgresTx(con)
        except (
            asyncpg.ReadOnlySQLTransactionError,
            asyncpg.InsufficientPrivilegeError,
        ) as exc:
            raise ReadOnlyStore(f"the database takes no writes: {_one_line(exc)}") from exc
        except asyncpg.DiskFullError as exc:
            raise StoreFull(f"the database's disk is full: {_one_line(exc)}") from exc

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as con:
            yield _PostgresTx(con)

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._pool.fetch(numbered(sql), *params))

    async def _columns(self, table: str) -> list[str]:
        rows = await self._all(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "AND table_schema = current_schema() ORDER BY ordinal_position",
            (table,),
        )
        return [str(row[0]) for row in rows]

    async def _ids_follow(self, tx: Tx, table: str) -> None:
        await tx.run(
            f"SELECT setval(pg_get_serial_sequence(?, 'id'), coalesce(max(id), 0) + 1, false) "
            f"FROM {table}",
            (table,),
        )

    async def _lock_chat(self, tx: Tx, chat: ChatKey) -> None:
        key = f"{chat.platform}:{chat.chat_id}"
        await tx.run("SELECT pg_advisory_xact_lock(?, hashtext(?))", (_LOCK_CHAT, key))

    async def _lock_ratings(self, tx: Tx) -> None:
        await tx.run("SELECT pg_advisory_xact_lock(?, 0)", (_LOCK_RATINGS,))
