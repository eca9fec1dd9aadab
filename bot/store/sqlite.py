"""The :class:`Store` on one SQLite file through aiosqlite (WAL, numbered migrations).

One connection, one lock: every public method is a whole transaction, so coroutines never see
each other's half-written state.  Games are updated with a version check (optimistic locking),
which also holds when several processes share the file.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import random
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from operator import itemgetter
from pathlib import Path
from types import NoneType
from typing import Any
from urllib.parse import quote

import aiosqlite

from bot.store.checkpoint import CHECKPOINT_EVERY, WRITER_CHECKPOINT_PAGES, Checkpointer
from bot.store.errors import (
    DatabaseFileGone,
    ReadOnlyStore,
    StoreFull,
    StoreOpenError,
)
from bot.store.group_commit import GroupCommit
from bot.store.migrations import APPLICATION_ID, LATEST, MIGRATIONS, RATINGS_VERSION
from bot.store.models import GameRow, NoticeState, ReminderRoute
from bot.store.outage import Outage
from bot.store.sql import (
    CHALLENGE_COLUMNS,
    GAME_COLUMNS,
    NOTICE_COLUMNS,
    RATING_COLUMNS,
    TIMER_COLUMNS,
    WRITTEN_GAME_COLUMNS,
    SqlStore,
    T,
    Tx,
    challenge_of,
    game_of,
    notice_of,
    timer_of,
)

log = logging.getLogger(__name__)

SQLITE_MAGIC = b"SQLite format 3\x00"


def check_file(path: Path) -> None:
    """Refuse, before opening, a file that is not an SQLite database (nothing is written)."""
    if path.is_dir():
        raise StoreOpenError(f"database path {path} is a folder, not a file")
    if not path.parent.is_dir():
        raise StoreOpenError(f"database folder {path.parent} does not exist")
    if path.exists() and path.stat().st_size > 0:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
        if head != SQLITE_MAGIC:
            raise StoreOpenError(
                f"{path} is not an SQLite database (it may be corrupt or another kind of file); "
                "Komabot left it untouched. Move it away or set KOMABOT_DB to another path."
            )


def split_sql(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _uri(path: Path, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{quote(str(path.absolute()))}" + (f"?{query}" if query else "")


def _sidecars(path: Path) -> list[Path]:
    """The journal and WAL files next to ``path`` that hold data SQLite would recover."""
    found = []
    for suffix in ("-journal", "-wal"):
        side = path.with_name(path.name + suffix)
        with contextlib.suppress(OSError):
            if side.stat().st_size > 0:
                found.append(side)
    return found


def _foreign(path: Path, app_id: int, tables: int | None) -> StoreOpenError:
    counted = f", {tables} tables" if tables is not None else ""
    return StoreOpenError(
        f"{path} is an SQLite database of another program (application id {app_id}"
        f"{counted}); Komabot left it untouched. Set KOMABOT_DB to another path."
    )


def _damaged(path: Path, detail: str) -> StoreOpenError:
    return StoreOpenError(
        f"{path} is damaged ({' '.join(detail.split())[:200]}); Komabot left it untouched. "
        f"Restore it from a backup, or try `sqlite3 {path} .recover` into a new file."
    )


_ACCESS_CODES = frozenset(
    {sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH}
)


def _permission_denied(path: Path) -> str:
    return (
        f"cannot read the database {path}: permission denied. The file is not damaged; "
        "give the user Komabot runs as read and write access to it and its folder."
    )


def _access_problem(path: Path, exc: BaseException) -> StoreOpenError | None:
    """The error for a database that cannot be opened for lack of rights (``exc`` an SQLite
    error of the read-only or cannot-open kind, or a PermissionError), else None: a database
    Komabot may not read, or may not write beside even to read, is not damaged, and its message
    says so (never "restore it from a backup", which could overwrite a good file)."""
    if isinstance(exc, PermissionError):
        return StoreOpenError(_permission_denied(path))
    if not isinstance(exc, sqlite3.Error):
        return None
    if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in _ACCESS_CODES:
        return None
    why = write_problem(path) or "the file system refuses writes (a read-only mount?)"
    return StoreOpenError(
        f"cannot open the database {path}: {why} ({exc}). The file is not damaged: SQLite "
        f"writes {path.name}-wal and {path.name}-shm beside a database even to read it. Make "
        f"the folder {path.parent} writable for the user Komabot runs as, or copy the database "
        "to a writable folder."
    )


def _schema_tables(uri: str) -> int:
    """How many tables the database at ``uri`` has (its application id is checked apart)."""
    con = sqlite3.connect(uri, uri=True)
    try:
        row = con.execute(
            "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchone()
        return int(row[0])
    finally:
        con.close()


def _stamp(path: Path) -> tuple[tuple[int, int], ...]:
    """Size and modification time of the database, its journal and WAL (to see writes)."""
    out = []
    for f in (path, path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal")):
        try:
            st = f.stat()
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((-1, 0))
    return tuple(out)


INSPECT_TRIES = 20


def inspect_file(path: Path) -> None:
    """Refuse a database that is not Komabot's before SQLite may recover (change) it.

    SQLite rolls back a hot journal and checkpoints a WAL as soon as a connection reads the
    file; so the file is first looked at as it lies on disk: its header, then its schema opened
    read-only and immutable.  When that cannot tell (an empty-looking file with a journal or WAL
    beside it), a copy of the files in a temporary folder is recovered and looked at instead.
    A refusal seen while the files were changing (another process creating the database) is
    looked at again.
    """
    for attempt in range(INSPECT_TRIES):
        before = _stamp(path)
        try:
            _inspect_once(path)
            return
        except StoreOpenError:
            if _stamp(path) == before or attempt == INSPECT_TRIES - 1:
                raise
        time.sleep(0.02 * (attempt + 1))


def _inspect_once(path: Path) -> None:
    size = path.stat().st_size if path.exists() else 0
    if size >= 100:
        with path.open("rb") as fh:
            header = fh.read(100)
        app_id = int.from_bytes(header[68:72], "big")
        if app_id == APPLICATION_ID:
            return
        if app_id != 0:
            raise _foreign(path, app_id, None)
        try:
            tables: int | None = _schema_tables(_uri(path, mode="ro", immutable="1"))
        except (sqlite3.Error, UnicodeDecodeError):
            tables = None  # the main file alone does not read: maybe mid-recovery
        if tables:
            raise _foreign(path, 0, tables)
        if tables is None and not _sidecars(path):
            raise _damaged(path, "its first pages do not read")
    if not _sidecars(path):
        return  # a new (or still empty) database
    with tempfile.TemporaryDirectory(prefix="komabot-inspect-") as folder:
        copy = Path(folder) / "db"
        try:
            if size:
                shutil.copyfile(path, copy)
            for side in _sidecars(path):
                shutil.copyfile(side, Path(folder) / ("db" + side.name[len(path.name) :]))
        except OSError as exc:  # a journal gone meanwhile: looked at again (inspect_file)
            raise StoreOpenError(f"cannot read {path} to check it: {exc}") from None
        try:
            con = sqlite3.connect(copy)
            try:
                app_id = int(con.execute("PRAGMA application_id").fetchone()[0])
            finally:
                con.close()
            tables = _schema_tables(_uri(copy))
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise _damaged(path, str(exc)) from None
    if app_id != APPLICATION_ID and (app_id != 0 or tables):
        raise _foreign(path, app_id, tables)


def write_problem(path: Path) -> str | None:
    """Why the database at ``path`` cannot be written, or None when it can (as far as the file
    system says: SQLite needs the file, its ``-wal`` and ``-shm`` files and their folder)."""
    folder = path.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"the folder {folder} is read-only (SQLite keeps {path.name}-wal and "
            f"{path.name}-shm beside the database)"
        )
    if path.exists() and not os.access(path, os.W_OK):
        return f"the file {path} is read-only"
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists() and not os.access(side, os.W_OK):
            return f"the file {side} is read-only"
    return None


FULL_CHECK_BYTES = 64 * 1024 * 1024
"""Up to this size a database is checked in full at start (``PRAGMA integrity_check`` and
every row read).  A larger one, so that start-up stays well under a second however long its
history, gets only what is cheap and bounded at start: header, schema, application id and
version, and its live rows (open challenges, active games, pending timers and notices, the
users and chat settings they refer to), read through partial indexes; ``PRAGMA quick_check``
(about 3 s per GB) then runs in a background thread, and when it fails the store refuses writes
(see :attr:`SqliteStore.damaged`).  A large file that still needs a migration is quick-checked
before it, as the migration would write into it."""

_ACTIVE_GAMES = "games INDEXED BY games_active WHERE status = 'active'"
_OPEN_CHALLENGES = "challenges INDEXED BY challenges_live WHERE status = 'open'"

LIVE_STATE_ROWS = 10_000
"""How many front-end state rows a large database has checked at start."""

_REAL = (int, float)
_OPT_INT = (int, NoneType)
_OPT_STR = (str, NoneType)
_OPT_REAL = (int, float, NoneType)
_COLOR = frozenset({0, 1, None})
_ROW_CHECKS: dict[str, tuple[str, str, Callable[[Any], object] | None, dict[str, Any]]] = {
    # table: (the columns the store reads, FROM its live rows, the row reader, what some columns
    # must hold: a type, a tuple of types or a frozenset of values; others are not checked)
    "users": (
        "key, platform, user_id, name, name_lower, reminders",
        f"users WHERE key IN (SELECT sente FROM {_ACTIVE_GAMES} UNION SELECT gote FROM "
        f"{_ACTIVE_GAMES} UNION SELECT challenger FROM {_OPEN_CHALLENGES})",
        None,
        {
            "key": str,
            "platform": str,
            "user_id": str,
            "name": str,
            "name_lower": str,
            "reminders": frozenset(r.value for r in ReminderRoute),
        },
    ),
    "challenges": (
        CHALLENGE_COLUMNS,
        _OPEN_CHALLENGES,
        challenge_of,
        {
            "id": int,
            "platform": str,
            "chat_id": str,
            "thread_id": _OPT_STR,
            "challenger": str,
            "challenged": _OPT_STR,
            "variant": str,
            "color": str,
            "time_per_move": _OPT_INT,
            "created_at": _REAL,
            "expires_at": _REAL,
            "game_id": _OPT_INT,
            "rated": frozenset({0, 1}),
            "handicap": _OPT_STR,
            "main_time": _OPT_INT,
        },
    ),
    "games": (
        GAME_COLUMNS + ", rated_seq",
        _ACTIVE_GAMES,
        game_of,
        {
            "id": int,
            "platform": str,
            "chat_id": str,
            "thread_id": _OPT_STR,
            "variant": str,
            "start_sfen": str,
            "moves": str,
            "version": int,
            "sente": str,
            "gote": str,
            "termination": _OPT_STR,
            "winner": _COLOR,
            "time_per_move": _OPT_INT,
            "deadline": _OPT_REAL,
            "draw_offer": _COLOR,
            "takeback_offer": _COLOR,
            "created_at": _REAL,
            "updated_at": _REAL,
            "finished_at": _OPT_REAL,
            "challenge_id": _OPT_INT,
            "engine_level": _OPT_INT,
            "engine_scores": str,
            "rated": frozenset({0, 1}),
            "rated_seq": _OPT_INT,
            "community": str,
            "main_time": _OPT_INT,
            "sente_time_left": _OPT_REAL,
            "gote_time_left": _OPT_REAL,
        },
    ),
    "timers": (
        TIMER_COLUMNS,
        "timers INDEXED BY timers_pending WHERE fired_at IS NULL",
        timer_of,
        {
            "id": int,
            "due_at": _REAL,
            "game_id": _OPT_INT,
            "challenge_id": _OPT_INT,
            "game_version": _OPT_INT,
            "offset_s": int,
            "fired_at": _OPT_REAL,
        },
    ),
    "outbox": (
        NOTICE_COLUMNS,
        "outbox INDEXED BY outbox_due WHERE state = 'pending'",
        notice_of,
        {
            "id": int,
            "kind": str,
            "platform": str,
            "chat_id": str,
            "thread_id": _OPT_STR,
            "payload": str,
            "dedupe_key": str,
            "created_at": _REAL,
            "state": frozenset(s.value for s in NoticeState),
            "attempts": int,
            "next_attempt_at": _REAL,
            "claimed_until": _OPT_REAL,
        },
    ),
    "chat_settings": (
        "platform, chat_id, notation, piece_style, perspective, language, bare_moves, threads, "
        "notation_chosen",
        f"(SELECT platform, chat_id FROM {_ACTIVE_GAMES} UNION SELECT platform, chat_id FROM "
        f"{_OPEN_CHALLENGES}) CROSS JOIN chat_settings USING (platform, chat_id)",
        None,
        {
            "platform": str,
            "chat_id": str,
            "notation": str,
            "piece_style": str,
            "perspective": str,
            "language": str,
            "bare_moves": frozenset({0, 1}),
            "threads": frozenset({0, 1}),
            "notation_chosen": frozenset({0, 1}),
        },
    ),
    "frontend_state": (
        "platform, kind, key, value, updated_at",
        # pruned by the front ends (bot.core.frontend_memory); a bounded sample of a large file
        f"frontend_state LIMIT {LIVE_STATE_ROWS}",
        None,
        {"platform": str, "kind": str, "key": str, "value": str, "updated_at": _REAL},
    ),
    "ratings": (
        RATING_COLUMNS,
        # read by key when a game finishes or someone asks; a bounded sample of a large file
        f"ratings LIMIT {LIVE_STATE_ROWS}",
        None,
        {
            "platform": str,
            "community": str,
            "player": str,
            "variant": str,
            "rating": _REAL,
            "deviation": _REAL,
            "volatility": _REAL,
            "games": int,
            "wins": int,
            "losses": int,
            "draws": int,
            "last_played": _OPT_REAL,
        },
    ),
    "rating_changes": (
        "game_id, player, rating_before, deviation_before, rating_after, deviation_after",
        f"rating_changes LIMIT {LIVE_STATE_ROWS}",  # read by game; a sample of a large file
        None,
        {
            "game_id": int,
            "player": str,
            "rating_before": _REAL,
            "deviation_before": _REAL,
            "rating_after": _REAL,
            "deviation_after": _REAL,
        },
    ),
    "ratings_state": (
        "key, value",
        "ratings_state WHERE key = 'rebuilt'",
        None,
        {"key": str, "value": str},
    ),
    "engine_turns": (
        "game_id, version, claimed_by, claimed_until",
        "engine_turns WHERE game_id IN (SELECT id FROM games INDEXED BY games_engine_active "
        "WHERE status = 'active' AND engine_level IS NOT NULL)",
        None,
        {"game_id": int, "version": int, "claimed_by": str, "claimed_until": float},
    ),
}


def _bad_value(value: Any, kind: Any) -> bool:
    if isinstance(kind, frozenset):
        return isinstance(value, float) or value not in kind  # 1.0 is not the flag 1
    return not isinstance(value, kind) or (isinstance(value, bool))


def _header_version(path: Path) -> int:
    """The schema version (``PRAGMA user_version``) as the file's header holds it."""
    with path.open("rb") as fh:
        header = fh.read(100)
    return int.from_bytes(header[60:64], "big") if len(header) == 100 else 0


