"""Opening the store on the database the configuration names (``bot.database_url``): the
SQLite file or the PostgreSQL database, created or migrated as needed."""

from __future__ import annotations

from typing import Protocol

from bot.database_url import Database
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore


class StoreSettings(Protocol):
    """What opening the store reads of the configuration (``bot.config.Config`` has it)."""

    @property
    def database(self) -> Database: ...
    @property
    def db_pool(self) -> int: ...
    @property
    def db_sync(self) -> str: ...


async def open_store(config: StoreSettings, *, read_only: bool = False) -> SqlStore:
    """Open (create, migrate) the store on ``config.database``; StoreOpenError when it
    cannot be used (nothing written then)."""
    database = config.database
    if database.url is not None:
        # imported here: a bot on SQLite never loads asyncpg
        from bot.store.postgres import PostgresStore

        return await PostgresStore.open(database.url, pool_size=config.db_pool, read_only=read_only)
    assert database.path is not None
    return await SqliteStore.open(database.path, sync=config.db_sync, read_only=read_only)
