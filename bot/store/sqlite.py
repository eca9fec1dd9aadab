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
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import NoneType
from typing import Any
from urllib.parse import quote

import aiosqlite

from bot.core import glicko2
from bot.store.errors import (
    ChallengeAlreadyOpen,
    ReadOnlyStore,
    StoreFull,
    StoreOpenError,
    VersionConflict,
)
from bot.store.migrations import APPLICATION_ID, LATEST, MIGRATIONS
from bot.store.models import (
    ChallengeRow,
    ChallengeStatus,
    ChatKey,
    ChatSettings,
    GameRow,
    GameStatus,
    NewNotice,
    NewTimer,
    NoticeRow,
    NoticeState,
    RatingChange,
    RatingRow,
    ReminderRoute,
    TimerKind,
    TimerRow,
    UserRow,
)

log = logging.getLogger(__name__)

RATINGS_VERSION = 11  # the schema the rating code reads: ratings (10) and communities (11)

SQLITE_MAGIC = b"SQLite format 3\x00"

_GAME_COLUMNS = (
    "id, platform, chat_id, thread_id, variant, start_sfen, moves, version, sente, gote, "
    "status, termination, winner, time_per_move, deadline, draw_offer, takeback_offer, "
    "created_at, updated_at, finished_at, challenge_id, engine_level, engine_scores, rated, "
    "community"
)
_INSERT_GAME = (
    "INSERT INTO games (platform, chat_id, thread_id, variant, start_sfen, moves, version, "
    "sente, gote, status, termination, winner, time_per_move, deadline, draw_offer, "
    "takeback_offer, created_at, updated_at, finished_at, challenge_id, engine_level, "
    "engine_scores, rated, community) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_RATING_COLUMNS = (
    "platform, community, player, variant, rating, deviation, volatility, games, wins, losses, "
    "draws, last_played"
)
_CHALLENGE_COLUMNS = (
    "id, platform, chat_id, thread_id, challenger, challenged, variant, color, time_per_move, "
    "status, created_at, expires_at, game_id, rated"
)
_TIMER_COLUMNS = (
    "id, kind, due_at, game_id, challenge_id, game_version, offset_s, fired_at, attempts, "
    "next_attempt_at"
)
_NOTICE_COLUMNS = (
    "id, kind, platform, chat_id, thread_id, payload, dedupe_key, created_at, game_id, "
    "game_deadline, fallback_chat_id, fallback_thread_id, fallback_payload, state, attempts, "
    "next_attempt_at, claimed_by, claimed_until, last_error, done_at"
)


_BOARD = (
    "platform = ? AND community = ? AND variant = ? "
    f"AND deviation <= {glicko2.PROVISIONAL_DEVIATION!r}"  # the WHERE of index ratings_board
)
"""A community's leaderboard in one variant: its non-provisional players."""


def _players_games(
    platform: str,
    community: str,
    player: str,
    variant: str | None,
    *,
    columns: str = _GAME_COLUMNS,
    won: bool = False,
) -> tuple[str, tuple[Any, ...]]:
    """A SELECT of ``player``'s finished games in ``community`` (in ``variant``; only the
    rated ones they won when ``won``) and its parameters: one part per side, each through its
    index ``games_finished_by_sente``/``_gote``, joined by UNION (a game against oneself once)."""
    parts, params = [], []
    for side, column in enumerate(("sente", "gote")):
        where = f"status = 'finished' AND {column} = ? AND platform = ? AND community = ?"
        params += [player, platform, community]
        if variant is not None:
            where += " AND variant = ?"
            params.append(variant)
        if won:
            where += f" AND rated_seq IS NOT NULL AND winner = {side}"
        parts.append(f"SELECT {columns} FROM games WHERE {where}")
    return " UNION ".join(parts), tuple(params)


@dataclass(frozen=True)
class _RatingUpdate:
    """One rating row a finished game writes (see SqliteStore._rating_updates)."""

    community: str
    player: str
    before: glicko2.Rating
    after: glicko2.Rating
    row: RatingRow


def _game(row: Any) -> GameRow:
    return GameRow(
        id=row[0],
        # a community that is the chat itself is kept as None, as front ends pass it
        chat=ChatKey(row[1], row[2], row[3], row[24] if row[24] != row[2] else None),
        variant=row[4],
        start_sfen=row[5],
        moves=tuple(row[6].split()),
        version=row[7],
        sente=row[8],
        gote=row[9],
        status=GameStatus(row[10]),
        termination=row[11],
        winner=row[12],
        time_per_move=row[13],
        deadline=row[14],
        draw_offer=row[15],
        takeback_offer=row[16],
        created_at=row[17],
        updated_at=row[18],
        finished_at=row[19],
        challenge_id=row[20],
        engine_level=row[21],
        engine_scores=tuple(int(s) for s in row[22].split()),
        rated=bool(row[23]),
    )


def _challenge(row: Any) -> ChallengeRow:
    return ChallengeRow(
        id=row[0],
        chat=ChatKey(row[1], row[2], row[3]),
        challenger=row[4],
        challenged=row[5],
        variant=row[6],
        color=row[7],
        time_per_move=row[8],
        status=ChallengeStatus(row[9]),
        created_at=row[10],
        expires_at=row[11],
        game_id=row[12],
        rated=bool(row[13]),
    )