def verify_database(path: Path, *, pre_migration: bool) -> None:
    """Refuse a damaged database at start rather than failing requests later.

    Before migrating: ``PRAGMA integrity_check`` and every table read with its text decoded;
    past :data:`FULL_CHECK_BYTES` only the schema read (plus ``quick_check`` when a migration
    is due).  After (``pre_migration`` false): every row the service reads checked against what
    it expects (columns, types, known values); past :data:`FULL_CHECK_BYTES` the live rows only.
    Runs in a thread on its own read-only connection.
    """
    full = path.stat().st_size <= FULL_CHECK_BYTES
    try:
        con = sqlite3.connect(_uri(path, mode="ro"), uri=True)
    except sqlite3.Error as exc:
        raise _access_problem(path, exc) or StoreOpenError(
            f"cannot open database {path}: {exc}"
        ) from None
    try:
        if pre_migration:
            if full or _header_version(path) < LATEST:
                pragma = "integrity_check" if full else "quick_check"
                rows = con.execute(f"PRAGMA {pragma}(20)").fetchall()
                if [r[0] for r in rows] != ["ok"]:
                    raise _damaged(path, "; ".join(str(r[0]) for r in rows[:3]))
            for _ in con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
                pass  # the schema reads and decodes
            names = [
                r[0]
                for r in con.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                    "'sqlite_%'"
                )
            ]
            if full:
                for name in names:
                    quoted = name.replace('"', '""')
                    for _ in con.execute(f'SELECT * FROM "{quoted}"'):
                        pass
            return
        for table, (columns, live, reader, kinds) in _ROW_CHECKS.items():
            names = [c.strip() for c in columns.split(",")]
            source = table if full else live
            for row in con.execute(f"SELECT {columns} FROM {source}"):
                for name, value in zip(names, row, strict=True):
                    if name in kinds and _bad_value(value, kinds[name]):
                        raise _damaged(path, f"{table}.{name} holds {value!r:.40}")
                if reader is not None:
                    reader(row)
    except (sqlite3.Error, UnicodeDecodeError, ValueError, TypeError) as exc:
        raise _access_problem(path, exc) or _damaged(path, str(exc)) from None
    finally:
        con.close()


