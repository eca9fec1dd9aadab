"""Copying a whole database to another (``komabot db copy``): SQLite to PostgreSQL, or back.

Both are opened (and so brought to this Komabot's schema) first; the target must be empty.
Every table is copied with its ids in one transaction of the target, read from one snapshot of
the source where the backend has them (PostgreSQL), then counted on both sides.  The target's
id counters are moved past the copied ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.errors import StoreError
from bot.store.sql import SqlStore

TABLES = (
    "users",
    "chat_settings",
    "frontend_state",
    "challenges",
    "games",
    "engine_turns",
    "timers",
    "outbox",
    "ratings",
    "rating_changes",
    "ratings_state",
    "analyses",
    "analysis_requests",
    "puzzle_sessions",
    "puzzle_results",
    "puzzle_ratings",
    "puzzle_difficulty",
    "daily_puzzles",
    "daily_posts",
    "daily_solves",
    "daily_streaks",
)
"""Every table of the schema, each after the ones it refers to."""

WRITTEN_AT_OPEN = frozenset({"ratings_state"})
"""Tables an opened database has rows in before anything happened (replaced by the copy)."""

ID_TABLES = frozenset({"challenges", "games", "timers", "outbox"})
"""Tables whose ids the database assigns."""


class CopyError(StoreError):
    """The copy was refused (a target that is not empty) or did not check out."""


@dataclass(frozen=True)
class Copied:
    table: str
    rows: int


async def copy_database(source: SqlStore, target: SqlStore) -> list[Copied]:
    """Copy every table of ``source`` into the empty ``target``; what each table held."""
    filled = {t: n for t in TABLES if t not in WRITTEN_AT_OPEN and (n := await count(target, t))}
    if filled:
        listed = ", ".join(f"{n} in {t}" for t, n in filled.items())
        raise CopyError(f"the target database is not empty ({listed} rows); nothing was copied")
    copied = []
    columns_of = {table: await source._columns(table) for table in TABLES}
    async with source._snapshot() as snapshot, target._write() as tx:
        for table in TABLES:
            columns = columns_of[table]
            rows = await snapshot.rows(f"SELECT {', '.join(columns)} FROM {table}")
            if table in WRITTEN_AT_OPEN:
                await tx.run(f"DELETE FROM {table}")
            marks = ", ".join("?" for _ in columns)
            await tx.run_many(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                [tuple(row) for row in rows],
            )
            if table in ID_TABLES:
                await target._ids_follow(tx, table)
            copied.append(Copied(table, len(rows)))
    for done in copied:
        there = await count(target, done.table)
        if there != done.rows:
            raise CopyError(f"{done.table}: {done.rows} rows read but {there} in the target")
    return copied


async def count(store: SqlStore, table: str) -> int:
    row = await store._one(f"SELECT count(*) FROM {table}")
    return int(row[0])
