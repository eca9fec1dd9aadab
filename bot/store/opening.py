"""Opening the store a configuration names: SQLite or PostgreSQL.

Apart from :mod:`bot.store.database` (which reads the setting) so that the backends, which
use that module, are not imported by it in a circle.  The configuration is read through
:class:`StoreSettings` (``bot.config.Config`` is one): the store does not import the
configuration, which imports the store.
"""

from __future__ import annotations

from typing import Protocol

from bot.store.database import Database
from bot.store.postgres import PostgresStore
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore


class StoreSettings(Protocol):
    """What opening a store reads of the configuration."""

    @property
    def database(self) -> Database: ...

    @property
    def db_pool(self) -> int: ...  # PostgreSQL connections at most

    @property
    def db_sync(self) -> str: ...  # SQLite's synchronous setting


async def open_store(config: StoreSettings, *, read_only: bool = False) -> SqlStore:
    """Open (create, migrate) the store on ``config.database``; StoreOpenError when it
    cannot be used (nothing written then)."""
    database = config.database
    if database.url is not None:
        return await PostgresStore.open(database.url, pool_size=config.db_pool, read_only=read_only)
    assert database.path is not None
    return await SqliteStore.open(database.path, sync=config.db_sync, read_only=read_only)