def _write_error(exc: sqlite3.Error) -> Exception:
    """The store error for an SQLite error met while writing (``exc`` itself if none fits)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code == sqlite3.SQLITE_FULL:
        return StoreFull(f"the database or its disk is full: {exc}")
    if code == sqlite3.SQLITE_READONLY:
        return ReadOnlyStore(f"the database is read-only: {exc}")
    return exc


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file ``path`` is (device and inode), or None when there is none."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino)


class FileWatch:
    """Tells whether the database file, or its WAL, is still the one the connection writes to.

    SQLite keeps its files open: deleted or replaced under it, it goes on writing into the
    deleted file, and everything written is gone at the next start.  The main file's identity
    is taken at open, the WAL's when first seen (SQLite deletes it only when its last
    connection closes, so it stays while the store is open)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.wal = path.with_name(path.name + "-wal")
        self._main = _identity(path)
        self._wal = _identity(self.wal)

    def problem(self) -> str | None:
        """What happened to the files (None: they are the ones opened)."""
        now = _identity(self.path)
        if now is None:
            return f"the database file {self.path} was deleted"
        if now != self._main:
            return f"the database file {self.path} was replaced by another file"
        wal = _identity(self.wal)
        if self._wal is None:
            self._wal = wal
        elif wal is None:
            return f"the database's write-ahead log {self.wal} was deleted"
        elif wal != self._wal:
            return f"the database's write-ahead log {self.wal} was replaced by another file"
        return None


