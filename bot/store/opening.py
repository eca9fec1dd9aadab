"""Opening the store the configuration names: SQLite or PostgreSQL.

Apart from :mod:`bot.store.database` (which reads the setting) so that the configuration and
the store's backends import it without importing each other in a circle.
"""

from __future__ import annotations

from bot.config import Config
from bot.store.postgres import PostgresStore
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore


async def open_store(config: Config, *, read_only: bool = False) -> SqlStore:
    """Open (create, migrate) the store on ``config.database``; StoreOpenError when it
    cannot be used (nothing written then)."""
    database = config.database
    if database.url is not None:
        return await PostgresStore.open(database.url, pool_size=config.db_pool, read_only=read_only)
    assert database.path is not None
    return await SqliteStore.open(database.path, sync=config.db_sync, read_only=read_only)
