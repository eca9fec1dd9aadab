"""The :class:`Store` on one SQLite file through aiosqlite (WAL, numbered migrations).

One connection, one lock: every public method is a whole transaction, so coroutines never see
each other's half-written state.  Games are updated with a version check (optimistic locking),
which also holds when several processes share the file.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.errors import StoreOpenError, VersionConflict
from bot.store.migrations import APPLICATION_ID, LATEST, MIGRATIONS
from bot.store.models import (
    ChallengeRow,
    ChallengeStatus,
    ChatKey,
    ChatSettings,
    GameRow,
    GameStatus,
    NewTimer,
    ReminderRoute,
    TimerKind,
    TimerRow,
    UserRow,
)

SQLITE_MAGIC = b"SQLite format 3\x00"

_GAME_COLUMNS = (
    "id, platform, chat_id, thread_id, variant, start_sfen, moves, version, sente, gote, "
    "status, termination, winner, time_per_move, deadline, draw_offer, takeback_offer, "
    "created_at, updated_at, finished_at, challenge_id"
)
_CHALLENGE_COLUMNS = (
    "id, platform, chat_id, thread_id, challenger, challenged, variant, color, time_per_move, "
    "status, created_at, expires_at, game_id"
)
_TIMER_COLUMNS = "id, kind, due_at, game_id, challenge_id, game_version, offset_s, fired_at"


def _game(row: Any) -> GameRow:
    return GameRow(
        id=row[0],
        chat=ChatKey(row[1], row[2], row[3]),
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


class SqliteStore:
    """The store on one SQLite file. Create with :meth:`open`."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()

    # --- opening ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: Path | str, *, sync: str = "full", target_version: int = LATEST
    ) -> SqliteStore:
        """Open (or create) the database, check it is Komabot's and migrate it.

        Raises StoreOpenError for a corrupt, foreign or newer file; such a file is not changed.
        ``target_version`` below the latest is for migration tests only.
        """
        path = Path(path)
        check_file(path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreOpenError(f"cannot open database {path}: {exc}") from None
        try:
            await cls._check(db, path)
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute(f"PRAGMA synchronous={'FULL' if sync == 'full' else 'NORMAL'}")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA busy_timeout=5000")
            await cls._migrate(db, target_version)
        except sqlite3.DatabaseError as exc:
            await db.close()
            raise StoreOpenError(
                f"{path} is not a usable SQLite database ({exc}); Komabot left it untouched"
            ) from None
        except BaseException:
            await db.close()
            raise
        return cls(db, path)

    @staticmethod
    async def _check(db: aiosqlite.Connection, path: Path) -> None:
        app_id = (await (await db.execute("PRAGMA application_id")).fetchone() or (0,))[0]
        version = (await (await db.execute("PRAGMA user_version")).fetchone() or (0,))[0]
        tables = list(
            await (
                await db.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
            ).fetchall()
        )
        if app_id == 0 and version == 0 and not tables:
            return  # a new, empty database
        if app_id != APPLICATION_ID:
            raise StoreOpenError(
                f"{path} is an SQLite database of another program (application id {app_id}, "
                f"{len(tables)} tables); Komabot left it untouched. Set KOMABOT_DB to another path."
            )
        if version > LATEST:
            raise StoreOpenError(
                f"{path} has schema version {version}, newer than this Komabot knows "
                f"({LATEST}); upgrade Komabot. The file was left untouched."
            )
        rows = list(await (await db.execute("PRAGMA quick_check")).fetchall())
        if [r[0] for r in rows] != ["ok"]:
            detail = "; ".join(str(r[0]) for r in rows[:3])
            raise StoreOpenError(f"{path} is damaged ({detail}); Komabot left it untouched")

    @staticmethod
    async def _migrate(db: aiosqlite.Connection, target: int) -> None:
        version = (await (await db.execute("PRAGMA user_version")).fetchone() or (0,))[0]
        for migration in MIGRATIONS:
            if migration.version <= version or migration.version > target:
                continue
            await db.execute("BEGIN IMMEDIATE")
            try:
                if migration.version == 1:
                    await db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                for statement in split_sql(migration.sql):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version={migration.version}")
                await db.execute("COMMIT")
            except BaseException:
                await db.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self._lock:
            row = await (await self._db.execute("PRAGMA user_version")).fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    # --- transactions -------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            return list(await (await self._db.execute(sql, params)).fetchall())

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        async with self._lock:
            return await (await self._db.execute(sql, params)).fetchone()

    # --- users --------------------------------------------------------------------------

    async def save_user(self, user: UserRow) -> None:
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

    async def find_user(self, platform: str, name: str) -> UserRow | None:
        row = await self._one(
            "SELECT key, platform, user_id, name FROM users WHERE platform = ? AND "
            "(name_lower = ? OR user_id = ?) ORDER BY name_lower = ? DESC LIMIT 1",
            (platform, name.lower(), name, name.lower()),
        )
        return UserRow(*row) if row else None

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
    ) -> ChallengeRow:
        async with self._write() as db:
            cur = await db.execute(
                "INSERT INTO challenges (platform, chat_id, thread_id, challenger, challenged, "
                "variant, color, time_per_move, status, created_at, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
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
        )

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return _challenge(row) if row else None

    async def open_challenges(self, chat: ChatKey) -> list[ChallengeRow]:
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE platform = ? AND chat_id = ? "
            "AND status = 'open' ORDER BY id",
            (chat.platform, chat.chat_id),
        )
        return [_challenge(r) for r in rows]

    async def close_challenge(self, challenge_id: int, status: ChallengeStatus) -> ChallengeRow:
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
                (status.value, challenge_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"challenge {challenge_id} is no longer open")
            await db.execute(
                "UPDATE timers SET fired_at = -1 WHERE challenge_id = ? AND fired_at IS NULL",
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
            cur = await db.execute(
                "INSERT INTO games (platform, chat_id, thread_id, variant, start_sfen, moves, "
                "version, sente, gote, status, termination, winner, time_per_move, deadline, "
                "draw_offer, takeback_offer, created_at, updated_at, finished_at, challenge_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                self._game_values(game),
            )
            gid = cur.lastrowid
            assert gid is not None
            cur = await db.execute(
                "UPDATE challenges SET status = 'accepted', game_id = ? "
                "WHERE id = ? AND status = 'open'",
                (gid, challenge_id),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"challenge {challenge_id} is no longer open")
            await db.execute(
                "UPDATE timers SET fired_at = -1 WHERE challenge_id = ? AND fired_at IS NULL",
                (challenge_id,),
            )
            await self._insert_timers(
                db,
                [NewTimer(t.kind, t.due_at, gid, None, t.game_version, t.offset) for t in timers],
            )
        from dataclasses import replace

        return replace(game, id=gid)

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

    async def active_games_in_chat(self, chat: ChatKey) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'active' ORDER BY id",
            (chat.platform, chat.chat_id),
        )
        return [_game(r) for r in rows]

    async def active_games_of(self, user_key: str) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' AND sente = ? "
            f"UNION SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' AND gote = ? "
            "ORDER BY id",
            (user_key, user_key),
        )
        return [_game(r) for r in rows]

    async def last_game(self, chat: ChatKey, user_key: str) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE platform = ? AND chat_id = ? AND "
            "(sente = ? OR gote = ?) ORDER BY status = 'active' DESC, id DESC LIMIT 1",
            (chat.platform, chat.chat_id, user_key, user_key),
        )
        return _game(row) if row else None

    async def count_active_games(self) -> int:
        row = await self._one("SELECT count(*) FROM games WHERE status = 'active'")
        return int(row[0])

    async def update_game(self, game: GameRow, timers: Sequence[NewTimer] | None = None) -> GameRow:
        from dataclasses import replace

        new = replace(game, version=game.version + 1)
        async with self._write() as db:
            values = self._game_values(new)
            cur = await db.execute(
                "UPDATE games SET platform = ?, chat_id = ?, thread_id = ?, variant = ?, "
                "start_sfen = ?, moves = ?, version = ?, sente = ?, gote = ?, status = ?, "
                "termination = ?, winner = ?, time_per_move = ?, deadline = ?, draw_offer = ?, "
                "takeback_offer = ?, created_at = ?, updated_at = ?, finished_at = ?, "
                "challenge_id = ? WHERE id = ? AND version = ?",
                (*values, game.id, game.version),
            )
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game.id} changed since version {game.version}")
            if timers is not None:
                await db.execute(
                    "UPDATE timers SET fired_at = -1 WHERE game_id = ? AND fired_at IS NULL",
                    (game.id,),
                )
                await self._insert_timers(db, timers)
        return new

    # --- timers -------------------------------------------------------------------------

    @staticmethod
    async def _insert_timers(db: aiosqlite.Connection, timers: Sequence[NewTimer]) -> None:
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
            "ORDER BY due_at, id LIMIT ?",
            (now, limit),
        )
        return [_timer(r) for r in rows]

    async def next_due(self) -> float | None:
        row = await self._one("SELECT min(due_at) FROM timers WHERE fired_at IS NULL")
        return float(row[0]) if row and row[0] is not None else None

    async def mark_fired(self, timer_ids: Sequence[int], now: float) -> list[int]:
        claimed = []
        async with self._write() as db:
            for tid in timer_ids:
                cur = await db.execute(
                    "UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL", (now, tid)
                )
                if cur.rowcount == 1:
                    claimed.append(tid)
        return claimed

    async def pending_timers(self, game_id: int) -> list[TimerRow]:
        """The game's timers still to fire (for tests and the console)."""
        rows = await self._all(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? AND fired_at IS NULL "
            "ORDER BY due_at",
            (game_id,),
        )
        return [_timer(r) for r in rows]

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