def _timer(row: Any) -> TimerRow:
    return TimerRow(
        id=row[0],
        kind=TimerKind(row[1]),
        due_at=row[2],
        game_id=row[3],
        challenge_id=row[4],
        game_version=row[5],
        offset=row[6],
        fired_at=row[7],
        attempts=row[8],
        next_attempt_at=row[9],
    )


def _notice(row: Any) -> NoticeRow:
    return NoticeRow(
        id=row[0],
        kind=row[1],
        chat=ChatKey(row[2], row[3], row[4]),
        payload=row[5],
        key=row[6],
        created_at=row[7],
        game_id=row[8],
        game_deadline=row[9],
        fallback=ChatKey(row[2], row[10], row[11]) if row[10] is not None else None,
        fallback_payload=row[12],
        state=NoticeState(row[13]),
        attempts=row[14],
        next_attempt_at=row[15],
        claimed_by=row[16],
        claimed_until=row[17],
        last_error=row[18],
        done_at=row[19],
    )


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
    if path.exists() and not os.access(path, os.W_OK):
        return f"the file {path} is read-only"
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists() and not os.access(side, os.W_OK):
            return f"the file {side} is read-only"
    folder = path.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"the folder {folder} is read-only (SQLite keeps {path.name}-wal and "
            f"{path.name}-shm beside the database)"
        )
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
        _CHALLENGE_COLUMNS,
        _OPEN_CHALLENGES,
        _challenge,
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
        },
    ),
    "games": (
        _GAME_COLUMNS + ", rated_seq",
        _ACTIVE_GAMES,
        _game,
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
        },
    ),
    "timers": (
        _TIMER_COLUMNS,
        "timers INDEXED BY timers_pending WHERE fired_at IS NULL",
        _timer,
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
        _NOTICE_COLUMNS,
        "outbox INDEXED BY outbox_due WHERE state = 'pending'",
        _notice,
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
        "platform, chat_id, notation, piece_style, perspective, language, bare_moves, threads",
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
        _RATING_COLUMNS,
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
}


PRUNE_BATCH = 1000
"""At most this many notices are deleted in one transaction by :meth:`SqliteStore.prune_notices`."""


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
        raise StoreOpenError(f"cannot open database {path}: {exc}") from None
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
        raise _damaged(path, str(exc)) from None
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


