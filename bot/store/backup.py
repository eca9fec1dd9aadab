"""Backing up a live database into one SQLite file (``komabot db backup FILE``).

The bot may go on playing meanwhile.  A SQLite database is copied page by page with SQLite's
own online backup (one consistent state, taken under a read lock); a PostgreSQL database is
copied table by table from one repeatable-read snapshot into a fresh SQLite file of this
Komabot's schema (so ``komabot db copy --from FILE --to postgresql://...`` restores it).  The
copy is written beside ``FILE`` under a temporary name, checked (``PRAGMA integrity_check`` and
the schema's application id), flushed to disk and only then renamed to ``FILE``: an
interrupted backup never leaves a half-written file under the name asked for.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.store.copy import TABLES, copy_database
from bot.store.errors import StoreError
from bot.store.migrations import APPLICATION_ID
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore, check_file


class BackupError(StoreError):
    """The backup was refused (a file already there, no database to back up) or failed its
    check; nothing was left under the name asked for."""


@dataclass(frozen=True)
class Backup:
    """What a finished backup holds."""

    file: Path
    bytes: int
    schema_version: int
    rows: tuple[tuple[str, int], ...]
    """Rows per table, in :data:`bot.store.copy.TABLES` order."""


def backup_sqlite(source: Path, target: Path) -> Backup:
    """Copy the SQLite database ``source`` (in use or not) into the new file ``target``."""
    if not source.is_file():
        raise BackupError(f"{source} does not exist: there is no database to back up")
    check_file(source)
    partial = _partial_name(target)
    with _cleaned_up(partial):
        # read-only: a backup never changes the database it copies, nor creates one
        reading = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        with (
            contextlib.closing(reading) as src,
            contextlib.closing(sqlite3.connect(partial)) as dst,
        ):
            try:
                src.backup(dst)
            except sqlite3.Error as exc:
                raise BackupError(f"reading {source} failed: {exc}") from None
        return _finish(partial, target)


async def backup_store(source: SqlStore, target: Path) -> Backup:
    """Copy any open store (PostgreSQL above all) into the new SQLite file ``target``."""
    partial = _partial_name(target)
    with _cleaned_up(partial):
        copy = await SqliteStore.open(partial)
        try:
            await copy_database(source, copy)
        finally:
            await copy.close()
        return _finish(partial, target)


def _partial_name(target: Path) -> Path:
    if target.exists():
        raise BackupError(f"{target} already exists; name a new file (nothing was written)")
    if not target.parent.is_dir():
        raise BackupError(f"folder {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)  # left by a backup that was killed
    return partial


@contextlib.contextmanager
def _cleaned_up(partial: Path) -> Iterator[None]:
    """Remove ``partial`` (and SQLite's side files) unless the block renamed it."""
    try:
        yield
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)


def _finish(partial: Path, target: Path) -> Backup:
    """Check the copy, make it durable, move it under its name; what it holds."""
    with contextlib.closing(sqlite3.connect(partial)) as db:
        db.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise BackupError(f"the copy failed SQLite's integrity check: {problems[:3]}")
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            raise BackupError("the copy is not a Komabot database")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        rows = tuple(
            (table, int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]))
            for table in TABLES
        )
    with partial.open("rb") as fh:
        os.fsync(fh.fileno())
    if target.exists():  # appeared meanwhile: never overwrite
        raise BackupError(f"{target} appeared while the backup ran; nothing was written")
    partial.rename(target)
    with contextlib.suppress(OSError):  # the rename itself, durable (not on every system)
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    return Backup(target, target.stat().st_size, version, rows)