# SQLite's answers for a file it cannot use just now: locked by another process past the wait,
# or an I/O error (a network mount gone away).
_UNREACHABLE_CODES = frozenset(
    {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN}
)


def _unreachable(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF in _UNREACHABLE_CODES


INDEXED_GAME_COLUMNS = (
    "platform", "chat_id", "sente", "gote", "status", "engine_level", "community", "finished_at"
)  # fmt: skip
"""The columns of ``games`` its indexes read (keys and partial indexes' conditions; checked
against the schema by the tests) that ``update_game`` writes: a move changes none of them."""
_UPDATE_GAME_UNINDEXED = (
    "UPDATE games SET "
    + ", ".join(f"{c} = ?" for c in WRITTEN_GAME_COLUMNS if c not in INDEXED_GAME_COLUMNS)
    + " WHERE id = ? AND version = ?"
)
_UNINDEXED_VALUES = itemgetter(
    *(i for i, c in enumerate(WRITTEN_GAME_COLUMNS) if c not in INDEXED_GAME_COLUMNS)
)
_INDEXED_VALUES = itemgetter(*(WRITTEN_GAME_COLUMNS.index(c) for c in INDEXED_GAME_COLUMNS))
"""The values of ``SqlStore._game_values`` for the first statement and for the second."""
_UPDATE_GAME_INDEXED = (
    "UPDATE games SET "
    + ", ".join(f"{c} = ?" for c in INDEXED_GAME_COLUMNS)
    + " WHERE id = ? AND NOT ("
    + " AND ".join(f"{c} IS ?" for c in INDEXED_GAME_COLUMNS)
    + ")"
)


class SqliteStore(SqlStore):
    """The store on one SQLite file. Create with :meth:`open`."""

    BUSY_TIMEOUT_MS = 10_000
    """How long a request waits for another process's write to end before the database counts
    as unavailable."""

    def __init__(self, db: aiosqlite.Connection, path: Path, read_only: str | None = None) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self.read_only = read_only
        """Why this store was opened read-only (None: it takes writes)."""
        self.damaged: str | None = None
        """What the background check of a large file found wrong (None: nothing, or not yet);
        once set, writes raise :class:`~bot.store.errors.ReadOnlyStore`."""
        self._checked: concurrent.futures.Future[str | None] = concurrent.futures.Future()
        self._checked.set_result(None)
        self._check_con: sqlite3.Connection | None = None
        self._check_thread: threading.Thread | None = None
        self._files = FileWatch(path)
        self._outage = Outage(str(path))
        self.gone: str | None = None
        """What happened to the database file while the store was open (None: nothing); once
        set, writes raise :class:`~bot.store.errors.DatabaseFileGone`."""
        self.checkpointer: Checkpointer | None = None
        """What copies the write-ahead log into the database file beside the commits (see
        :mod:`bot.store.checkpoint`); None when the store is read-only."""
        self.writer: GroupCommit | None = None
        """What writes the transactions of :meth:`_transact` (moves) in one trip each, those
        waiting together in one commit; None when the store is read-only."""
        if read_only is None:
            # aiosqlite runs a function on its connection's thread through _execute (as it
            # runs each of its own calls)
            self.writer = GroupCommit(db._execute, lambda: db._conn, self._lock, self._files_gone)

    # --- opening ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        sync: str = "full",
        target_version: int = LATEST,
        read_only: bool = False,
        checkpoint_every: float = CHECKPOINT_EVERY,
    ) -> SqliteStore:
        """Open (or create) the database, check it is Komabot's and whole, and migrate it.

        Raises StoreOpenError for a corrupt, foreign or newer file; such a file is not changed.
        A file that cannot be written (read-only file, ``-wal``/``-shm``, folder or mount), or
        any with ``read_only``, is opened read-only: :attr:`read_only` says why, reads work and
        writes raise :class:`~bot.store.errors.ReadOnlyStore`.  Several processes may open one
        file at once.  ``target_version`` below the latest is for migration tests only.
        The write-ahead log is copied into the database every ``checkpoint_every`` seconds by
        a thread of the store's (:attr:`checkpointer`), not by the commits.
        """
        path = Path(path)
        try:
            check_file(path)
            await asyncio.to_thread(inspect_file, path)
        except PermissionError:
            raise StoreOpenError(_permission_denied(path)) from None
        problem = write_problem(path) or ("opened read-only on request" if read_only else None)
        if problem is not None and not path.exists():
            raise StoreOpenError(f"cannot create the database {path}: {problem}")
        started = time.monotonic()
        upgrading = problem is None and path.exists() and path.stat().st_size > 0
        upgrading = upgrading and _header_version(path) < target_version
        if upgrading:
            log.info(
                "%s is at schema %d: checking it, then upgrading it to %d (once; a large file "
                "takes a while, about 15 s per GB)",
                path, _header_version(path), target_version,
            )  # fmt: skip
        if path.exists() and path.stat().st_size > 0:
            await asyncio.to_thread(verify_database, path, pre_migration=True)
        try:
            if problem is None:
                db = await aiosqlite.connect(path, isolation_level=None)
            else:
                db = await aiosqlite.connect(_uri(path, mode="ro"), uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            raise _access_problem(path, exc) or StoreOpenError(
                f"cannot open database {path}: {exc}"
            ) from None
        try:
            await db.execute(f"PRAGMA busy_timeout={cls.BUSY_TIMEOUT_MS}")
            version = await cls._check(db, path)
            if problem is None:
                await cls._use_wal(db)
            await db.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
            await db.execute("PRAGMA foreign_keys=ON")
            store = cls(db, path, problem)
            if problem is None:
                await cls._migrate(db, target_version)
                if target_version >= RATINGS_VERSION:
                    await store._rate_history_once()
                if upgrading:
                    log.info("%s upgraded in %.1f s", path, time.monotonic() - started)
            elif version < target_version:
                raise StoreOpenError(
                    f"{path} has schema version {version} and needs upgrading to "
                    f"{target_version}, but {problem}; make it writable and start again"
                )
            if target_version == LATEST:
                await asyncio.to_thread(verify_database, path, pre_migration=False)
            if path.stat().st_size > FULL_CHECK_BYTES:
                store._start_background_check()
            if problem is None:
                await store._start_checkpoints(checkpoint_every)
        except sqlite3.Error as exc:
            await db.close()
            if isinstance(_write_error(exc), StoreFull):
                raise StoreOpenError(
                    f"cannot prepare {path}: the disk is full ({exc}); free some space"
                ) from None
            raise _access_problem(path, exc) or StoreOpenError(
                f"{path} is not a usable SQLite database ({exc}); Komabot left it untouched"
            ) from None
        except BaseException:
            await db.close()
            raise
        return store

    async def _start_checkpoints(self, every: float) -> None:
        """Leave the log's checkpoints to :attr:`checkpointer` (the commits' own only past a
        backstop)."""
        await self._db.execute(f"PRAGMA wal_autocheckpoint={WRITER_CHECKPOINT_PAGES}")
        self.checkpointer = await asyncio.to_thread(Checkpointer, self.path, every)
        self.checkpointer.start()

    def _start_background_check(self) -> None:
        """Run ``PRAGMA quick_check`` on a large file in a thread of its own (on its own
        read-only connection); a failure is logged as an error and sets :attr:`damaged`, after
        which the store refuses writes (SQLite writing into a damaged b-tree can spread the
        damage), while reads go on as far as they can."""
        con = sqlite3.connect(_uri(self.path, mode="ro"), uri=True, check_same_thread=False)
        done: concurrent.futures.Future[str | None] = concurrent.futures.Future()

        def run() -> None:
            try:
                rows = con.execute("PRAGMA quick_check(20)").fetchall()
                found = None
                if [r[0] for r in rows] != ["ok"]:
                    found = "; ".join(str(r[0]) for r in rows[:3])
            except sqlite3.Error as exc:
                interrupted = getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_INTERRUPT
                found = None if interrupted else str(exc)
            except Exception as exc:  # reported below, never lost in a thread
                found = f"{type(exc).__name__}: {exc}"
            finally:
                con.close()
            if found is not None:
                self.damaged = " ".join(found.split())[:300]
                log.error(
                    "DATABASE DAMAGED: the background check of %s found: %s. Komabot now "
                    "refuses writes; stop it, restore the file from a backup or try "
                    "`sqlite3 %s .recover` into a new file.",
                    self.path,
                    self.damaged,
                    self.path,
                )
            done.set_result(found)

        self._checked = done
        self._check_con = con
        self._check_thread = threading.Thread(target=run, name="komabot-quick-check", daemon=True)
        self._check_thread.start()

    async def background_check(self) -> str | None:
        """Wait for the background check of a large file (at once for a small one): what it
        found wrong, or None."""
        return await asyncio.wrap_future(self._checked)

    def _stop_background_check(self) -> None:
        thread, con = self._check_thread, self._check_con
        if thread is None or con is None:
            return
        deadline = time.monotonic() + 5.0
        while thread.is_alive() and time.monotonic() < deadline:
            with contextlib.suppress(sqlite3.Error):
                con.interrupt()
            thread.join(0.02)

    @staticmethod
    async def _use_wal(db: aiosqlite.Connection, wait: float = 10.0) -> None:
        """Switch to WAL.  SQLite answers "database is locked" at once, without its busy
        wait, when another process holds the file meanwhile (two starting together): retry."""
        deadline = time.monotonic() + wait
        while True:
            try:
                await db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
                if code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
                if time.monotonic() > deadline:
                    raise
            await asyncio.sleep(0.005 + 0.02 * random.random())

    @staticmethod
    async def _check(db: aiosqlite.Connection, path: Path) -> int:
        """Refuse a foreign or newer database (as :func:`inspect_file` did, now recovered);
        return its schema version."""
        await db.execute("BEGIN")  # one snapshot: another process may be creating it
        try:
            app_id = (await (await db.execute("PRAGMA application_id")).fetchone() or (0,))[0]
            version = (await (await db.execute("PRAGMA user_version")).fetchone() or (0,))[0]
            row = await (
                await db.execute(
                    "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
                )
            ).fetchone()
            tables = int(row[0]) if row else 0
        finally:
            await db.execute("COMMIT")
        if app_id == 0 and version == 0 and not tables:
            return 0  # a new, empty database
        if app_id != APPLICATION_ID:
            raise _foreign(path, app_id, tables)
        if version > LATEST:
            raise StoreOpenError(
                f"{path} has schema version {version}, newer than this Komabot knows "
                f"({LATEST}); upgrade Komabot. The file was left untouched."
            )
        return int(version)

    @staticmethod
    async def _migrate(db: aiosqlite.Connection, target: int) -> None:
        """Apply the migrations up to ``target``, each with its version bump in one
        transaction that holds the write lock from before it reads the version, so processes
        starting together apply each migration once."""
        row = await (await db.execute("PRAGMA user_version")).fetchone()
        seen = row[0] if row else 0  # only ever grows: a lower bound of the version
        for migration in MIGRATIONS:
            if migration.version <= seen:
                continue
            if migration.version > target:
                break
            await db.execute("BEGIN IMMEDIATE")
            try:
                row = await (await db.execute("PRAGMA user_version")).fetchone()
                if (row[0] if row else 0) < migration.version:
                    if migration.version == 1:
                        await db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    for statement in split_sql(migration.sql):
                        await db.execute(statement)
                    await db.execute(f"PRAGMA user_version={migration.version}")
                await db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self._lock:
            row = await (await self._db.execute("PRAGMA user_version")).fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        await asyncio.to_thread(self._stop_background_check)
        if self.checkpointer is not None:
            await asyncio.to_thread(self.checkpointer.stop)
        if self.writer is not None:
            await self.writer.stop()
        async with self._lock:
            await self._db.close()

    # --- transactions -------------------------------------------------------------------

    _NO_LIMIT = -1
    _WITHOUT_PICTURES = (
        "CASE WHEN json_valid(payload) "
        "THEN json_set(payload, '$.image', NULL, '$.files', json('[]')) ELSE payload END"
    )

    def _indexed(self, index: str) -> str:
        return f"INDEXED BY {index}"

    def _files_gone(self) -> DatabaseFileGone | None:
        """The error for a database file deleted or replaced under the store (logged once, as
        an error for the operator), or None when the files are the ones opened."""
        if self.gone is None:
            problem = self._files.problem()
            if problem is None:
                return None
            self.gone = problem
            log.error(
                "DATABASE FILE GONE: %s while Komabot ran. Writes are refused from now on "
                "(nothing more is acknowledged); stop Komabot, put the database file back "
                "(or restore it from a backup), and start it again.",
                problem,
            )
        return DatabaseFileGone(f"{self.gone}; writes are refused until a restart")

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """One write transaction (``BEGIN IMMEDIATE``: writers take turns); a full disk or a
        read-only database raises StoreFull or ReadOnlyStore, a database file deleted or
        replaced meanwhile DatabaseFileGone, checked before the commit and at a failure
        (nothing of the transaction kept)."""
        async with self._lock:
            self._refuse_writes()
            with self._write_errors():
                try:
                    await self._db.execute("BEGIN IMMEDIATE")
                    yield _SqliteTx(self._db)
                    gone = self._files_gone()
                    if gone is not None:
                        raise gone
                    await self._db.execute("COMMIT")
                except BaseException:
                    # Also when the caller was cancelled while BEGIN (or a statement) was on its
                    # way: the database thread runs it anyway, and this rollback after it, in
                    # order; a transaction left open would refuse every later write ("cannot
                    # start a transaction within a transaction").  No transaction: a no-op.
                    with contextlib.suppress(sqlite3.Error):
                        await self._db.rollback()
                    raise

    def _refuse_writes(self) -> None:
        """Raise the refusal of every write once the file is damaged or gone."""
        if self.damaged is not None:
            raise ReadOnlyStore(
                f"the database is damaged ({self.damaged}); writes are refused until it is "
                "restored or recovered"
            )
        if self.gone is not None:
            raise DatabaseFileGone(f"{self.gone}; writes are refused until a restart")

    @contextlib.contextmanager
    def _write_errors(self) -> Iterator[None]:
        """Raise the store's error for an SQLite error met while writing (the error itself if
        none fits); a write that went through ends the outage, if there was one."""
        try:
            yield
        except sqlite3.Error as exc:
            gone = self._files_gone()
            typed = _write_error(exc) if gone is None else gone
            if typed is exc and _unreachable(exc):
                typed = self._outage.began(exc)
            if typed is exc:
                raise
            raise typed from exc
        self._outage.ended()

    async def _transact(self, body: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """``body`` in one trip to the database thread, in one commit with the bodies that
        wait beside it (see :mod:`bot.store.group_commit`)."""
        if self.writer is None:  # read-only: refused as every write is
            return await super()._transact(body)
        self._refuse_writes()
        with self._write_errors():
            result: T = await self.writer.write(body)
        return result

    async def _write_game(self, tx: Tx, new: GameRow, version: int) -> int:
        """:meth:`SqlStore._write_game` in two statements: SQLite rewrites the entries of every
        index that reads a column an UPDATE sets, even to the value it had, so the indexed
        columns (``INDEXED_GAME_COLUMNS``) are set by a second statement, and only when one of
        them differs (a move: 11-12 pages written a commit instead of 18, and about 90 us less
        CPU, measured on the bench's database)."""
        values = self._game_values(new)
        changed = await tx.run(
            _UPDATE_GAME_UNINDEXED, (*_UNINDEXED_VALUES(values), new.id, version)
        )
        if changed == 1:
            indexed = _INDEXED_VALUES(values)
            await tx.run(_UPDATE_GAME_INDEXED, (*indexed, new.id, *indexed))
        return changed

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        async with self._lock:
            try:
                yield _SqliteTx(self._db)
            except sqlite3.Error as exc:
                if _unreachable(exc):
                    raise self._outage.began(exc) from exc
                raise
            self._outage.ended()

    async def _columns(self, table: str) -> list[str]:
        return [str(row[1]) for row in await self._all(f"PRAGMA table_info({table})")]

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query, in one trip to the database thread."""
        async with self._lock:
            try:
                rows = list(await self._db.execute_fetchall(sql, params))
            except sqlite3.Error as exc:
                if _unreachable(exc):
                    raise self._outage.began(exc) from exc
                raise
        self._outage.ended()
        return rows


class _SqliteTx:
    """:class:`~bot.store.sql.Tx` on the aiosqlite connection (its caller holds the lock)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, params))

    async def row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._db.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int((await self._db.execute(sql, params)).rowcount)

    async def run_many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, params)

    async def insert(self, sql: str, params: Sequence[Any]) -> int | None:
        cur = await self._db.execute(sql, params)
        return cur.lastrowid if cur.rowcount == 1 else None