class SqliteStore:
    """The store on one SQLite file. Create with :meth:`open`."""

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

    # --- opening ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        sync: str = "full",
        target_version: int = LATEST,
        read_only: bool = False,
    ) -> SqliteStore:
        """Open (or create) the database, check it is Komabot's and whole, and migrate it.

        Raises StoreOpenError for a corrupt, foreign or newer file; such a file is not changed.
        A file that cannot be written (read-only file, ``-wal``/``-shm``, folder or mount), or
        any with ``read_only``, is opened read-only: :attr:`read_only` says why, reads work and
        writes raise :class:`~bot.store.errors.ReadOnlyStore`.  Several processes may open one
        file at once.  ``target_version`` below the latest is for migration tests only.
        """
        path = Path(path)
        check_file(path)
        await asyncio.to_thread(inspect_file, path)
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
            raise StoreOpenError(f"cannot open database {path}: {exc}") from None
        try:
            await db.execute("PRAGMA busy_timeout=10000")
            version = await cls._check(db, path)
            if problem is None:
                await cls._use_wal(db)
            await db.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
            await db.execute("PRAGMA foreign_keys=ON")
            if problem is None:
                await cls._migrate(db, target_version)
                if target_version >= RATINGS_VERSION:
                    await cls._rate_history_once(db)
                if upgrading:
                    log.info("%s upgraded in %.1f s", path, time.monotonic() - started)
            elif version < target_version:
                raise StoreOpenError(
                    f"{path} has schema version {version} and needs upgrading to "
                    f"{target_version}, but {problem}; make it writable and start again"
                )
            if target_version == LATEST:
                await asyncio.to_thread(verify_database, path, pre_migration=False)
            store = cls(db, path, problem)
            if path.stat().st_size > FULL_CHECK_BYTES:
                store._start_background_check()
        except sqlite3.Error as exc:
            await db.close()
            if isinstance(_write_error(exc), StoreFull):
                raise StoreOpenError(
                    f"cannot prepare {path}: the disk is full ({exc}); free some space"
                ) from None
            raise StoreOpenError(
                f"{path} is not a usable SQLite database ({exc}); Komabot left it untouched"
            ) from None
        except BaseException:
            await db.close()
            raise
        return store

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

    @classmethod
    async def _rate_history_once(cls, db: aiosqlite.Connection) -> None:
        """Rate the games finished before ratings existed (migration 10), once: the first
        process to open the upgraded file does it, and records it in ``ratings_state``."""
        row = await (
            await db.execute("SELECT 1 FROM ratings_state WHERE key = 'rebuilt'")
        ).fetchone()
        if row is not None:
            return
        await db.execute("BEGIN IMMEDIATE")
        try:
            row = await (
                await db.execute("SELECT 1 FROM ratings_state WHERE key = 'rebuilt'")
            ).fetchone()
            if row is None:
                await cls._rebuild(db)
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
        async with self._lock:
            await self._db.close()

    # --- transactions -------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; a full disk or a read-only database raises StoreFull or
        ReadOnlyStore (nothing of the transaction kept)."""
        async with self._lock:
            if self.damaged is not None:
                raise ReadOnlyStore(
                    f"the database is damaged ({self.damaged}); writes are refused until it is "
                    "restored or recovered"
                )
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    await self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:  # SQLite may have rolled back already
                        with contextlib.suppress(sqlite3.Error):
                            await self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                typed = _write_error(exc)
                if typed is exc:
                    raise
                raise typed from exc

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query, in one trip to the database thread."""
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The row of a query that has at most one (by key, ``LIMIT 1`` or an aggregate), in
        one trip to the database thread; None when there is none."""
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    # --- users --------------------------------------------------------------------------

    async def save_user(self, user: UserRow) -> None:
        row = await self._one("SELECT name FROM users WHERE key = ?", (user.key,))
        if row is not None and row[0] == user.name:
            return  # nothing changed: no write (a read-only database still serves)
        async with self._write() as db:
            await db.execute(
                "INSERT INTO users (key, platform, user_id, name, name_lower) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET name = excluded.name, "
                "name_lower = excluded.name_lower",
                (user.key, user.platform, user.user_id, user.name, user.name.lower()),
            )

    async def get_user(self, key: str) -> UserRow | None:
        row = await self._one(
            "SELECT key, platform, user_id, name FROM users WHERE key = ?", (key,)
        )
        return UserRow(*row) if row else None

    async def users_named(self, platform: str, name: str, limit: int = 10) -> list[UserRow]:
        rows = await self._all(
            "SELECT key, platform, user_id, name FROM users WHERE platform = ? AND "
            "name_lower = ? ORDER BY key LIMIT ?",
            (platform, name.lower(), limit),
        )
        return [UserRow(*row) for row in rows]

    # --- challenges ---------------------------------------------------------------------

    async def create_challenge(
        self,
        chat: ChatKey,
        challenger: str,
        challenged: str | None,
        variant: str,
        color: str,
        time_per_move: int | None,
        now: float,
        expires_at: float,
        *,
        rated: bool = True,
    ) -> ChallengeRow:
        async with self._write() as db:
            try:
                # ``rated`` is written only for a casual challenge (the column's default is
                # rated), so that files at older versions still take challenges in tests.
                extra = "" if rated else ", rated"
                cur = await db.execute(
                    "INSERT INTO challenges (platform, chat_id, thread_id, challenger, "
                    "challenged, variant, color, time_per_move, status, created_at, expires_at"
                    f"{extra}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{', ?' if extra else ''})",
                    (
                        chat.platform,
                        chat.chat_id,
                        chat.thread_id,
                        challenger,
                        challenged,
                        variant,
                        color,
                        time_per_move,
                        ChallengeStatus.OPEN.value,
                        now,
                        expires_at,
                        *(() if rated else (0,)),
                    ),
                )
            except sqlite3.IntegrityError:  # the index challenges_one_open (migration 6)
                row = await (
                    await db.execute(
                        "SELECT id FROM challenges WHERE platform = ? AND chat_id = ? AND "
                        "challenger = ? AND status = 'open'",
                        (chat.platform, chat.chat_id, challenger),
                    )
                ).fetchone()
                if row is None:
                    raise
                raise ChallengeAlreadyOpen(row[0]) from None
            cid = cur.lastrowid
            assert cid is not None
            await self._insert_timers(
                db, [NewTimer(TimerKind.CHALLENGE_EXPIRY, expires_at, challenge_id=cid)]
            )
        return ChallengeRow(
            cid,
            chat,
            challenger,
            challenged,
            variant,
            color,
            time_per_move,
            ChallengeStatus.OPEN,
            now,
            expires_at,
            rated=rated,
        )

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return _challenge(row) if row else None

    @staticmethod
    def _open_where(chat: ChatKey, by: str | None, to: str | None) -> tuple[str, list[Any]]:
        where = "platform = ? AND chat_id = ? AND status = 'open'"
        params: list[Any] = [chat.platform, chat.chat_id]
        if by is not None:
            where += " AND challenger = ?"
            params.append(by)
        if to is not None:
            where += " AND (challenged = ? OR (challenged IS NULL AND challenger != ?))"
            params += [to, to]
        return where, params

    async def open_challenges(
        self,
        chat: ChatKey,
        *,
        by: str | None = None,
        to: str | None = None,
        limit: int | None = None,
    ) -> list[ChallengeRow]:
        where, params = self._open_where(chat, by, to)
        order = "challenged IS NULL, id" if to is not None else "id"
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE {where} ORDER BY {order} LIMIT ?",
            (*params, -1 if limit is None else limit),
        )
        return [_challenge(r) for r in rows]

    async def count_open_challenges(
        self, chat: ChatKey, *, by: str | None = None, to: str | None = None
    ) -> int:
        where, params = self._open_where(chat, by, to)
        row = await self._one(f"SELECT count(*) FROM challenges WHERE {where}", params)
        return int(row[0])

    async def close_challenge(self, challenge_id: int, status: ChallengeStatus) -> ChallengeRow:
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
                (status.value, challenge_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"challenge {challenge_id} is no longer open")
            await db.execute(
                "DELETE FROM timers WHERE challenge_id = ?",
                (challenge_id,),
            )
            row = await (
                await db.execute(
                    f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
                )
            ).fetchone()
        return _challenge(row)

    async def accept_challenge(
        self, challenge_id: int, game: GameRow, timers: Sequence[NewTimer]
    ) -> GameRow:
        async with self._write() as db:
            busy = await (
                await db.execute(
                    "SELECT id FROM games WHERE platform = ? AND chat_id = ? AND status = 'active' "
                    "AND (sente IN (?, ?) OR gote IN (?, ?)) LIMIT 1",
                    (
                        game.chat.platform,
                        game.chat.chat_id,
                        game.sente,
                        game.gote,
                        game.sente,
                        game.gote,
                    ),
                )
            ).fetchone()
            if busy:
                raise VersionConflict(f"a player already has game {busy[0]} in this chat")
            gid = await self._insert_game(db, game, timers)
            cur = await db.execute(
                "UPDATE challenges SET status = 'accepted', game_id = ? "
                "WHERE id = ? AND status = 'open'",
                (gid, challenge_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"challenge {challenge_id} is no longer open")
            await db.execute(
                "DELETE FROM timers WHERE challenge_id = ?",
                (challenge_id,),
            )
        from dataclasses import replace

        return replace(game, id=gid)

    async def create_game(
        self, game: GameRow, timers: Sequence[NewTimer], *, free: Sequence[str]
    ) -> GameRow:
        async with self._write() as db:
            for player in free:
                busy = await (
                    await db.execute(
                        "SELECT id FROM games WHERE sente = ? AND platform = ? AND chat_id = ? "
                        "AND status = 'active' UNION ALL SELECT id FROM games WHERE gote = ? "
                        "AND platform = ? AND chat_id = ? AND status = 'active' LIMIT 1",
                        (player, game.chat.platform, game.chat.chat_id) * 2,
                    )
                ).fetchone()
                if busy:
                    raise VersionConflict(f"{player} already has game {busy[0]} in this chat")
            gid = await self._insert_game(db, game, timers)
        from dataclasses import replace

        return replace(game, id=gid)

    async def _insert_game(
        self, db: aiosqlite.Connection, game: GameRow, timers: Sequence[NewTimer]
    ) -> int:
        """Insert ``game`` and its ``timers`` (in the caller's transaction); its new id."""
        cur = await db.execute(_INSERT_GAME, self._game_values(game))
        gid = cur.lastrowid
        assert gid is not None
        await self._insert_timers(
            db, [NewTimer(t.kind, t.due_at, gid, None, t.game_version, t.offset) for t in timers]
        )
        return gid

    # --- games --------------------------------------------------------------------------

    @staticmethod
    def _game_values(g: GameRow) -> tuple[Any, ...]:
        return (
            g.chat.platform,
            g.chat.chat_id,
            g.chat.thread_id,
            g.variant,
            g.start_sfen,
            " ".join(g.moves),
            g.version,
            g.sente,
            g.gote,
            g.status.value,
            g.termination,
            g.winner,
            g.time_per_move,
            g.deadline,
            g.draw_offer,
            g.takeback_offer,
            g.created_at,
            g.updated_at,
            g.finished_at,
            g.challenge_id,
            g.engine_level,
            " ".join(str(score) for score in g.engine_scores),
            int(g.rated),
            g.chat.community_id,
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def active_game(self, chat: ChatKey, user_key: str) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'active' AND (sente = ? OR gote = ?) ORDER BY id DESC LIMIT 1",
            (chat.platform, chat.chat_id, user_key, user_key),
        )
        return _game(row) if row else None

    async def active_games_in_chat(
        self, chat: ChatKey, *, limit: int | None = None
    ) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'active' ORDER BY id LIMIT ?",
            (chat.platform, chat.chat_id, -1 if limit is None else limit),
        )
        return [_game(r) for r in rows]

    async def count_active_games_in_chat(self, chat: ChatKey) -> int:
        row = await self._one(
            "SELECT count(*) FROM games WHERE platform = ? AND chat_id = ? AND status = 'active'",
            (chat.platform, chat.chat_id),
        )
        return int(row[0])

    async def active_games_of(self, user_key: str, *, limit: int | None = None) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' AND sente = ? "
            f"UNION SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' AND gote = ? "
            "ORDER BY id LIMIT ?",
            (user_key, user_key, -1 if limit is None else limit),
        )
        return [_game(r) for r in rows]

    async def count_active_games_of(self, user_key: str) -> int:
        row = await self._one(
            "SELECT (SELECT count(*) FROM games WHERE status = 'active' AND sente = ?) + "
            "(SELECT count(*) FROM games WHERE status = 'active' AND gote = ? AND sente != ?)",
            (user_key, user_key, user_key),
        )
        return int(row[0])

    async def last_game(self, chat: ChatKey, user_key: str) -> GameRow | None:
        active = await self.active_game(chat, user_key)
        if active is not None:
            return active
        # the newest of the player's games as sente and as gote: two index look-ups, however
        # many games the chat has seen
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = (SELECT max(id) FROM ("
            "SELECT max(id) AS id FROM games WHERE sente = ? AND platform = ? AND chat_id = ? "
            "UNION ALL "
            "SELECT max(id) FROM games WHERE gote = ? AND platform = ? AND chat_id = ?))",
            (user_key, chat.platform, chat.chat_id, user_key, chat.platform, chat.chat_id),
        )
        return _game(row) if row else None

    async def active_engine_games(self) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games INDEXED BY games_engine_active "
            "WHERE status = 'active' AND engine_level IS NOT NULL ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def latest_variant(self, chat: ChatKey) -> str | None:
        # the newest active and the newest finished game of the chat: two index look-ups
        row = await self._one(
            "SELECT variant FROM games WHERE id = (SELECT max(id) FROM ("
            "SELECT max(id) AS id FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'active' UNION ALL "
            "SELECT max(id) FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'finished'))",
            (chat.platform, chat.chat_id) * 2,
        )
        return str(row[0]) if row else None

    async def count_active_games(self) -> int:
        row = await self._one(
            "SELECT count(*) FROM games INDEXED BY games_active WHERE status = 'active'"
        )
        return int(row[0])

    async def update_game(
        self,
        game: GameRow,
        timers: Sequence[NewTimer] | None = None,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> GameRow:
        from dataclasses import replace

        new = replace(game, version=game.version + 1)
        async with self._write() as db:
            values = self._game_values(new)
            cur = await db.execute(
                "UPDATE games SET platform = ?, chat_id = ?, thread_id = ?, variant = ?, "
                "start_sfen = ?, moves = ?, version = ?, sente = ?, gote = ?, status = ?, "
                "termination = ?, winner = ?, time_per_move = ?, deadline = ?, draw_offer = ?, "
                "takeback_offer = ?, created_at = ?, updated_at = ?, finished_at = ?, "
                "challenge_id = ?, engine_level = ?, engine_scores = ?, rated = ?, community = ? "
                "WHERE id = ? AND version = ?",
                (*values, game.id, game.version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game.id} changed since version {game.version}")
            if new.rateable:
                await self._rate(db, new)
            if timers is not None:
                await db.execute(
                    "DELETE FROM timers WHERE game_id = ?",
                    (game.id,),
                )
                await self._insert_timers(db, timers)
            await self._insert_notices(db, notices)
        return new

    # --- ratings ------------------------------------------------------------------------

    async def rating(
        self, platform: str, community: str, player: str, variant: str
    ) -> RatingRow | None:
        row = await self._one(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE platform = ? AND community = ? "
            "AND player = ? AND variant = ?",
            (platform, community, player, variant),
        )
        return RatingRow(*row) if row else None

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the rated games, in the order they were rated (games
        rated before ratings existed: by when they finished); how many games count."""
        async with self._write() as db:
            return await self._rebuild(db)

    @classmethod
    async def _rebuild(cls, db: aiosqlite.Connection) -> int:
        rows = await db.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE rated = 1 AND status = 'finished' "
            "ORDER BY rated_seq IS NULL, rated_seq, finished_at, id"
        )
        await db.execute("DELETE FROM ratings")
        await db.execute("DELETE FROM rating_changes")
        await db.execute("UPDATE games SET rated_seq = NULL WHERE rated_seq IS NOT NULL")
        count = 0
        for row in rows:
            game = _game(row)
            if game.rateable:
                await cls._rate(db, game)
                count += 1
        await db.execute(
            "INSERT OR REPLACE INTO ratings_state (key, value) VALUES ('rebuilt', ?)", (str(count),)
        )
        return count

    async def ratings_of(self, platform: str, community: str, player: str) -> list[RatingRow]:
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE platform = ? AND community = ? "
            "AND player = ? ORDER BY variant",
            (platform, community, player),
        )
        return [RatingRow(*row) for row in rows]

    async def leaderboard(
        self, platform: str, community: str, variant: str, *, offset: int = 0, limit: int = 10
    ) -> list[RatingRow]:
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE {_BOARD} "
            "ORDER BY rating DESC, player LIMIT ? OFFSET ?",
            (platform, community, variant, limit, offset),
        )
        return [RatingRow(*row) for row in rows]

    async def leaderboard_size(self, platform: str, community: str, variant: str) -> int:
        row = await self._one(
            f"SELECT count(*) FROM ratings WHERE {_BOARD}", (platform, community, variant)
        )
        return int(row[0])

    async def leaderboard_place(self, platform: str, community: str, mine: RatingRow) -> int | None:
        if mine.deviation > glicko2.PROVISIONAL_DEVIATION:
            return None
        board = (platform, community, mine.variant)
        row = await self._one(
            f"SELECT (SELECT count(*) FROM ratings WHERE {_BOARD} AND rating > ?) + "
            f"(SELECT count(*) FROM ratings WHERE {_BOARD} AND rating = ? AND player < ?)",
            (*board, mine.rating, *board, mine.rating, mine.player),
        )
        return int(row[0]) + 1

    async def finished_games(
        self,
        platform: str,
        community: str,
        player: str,
        *,
        variant: str | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[GameRow]:
        where, params = _players_games(platform, community, player, variant)
        rows = await self._all(
            f"{where} ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [_game(row) for row in rows]

    async def count_finished_games(self, platform: str, community: str, player: str) -> int:
        where, params = _players_games(platform, community, player, None, columns="id")
        row = await self._one(f"SELECT count(*) FROM ({where})", params)
        return int(row[0])

    async def player_changes(self, player: str, game_ids: Sequence[int]) -> dict[int, RatingChange]:
        if not game_ids:
            return {}
        marks = ", ".join("?" * len(game_ids))
        rows = await self._all(
            "SELECT game_id, player, rating_before, deviation_before, rating_after, "
            f"deviation_after FROM rating_changes WHERE game_id IN ({marks}) AND player = ?",
            (*game_ids, player),
        )
        return {row[0]: RatingChange(*row) for row in rows}

    async def best_win(
        self, platform: str, community: str, player: str, variant: str
    ) -> RatingChange | None:
        won, params = _players_games(platform, community, player, variant, columns="id", won=True)
        row = await self._one(
            "SELECT game_id, player, rating_before, deviation_before, rating_after, "
            f"deviation_after FROM rating_changes WHERE game_id IN ({won}) AND player != ? "
            "ORDER BY rating_before DESC, game_id LIMIT 1",
            (*params, player),
        )
        return RatingChange(*row) if row else None

    async def rating_changes(self, game: GameRow) -> list[RatingChange]:
        """What ``game`` did (or, finished but not yet written, will do) to its players'
        ratings in its community, sente first; [] for a game that changes no rating.

        The preview (for a result announced in the transaction that writes it) differs from
        what is applied only when another game of the same player and variant finishes in
        between."""
        if not game.rateable:
            return []
        rows = await self._all(
            "SELECT player, rating_before, deviation_before, rating_after, deviation_after "
            "FROM rating_changes WHERE game_id = ?",
            (game.id,),
        )
        if rows:
            order = {game.sente: 0, game.gote: 1}
            return sorted(
                (RatingChange(game.id, *row) for row in rows), key=lambda c: order.get(c.player, 2)
            )
        async with self._lock:
            done = await (
                await self._db.execute("SELECT rated_seq FROM games WHERE id = ?", (game.id,))
            ).fetchone()
            if done is not None and done[0] is not None:
                return []  # rated before changes were kept
            updates = await self._rating_updates(self._db, game)
        return [
            RatingChange(game.id, u.player, u.before.rating, u.before.deviation,
                         u.after.rating, u.after.deviation)
            for u in updates
            if u.community == game.chat.community_id
        ]  # fmt: skip

    @staticmethod
    async def _rating_updates(db: aiosqlite.Connection, game: GameRow) -> list[_RatingUpdate]:
        """The new ratings ``game`` gives its players, in its community and then over the
        platform (each player's rating first aged by the days since their last game)."""
        when = game.finished_at if game.finished_at is not None else game.updated_at
        score = 0.5 if game.winner is None else (1.0 if game.winner == 0 else 0.0)
        updates = []
        for community in (game.chat.community_id, ""):
            before: list[glicko2.Rating] = []
            stored: list[Any] = []
            for player in (game.sente, game.gote):
                row = await (
                    await db.execute(
                        f"SELECT {_RATING_COLUMNS} FROM ratings WHERE platform = ? "
                        "AND community = ? AND player = ? AND variant = ?",
                        (game.chat.platform, community, player, game.variant),
                    )
                ).fetchone()
                stored.append(row)
                if row is None:
                    before.append(glicko2.Rating())
                else:
                    days = max(0.0, when - (row[11] if row[11] is not None else when)) / 86400
                    before.append(glicko2.age(glicko2.Rating(row[4], row[5], row[6]), days))
            for side, player in enumerate((game.sente, game.gote)):
                mine = score if side == 0 else 1.0 - score
                after = glicko2.update(before[side], [(before[1 - side], mine)])
                old = stored[side]
                games, wins, losses, draws = (0, 0, 0, 0) if old is None else old[7:11]
                row = RatingRow(
                    game.chat.platform,
                    community,
                    player,
                    game.variant,
                    after.rating,
                    after.deviation,
                    after.volatility,
                    games + 1,
                    wins + (mine == 1.0),
                    losses + (mine == 0.0),
                    draws + (mine == 0.5),
                    when,
                )
                updates.append(_RatingUpdate(community, player, before[side], after, row))
        return updates

    @classmethod
    async def _rate(cls, db: aiosqlite.Connection, game: GameRow) -> None:
        """Apply the finished ``game`` to its players' ratings (in its community and over the
        platform), once: ``rated_seq`` marks it done and orders a rebuild."""
        done = await (
            await db.execute("SELECT rated_seq FROM games WHERE id = ?", (game.id,))
        ).fetchone()
        if done is None or done[0] is not None:
            return
        seq = await (
            await db.execute(
                "SELECT max(rated_seq) FROM games INDEXED BY games_rated_seq "
                "WHERE rated_seq IS NOT NULL"
            )
        ).fetchone()
        await db.execute(
            "UPDATE games SET rated_seq = ? WHERE id = ?", ((seq[0] or 0) + 1, game.id)
        )
        for u in await cls._rating_updates(db, game):
            r = u.row
            await db.execute(
                f"INSERT OR REPLACE INTO ratings ({_RATING_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (r.platform, r.community, r.player, r.variant, r.rating, r.deviation,
                 r.volatility, r.games, r.wins, r.losses, r.draws, r.last_played),
            )  # fmt: skip
            if u.community == game.chat.community_id:
                await db.execute(
                    "INSERT OR REPLACE INTO rating_changes (game_id, player, rating_before, "
                    "deviation_before, rating_after, deviation_after) VALUES (?, ?, ?, ?, ?, ?)",
                    (game.id, u.player, u.before.rating, u.before.deviation, u.after.rating,
                     u.after.deviation),
                )  # fmt: skip

    # --- timers -------------------------------------------------------------------------

    @staticmethod
    async def _insert_timers(db: aiosqlite.Connection, timers: Sequence[NewTimer]) -> None:
        if not timers:
            return  # no trip to the database thread for nothing
        await db.executemany(
            "INSERT INTO timers (kind, due_at, game_id, challenge_id, game_version, offset_s) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (t.kind.value, t.due_at, t.game_id, t.challenge_id, t.game_version, t.offset)
                for t in timers
            ],
        )

    async def due_timers(self, now: float, limit: int = 100) -> list[TimerRow]:
        rows = await self._all(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE fired_at IS NULL AND due_at <= ? "
            "AND (next_attempt_at IS NULL OR next_attempt_at <= ?) "
            "ORDER BY due_at, id LIMIT ?",
            (now, now, limit),
        )
        return [_timer(r) for r in rows]

    async def next_due(self) -> float | None:
        row = await self._one(
            "SELECT coalesce(next_attempt_at, due_at) FROM timers INDEXED BY timers_next "
            "WHERE fired_at IS NULL ORDER BY coalesce(next_attempt_at, due_at) LIMIT 1"
        )
        return float(row[0]) if row and row[0] is not None else None

    async def mark_fired(
        self, timer_ids: Sequence[int], now: float, notices: Sequence[NewNotice] = ()
    ) -> list[int]:
        claimed = []
        async with self._write() as db:
            for tid in timer_ids:
                cur = await db.execute(
                    "DELETE FROM timers WHERE id = ? AND fired_at IS NULL", (tid,)
                )
                if cur.rowcount == 1:
                    claimed.append(tid)
            if notices and timer_ids and timer_ids[-1] in claimed:
                await self._insert_notices(db, notices)
        return claimed

    async def postpone_timer(self, timer_id: int, until: float) -> int:
        async with self._write() as db:
            await db.execute(
                "UPDATE timers SET attempts = attempts + 1, next_attempt_at = ? "
                "WHERE id = ? AND fired_at IS NULL",
                (until, timer_id),
            )
            row = await (
                await db.execute("SELECT attempts FROM timers WHERE id = ?", (timer_id,))
            ).fetchone()
        return int(row[0]) if row else 0

    async def pending_timers(self, game_id: int) -> list[TimerRow]:
        """The game's timers still to fire (for tests and the console)."""
        rows = await self._all(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? AND fired_at IS NULL "
            "ORDER BY due_at",
            (game_id,),
        )
        return [_timer(r) for r in rows]

    # --- notices (the outbox) ---------------------------------------------------------

    @staticmethod
    async def _insert_notices(db: aiosqlite.Connection, notices: Sequence[NewNotice]) -> None:
        if not notices:
            return  # no trip to the database thread for nothing
        await db.executemany(
            "INSERT INTO outbox (kind, platform, chat_id, thread_id, payload, dedupe_key, "
            "created_at, game_id, game_deadline, fallback_chat_id, fallback_thread_id, "
            "fallback_payload, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    n.kind,
                    n.chat.platform,
                    n.chat.chat_id,
                    n.chat.thread_id,
                    n.payload,
                    n.key,
                    n.created_at,
                    n.game_id,
                    n.game_deadline,
                    n.fallback.chat_id if n.fallback else None,
                    n.fallback.thread_id if n.fallback else None,
                    n.fallback_payload,
                    n.created_at,
                )
                for n in notices
            ],
        )

    async def queue_notices(self, notices: Sequence[NewNotice]) -> None:
        async with self._write() as db:
            await self._insert_notices(db, notices)

    async def claim_notices(
        self, platforms: Sequence[str], now: float, owner: str, until: float, limit: int = 1
    ) -> list[NoticeRow]:
        if not platforms:
            return []
        marks = ", ".join("?" for _ in platforms)
        due = (
            f"SELECT id FROM outbox WHERE state = 'pending' AND platform IN ({marks}) "
            "AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?"
        )
        if not await self._all(due, (*platforms, now, 1)):
            return []  # nothing due: no write transaction
        async with self._write() as db:
            rows = list(await (await db.execute(due, (*platforms, now, limit))).fetchall())
            claimed = []
            for (nid,) in rows:
                await db.execute(
                    "UPDATE outbox SET attempts = attempts + 1, claimed_by = ?, "
                    "claimed_until = ?, next_attempt_at = ? WHERE id = ?",
                    (owner, until, until, nid),
                )
                row = await (
                    await db.execute(f"SELECT {_NOTICE_COLUMNS} FROM outbox WHERE id = ?", (nid,))
                ).fetchone()
                claimed.append(_notice(row))
        return claimed

    async def renew_notice(self, notice_id: int, owner: str, until: float) -> bool:
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE outbox SET claimed_until = ?, next_attempt_at = ? "
                "WHERE id = ? AND claimed_by = ? AND state = 'pending'",
                (until, until, notice_id, owner),
            )
            return cur.rowcount == 1

    async def retry_notice(
        self, notice_id: int, owner: str, at: float, error: str, *, to_fallback: bool = False
    ) -> None:
        move = (
            ", chat_id = fallback_chat_id, thread_id = fallback_thread_id, "
            "payload = fallback_payload, fallback_chat_id = NULL, fallback_thread_id = NULL, "
            "fallback_payload = NULL"
            if to_fallback
            else ""
        )
        async with self._write() as db:
            await db.execute(
                "UPDATE outbox SET next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL, "
                f"last_error = ?{move} WHERE id = ? AND claimed_by = ? AND state = 'pending'"
                + (" AND fallback_chat_id IS NOT NULL" if to_fallback else ""),
                (at, error[:500], notice_id, owner),
            )

    async def finish_notice(
        self, notice_id: int, state: NoticeState, now: float, error: str | None = None
    ) -> None:
        # A delivered message keeps its words (to look into) but not its pictures and files:
        # a board image is tens of kilobytes, and the bot posts one with each of its moves.
        async with self._write() as db:
            await db.execute(
                "UPDATE outbox SET state = ?, done_at = ?, claimed_by = NULL, "
                "claimed_until = NULL, last_error = coalesce(?, last_error), "
                "payload = CASE WHEN ? = 'delivered' AND json_valid(payload) "
                "THEN json_set(payload, '$.image', NULL, '$.files', json('[]')) "
                "ELSE payload END WHERE id = ? AND state = 'pending'",
                (state.value, now, error[:500] if error else None, state.value, notice_id),
            )

    async def next_notice_due(self, platforms: Sequence[str]) -> float | None:
        if not platforms:
            return None
        marks = ", ".join("?" for _ in platforms)
        row = await self._one(
            "SELECT min(next_attempt_at) FROM outbox WHERE state = 'pending' "
            f"AND platform IN ({marks})",
            tuple(platforms),
        )
        return float(row[0]) if row and row[0] is not None else None

    async def prune_notices(self, before: float, *, batch: int = PRUNE_BATCH) -> int:
        """Delete notices settled before ``before`` and pending ones queued before it, in
        transactions of at most ``batch`` rows (others' requests run between them)."""
        settled = tuple(s.value for s in NoticeState if s is not NoticeState.PENDING)
        marks = ", ".join("?" for _ in settled)
        queries = (
            (
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox INDEXED BY outbox_done "
                f"WHERE state IN ({marks}) AND done_at < ? LIMIT ?)",
                (*settled, before, batch),
            ),
            (
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox INDEXED BY "
                "outbox_pending_age WHERE state = 'pending' AND created_at < ? LIMIT ?)",
                (before, batch),
            ),
        )
        gone = 0
        for sql, params in queries:
            while True:
                async with self._write() as db:
                    count = int((await db.execute(sql, params)).rowcount)
                gone += count
                if count < batch:
                    break
        return gone

    async def notices(self, game_id: int | None = None) -> list[NoticeRow]:
        """Every queued message (of one game), oldest first (for tests and diagnosis)."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        rows = await self._all(f"SELECT {_NOTICE_COLUMNS} FROM outbox {where} ORDER BY id", params)
        return [_notice(r) for r in rows]

    # --- settings -----------------------------------------------------------------------

    async def get_settings(self, chat: ChatKey) -> ChatSettings:
        row = await self._one(
            "SELECT notation, piece_style, perspective, language, bare_moves, threads "
            "FROM chat_settings WHERE platform = ? AND chat_id = ?",
            (chat.platform, chat.chat_id),
        )
        if not row:
            return ChatSettings()
        return ChatSettings(*row[:4], bare_moves=bool(row[4]), threads=bool(row[5]))

    async def save_settings(self, chat: ChatKey, settings: ChatSettings) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO chat_settings (platform, chat_id, notation, piece_style, "
                "perspective, language, bare_moves, threads) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (platform, chat_id) DO UPDATE SET notation = excluded.notation, "
                "piece_style = excluded.piece_style, perspective = excluded.perspective, "
                "language = excluded.language, bare_moves = excluded.bare_moves, "
                "threads = excluded.threads",
                (
                    chat.platform,
                    chat.chat_id,
                    settings.notation,
                    settings.piece_style,
                    settings.perspective,
                    settings.language,
                    int(settings.bare_moves),
                    int(settings.threads),
                ),
            )

    async def get_reminder_route(self, user_key: str) -> ReminderRoute:
        row = await self._one("SELECT reminders FROM users WHERE key = ?", (user_key,))
        return ReminderRoute(row[0]) if row else ReminderRoute.CHAT

    async def set_reminder_route(self, user_key: str, route: ReminderRoute) -> None:
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE users SET reminders = ? WHERE key = ?", (route.value, user_key)
            )
            if cur.rowcount != 1:
                platform, _, uid = user_key.partition(":")
                await db.execute(
                    "INSERT INTO users (key, platform, user_id, name, name_lower, reminders) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (user_key, platform, uid, uid, uid.lower(), route.value),
                )

    # --- front-end state ----------------------------------------------------------------

    async def put_state(self, platform: str, kind: str, key: str, value: str) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO frontend_state (platform, kind, key, value, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, kind, key) DO UPDATE SET "
                "value = excluded.value, updated_at = excluded.updated_at",
                (platform, kind, key, value, time.time()),
            )

    async def get_state(self, platform: str, kind: str, key: str) -> str | None:
        row = await self._one(
            "SELECT value FROM frontend_state WHERE platform = ? AND kind = ? AND key = ?",
            (platform, kind, key),
        )
        return str(row[0]) if row else None

    async def delete_state(self, platform: str, kind: str, key: str) -> None:
        async with self._write() as db:
            await db.execute(
                "DELETE FROM frontend_state WHERE platform = ? AND kind = ? AND key = ?",
                (platform, kind, key),
            )

    async def prune_state(self, platform: str, kind: str, before: float) -> int:
        async with self._write() as db:
            cur = await db.execute(
                "DELETE FROM frontend_state WHERE platform = ? AND kind = ? AND updated_at < ?",
                (platform, kind, before),
            )
            return int(cur.rowcount)
