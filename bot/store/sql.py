"""What both SQL backends share: every query of the :class:`~bot.store.interface.Store`,
written once over a small transaction interface (:class:`Tx`), the mapping of rows to models,
and the rating of finished games.

The SQL is the common part of SQLite's and PostgreSQL's: ``?`` placeholders (PostgreSQL's
transaction numbers them), ``ON CONFLICT`` upserts, no ``INSERT OR REPLACE``.  What differs
(index hints, "no limit", JSON functions, row locks, advisory locks) is asked of the backend
through the few hooks at the top of :class:`SqlStore`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from bot import glicko2
from bot.store.errors import ChallengeAlreadyOpen, VersionConflict
from bot.store.models import (
    ENGINE_PLAYER,
    AnalysisRequest,
    AnalysisRow,
    ChallengeRow,
    ChallengeStatus,
    ChatKey,
    ChatSettings,
    DailyPuzzleChat,
    DailySolve,
    GameRow,
    GameStatus,
    NewNotice,
    NewTimer,
    NoticeRow,
    NoticeState,
    PuzzleOutcome,
    PuzzleRating,
    PuzzleSession,
    RatingChange,
    RatingRow,
    ReminderRoute,
    TimerKind,
    TimerRow,
    UserRow,
)

T = TypeVar("T")

PRUNE_BATCH = 1000
"""At most this many notices are deleted in one transaction by :meth:`SqlStore.prune_notices`."""


class Tx(Protocol):
    """One open transaction (or, for reads, one connection) of a backend."""

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of a query (each indexable by column number)."""
        ...

    async def row(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first row of a query; None when there is none."""
        ...

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""
        ...

    async def run_many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        """Run a statement once per parameter tuple."""
        ...

    async def insert(self, sql: str, params: Sequence[Any]) -> int | None:
        """Run an INSERT of one row into a table with an ``id`` key; the new id, or None when
        its ``ON CONFLICT DO NOTHING`` left the row out."""
        ...


RATED_GAME_COLUMNS = (
    "id, platform, chat_id, thread_id, variant, start_sfen, moves, version, sente, gote, "
    "status, termination, winner, time_per_move, deadline, draw_offer, takeback_offer, "
    "created_at, updated_at, finished_at, challenge_id, engine_level, engine_scores, rated, "
    "community"
)
"""The columns of a game the rating code reads: all there at RATINGS_VERSION (the ratings of
a database opened at that version in tests are rebuilt from them)."""
GAME_COLUMNS = RATED_GAME_COLUMNS + ", main_time, sente_time_left, gote_time_left"
WRITTEN_GAME_COLUMNS = tuple(GAME_COLUMNS.split(", ")[1:])
"""The columns :meth:`SqlStore._game_values` gives the values of, in its order (all but id)."""
_UPDATE_GAME = (
    f"UPDATE games SET {', '.join(f'{c} = ?' for c in WRITTEN_GAME_COLUMNS)} "
    "WHERE id = ? AND version = ?"
)
_INSERT_GAME = (
    f"INSERT INTO games ({', '.join(WRITTEN_GAME_COLUMNS)}) "
    f"VALUES ({', '.join('?' * len(WRITTEN_GAME_COLUMNS))})"
)
_BOT_TO_MOVE = (
    "(CASE WHEN ' ' || start_sfen || ' ' LIKE '% w %' THEN 1 ELSE 0 END"
    " + CASE WHEN moves = '' THEN 0 ELSE length(moves) - length(replace(moves, ' ', '')) + 1 END"
    " + CASE WHEN sente = ? THEN 0 ELSE 1 END) % 2 = 0"
)
"""A game against the bot where the bot is to move (``engine_player`` the parameter): the side
to move (the start position's, then one per move: ``moves`` is space-separated, as written)
is the bot's side, as :attr:`GameRow.side_to_move` and ``engine_color`` say, counted in the
database so that the look for turns nobody holds reads only those games, not every game
against the bot."""
RATING_COLUMNS = (
    "platform, community, player, variant, rating, deviation, volatility, games, wins, losses, "
    "draws, last_played"
)
CHALLENGE_COLUMNS = (
    "id, platform, chat_id, thread_id, challenger, challenged, variant, color, time_per_move, "
    "status, created_at, expires_at, game_id, rated, handicap, main_time"
)
TIMER_COLUMNS = (
    "id, kind, due_at, game_id, challenge_id, game_version, offset_s, fired_at, attempts, "
    "next_attempt_at"
)
NOTICE_COLUMNS = (
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
    columns: str = GAME_COLUMNS,
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
    """One rating row a finished game writes (see SqlStore._rating_updates)."""

    community: str
    player: str
    before: glicko2.Rating
    after: glicko2.Rating
    row: RatingRow


def game_of(row: Any) -> GameRow:
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
        main_time=row[25] if len(row) > 25 else None,  # not among RATED_GAME_COLUMNS
        time_left=None if len(row) < 28 or row[26] is None else (row[26], row[27]),
    )


def challenge_of(row: Any) -> ChallengeRow:
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
        handicap=row[14],
        main_time=row[15],
    )


def timer_of(row: Any) -> TimerRow:
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


def notice_of(row: Any) -> NoticeRow:
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


PUZZLE_SESSION_COLUMNS = (
    "player, platform, community, chat_id, puzzle_id, moves, failed, hints, hint_ply, "
    "started_at, updated_at, daily_day"
)
PUZZLE_RATING_COLUMNS = (
    "platform, community, player, rating, deviation, volatility, attempts, updated_at"
)
_PUZZLE_BOARD = f"platform = ? AND community = ? AND deviation <= {glicko2.PROVISIONAL_DEVIATION}"


_DAILY_COLUMNS = "platform, chat_id, thread_id, community, minute, next_at"


def daily_chat_of(row: Any) -> DailyPuzzleChat:
    platform, chat_id, thread_id, community = row[:4]
    chat = ChatKey(platform, chat_id, thread_id, community if community != chat_id else None)
    return DailyPuzzleChat(chat, int(row[4]), float(row[5]))


def puzzle_session_of(row: Any) -> PuzzleSession:
    player, platform, community, chat_id, puzzle_id, moves, failed, hints = row[:8]
    return PuzzleSession(
        player, platform, community, chat_id, puzzle_id, tuple(moves.split()), bool(failed),
        int(hints), int(row[8]), float(row[9]), float(row[10]), str(row[11]),
    )  # fmt: skip


class SqlStore:
    """Every query of the store over :class:`Tx`; a backend supplies the transactions and
    the hooks below."""

    _NO_LIMIT: Any = None
    """The ``LIMIT ?`` parameter that means no limit."""
    _LOCK_DUE = ""
    """What a claiming SELECT ends with so that concurrent claims take different rows."""
    _WITHOUT_PICTURES = "payload"
    """An expression of ``payload``: the JSON payload without its image and files."""
    read_only: str | None = None
    """Why the store takes no writes (set by the backend when it opens), or None."""

    # --- what a backend supplies --------------------------------------------------------

    async def close(self) -> None:
        """Close the connections; the store is unusable afterwards."""
        raise NotImplementedError

    def _write(self) -> AbstractAsyncContextManager[Tx]:
        """One write transaction; ReadOnlyStore or StoreFull when the database refuses it."""
        raise NotImplementedError

    def _read(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for several reads in a row."""
        raise NotImplementedError

    async def _transact(self, body: Callable[[Tx], Coroutine[Any, Any, T]]) -> T:
        """``body`` as one write transaction (as :meth:`_write`); what it returns.  ``body``
        awaits nothing but its ``tx``, so a backend may run it whole where its connection
        lives, and write it in one commit with others (SQLite: bot.store.group_commit)."""
        async with self._write() as tx:
            return await body(tx)

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement as a write transaction of its own (by :meth:`_transact`); how many
        rows it changed."""

        async def body(tx: Tx) -> int:
            return await tx.run(sql, params)

        return await self._transact(body)

    def _snapshot(self) -> AbstractAsyncContextManager[Tx]:
        """Reads that all see the database as it stood at one moment (to copy a live one).
        Without more from the backend: this process's reads, one after another."""
        return self._read()

    def _indexed(self, index: str) -> str:
        """A hint to read a table through ``index`` (SQLite's ``INDEXED BY``; else '')."""
        return ""

    async def _lock_chat(self, tx: Tx, chat: ChatKey) -> None:
        """Hold back other transactions starting a game in ``chat`` until ``tx`` ends (a
        backend whose writers take turns needs nothing)."""

    async def _lock_ratings(self, tx: Tx) -> None:
        """Hold back other transactions writing ratings until ``tx`` ends."""

    async def _columns(self, table: str) -> list[str]:
        """The names of ``table``'s columns, in order."""
        raise NotImplementedError

    async def _ids_follow(self, tx: Tx, table: str) -> None:
        """After rows were written with their ids: the ids ``table`` assigns come after them
        (SQLite's AUTOINCREMENT sees to it itself)."""

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._read() as tx:
            return await tx.rows(sql, params)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The row of a query that has at most one (by key, ``LIMIT 1`` or an aggregate);
        None when there is none."""
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    def _limit(self, limit: int | None) -> Any:
        return self._NO_LIMIT if limit is None else limit

    # --- users --------------------------------------------------------------------------

    async def save_user(self, user: UserRow) -> None:
        row = await self._one("SELECT name FROM users WHERE key = ?", (user.key,))
        if row is not None and row[0] == user.name:
            return  # nothing changed: no write (a read-only database still serves)
        await self._run(
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
        handicap: str | None = None,
        main_time: int | None = None,
    ) -> ChallengeRow:
        async with self._write() as tx:
            # ``rated`` is written only for a casual challenge (the column's default is
            # rated), ``handicap`` only for a handicap one (migration 13), ``main_time`` only
            # with main time (15), so that databases at older versions still take challenges
            # in tests.
            extra = (
                ("" if rated else ", rated")
                + (", handicap" if handicap else "")
                + (", main_time" if main_time else "")
            )
            marks = ", ?" * extra.count(",")
            cid = await tx.insert(
                "INSERT INTO challenges (platform, chat_id, thread_id, challenger, "
                "challenged, variant, color, time_per_move, status, created_at, expires_at"
                f"{extra}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{marks}) "
                "ON CONFLICT DO NOTHING",
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
                    *((handicap,) if handicap else ()),
                    *((main_time,) if main_time else ()),
                ),
            )
            if cid is None:  # the index challenges_one_open (migration 6) held it back
                row = await tx.row(
                    "SELECT id FROM challenges WHERE platform = ? AND chat_id = ? AND "
                    "challenger = ? AND status = 'open'",
                    (chat.platform, chat.chat_id, challenger),
                )
                raise ChallengeAlreadyOpen(row[0] if row else None)
            await self._insert_timers(
                tx, [NewTimer(TimerKind.CHALLENGE_EXPIRY, expires_at, challenge_id=cid)]
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
            handicap=handicap,
            main_time=main_time,
        )

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return challenge_of(row) if row else None

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
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE {where} ORDER BY {order} LIMIT ?",
            (*params, self._limit(limit)),
        )
        return [challenge_of(r) for r in rows]

    async def count_open_challenges(
        self, chat: ChatKey, *, by: str | None = None, to: str | None = None
    ) -> int:
        where, params = self._open_where(chat, by, to)
        row = await self._one(f"SELECT count(*) FROM challenges WHERE {where}", params)
        return int(row[0])

    async def close_challenge(self, challenge_id: int, status: ChallengeStatus) -> ChallengeRow:
        async with self._write() as tx:
            changed = await tx.run(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
                (status.value, challenge_id),
            )
            if changed != 1:
                raise VersionConflict(f"challenge {challenge_id} is no longer open")
            await tx.run("DELETE FROM timers WHERE challenge_id = ?", (challenge_id,))
            row = await tx.row(
                f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
            )
        return challenge_of(row)

    async def accept_challenge(
        self, challenge_id: int, game: GameRow, timers: Sequence[NewTimer]
    ) -> GameRow:
        async with self._write() as tx:
            await self._lock_chat(tx, game.chat)
            busy = await tx.row(
                "SELECT id FROM games WHERE platform = ? AND chat_id = ? AND status = 'active' "
                "AND (sente IN (?, ?) OR gote IN (?, ?)) LIMIT 1",
                (game.chat.platform, game.chat.chat_id, game.sente, game.gote, game.sente,
                 game.gote),
            )  # fmt: skip
            if busy:
                raise VersionConflict(f"a player already has game {busy[0]} in this chat")
            gid = await self._insert_game(tx, game, timers)
            changed = await tx.run(
                "UPDATE challenges SET status = 'accepted', game_id = ? "
                "WHERE id = ? AND status = 'open'",
                (gid, challenge_id),
            )
            if changed != 1:
                raise VersionConflict(f"challenge {challenge_id} is no longer open")
            await tx.run("DELETE FROM timers WHERE challenge_id = ?", (challenge_id,))
        return replace(game, id=gid)

    async def create_game(
        self, game: GameRow, timers: Sequence[NewTimer], *, free: Sequence[str]
    ) -> GameRow:
        async with self._write() as tx:
            await self._lock_chat(tx, game.chat)
            for player in free:
                busy = await tx.row(
                    "SELECT id FROM games WHERE sente = ? AND platform = ? AND chat_id = ? "
                    "AND status = 'active' UNION ALL SELECT id FROM games WHERE gote = ? "
                    "AND platform = ? AND chat_id = ? AND status = 'active' LIMIT 1",
                    (player, game.chat.platform, game.chat.chat_id) * 2,
                )
                if busy:
                    raise VersionConflict(f"{player} already has game {busy[0]} in this chat")
            gid = await self._insert_game(tx, game, timers)
        return replace(game, id=gid)

    async def _insert_game(self, tx: Tx, game: GameRow, timers: Sequence[NewTimer]) -> int:
        """Insert ``game`` and its ``timers`` (in the caller's transaction); its new id."""
        gid = await tx.insert(_INSERT_GAME, self._game_values(game))
        assert gid is not None
        await self._insert_timers(
            tx, [NewTimer(t.kind, t.due_at, gid, None, t.game_version, t.offset) for t in timers]
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
            g.main_time,
            *(g.time_left or (None, None)),
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_of(row) if row else None

    async def active_game(self, chat: ChatKey, user_key: str) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'active' AND (sente = ? OR gote = ?) ORDER BY id DESC LIMIT 1",
            (chat.platform, chat.chat_id, user_key, user_key),
        )
        return game_of(row) if row else None

    async def active_games_in_chat(
        self, chat: ChatKey, *, limit: int | None = None
    ) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'active' ORDER BY id LIMIT ?",
            (chat.platform, chat.chat_id, self._limit(limit)),
        )
        return [game_of(r) for r in rows]

    async def count_active_games_in_chat(self, chat: ChatKey) -> int:
        row = await self._one(
            "SELECT count(*) FROM games WHERE platform = ? AND chat_id = ? AND status = 'active'",
            (chat.platform, chat.chat_id),
        )
        return int(row[0])

    async def active_games_of(self, user_key: str, *, limit: int | None = None) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND sente = ? "
            f"UNION SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND gote = ? "
            "ORDER BY id LIMIT ?",
            (user_key, user_key, self._limit(limit)),
        )
        return [game_of(r) for r in rows]

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
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = (SELECT max(id) FROM ("
            "SELECT max(id) AS id FROM games WHERE sente = ? AND platform = ? AND chat_id = ? "
            "UNION ALL "
            "SELECT max(id) FROM games WHERE gote = ? AND platform = ? AND chat_id = ?) AS newest)",
            (user_key, chat.platform, chat.chat_id, user_key, chat.platform, chat.chat_id),
        )
        return game_of(row) if row else None

    async def active_engine_games(self) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games {self._indexed('games_engine_active')} "
            "WHERE status = 'active' AND engine_level IS NOT NULL ORDER BY id"
        )
        return [game_of(r) for r in rows]

    async def unclaimed_engine_games(self, now: float) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games {self._indexed('games_engine_active')} "
            f"WHERE status = 'active' AND engine_level IS NOT NULL AND {_BOT_TO_MOVE} "
            "AND NOT EXISTS (SELECT 1 FROM engine_turns AS t WHERE t.game_id = games.id "
            "AND t.version = games.version AND t.claimed_until > ?) ORDER BY id",
            (ENGINE_PLAYER, now),
        )
        return [game_of(r) for r in rows]

    async def claim_engine_turn(
        self, game_id: int, version: int, owner: str, now: float, until: float
    ) -> bool:
        changed = await self._run(
            "INSERT INTO engine_turns (game_id, version, claimed_by, claimed_until) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "version = excluded.version, claimed_by = excluded.claimed_by, "
            "claimed_until = excluded.claimed_until "
            "WHERE engine_turns.claimed_by = excluded.claimed_by "
            "OR engine_turns.version != excluded.version OR engine_turns.claimed_until <= ?",
            (game_id, version, owner, until, now),
        )
        return changed == 1

    async def renew_engine_turn(self, game_id: int, version: int, owner: str, until: float) -> bool:
        changed = await self._run(
            "UPDATE engine_turns SET claimed_until = ? "
            "WHERE game_id = ? AND version = ? AND claimed_by = ?",
            (until, game_id, version, owner),
        )
        return changed == 1

    async def release_engine_turns(self, owner: str) -> None:
        async with self._write() as tx:
            await tx.run("DELETE FROM engine_turns WHERE claimed_by = ?", (owner,))

    async def latest_variant(self, chat: ChatKey) -> str | None:
        # the newest active and the newest finished game of the chat: two index look-ups
        row = await self._one(
            "SELECT variant FROM games WHERE id = (SELECT max(id) FROM ("
            "SELECT max(id) AS id FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'active' UNION ALL "
            "SELECT max(id) FROM games WHERE platform = ? AND chat_id = ? AND "
            "status = 'finished') AS newest)",
            (chat.platform, chat.chat_id) * 2,
        )
        return str(row[0]) if row else None

    async def count_active_games(self) -> int:
        row = await self._one(
            f"SELECT count(*) FROM games {self._indexed('games_active')} WHERE status = 'active'"
        )
        return int(row[0])

    async def update_game(
        self,
        game: GameRow,
        timers: Sequence[NewTimer] | None = None,
        *,
        notices: Sequence[NewNotice] = (),
    ) -> GameRow:
        new = replace(game, version=game.version + 1)

        async def write(tx: Tx) -> None:
            changed = await self._write_game(tx, new, game.version)
            if changed != 1:
                raise VersionConflict(f"game {game.id} changed since version {game.version}")
            if new.rateable:
                await self._rate(tx, new)
            if timers is not None:
                await tx.run("DELETE FROM timers WHERE game_id = ?", (game.id,))
                await self._insert_timers(tx, timers)
            await self._insert_notices(tx, notices)

        await self._transact(write)
        return new

    async def _write_game(self, tx: Tx, new: GameRow, version: int) -> int:
        """Write every column of ``new`` over its row if the row is still at ``version``; how
        many rows that changed (0: the game changed meanwhile)."""
        return await tx.run(_UPDATE_GAME, (*self._game_values(new), new.id, version))

    # --- ratings ------------------------------------------------------------------------

    async def rating(
        self, platform: str, community: str, player: str, variant: str
    ) -> RatingRow | None:
        row = await self._one(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE platform = ? AND community = ? "
            "AND player = ? AND variant = ?",
            (platform, community, player, variant),
        )
        return RatingRow(*row) if row else None

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the rated games, in the order they were rated (games
        rated before ratings existed: by when they finished); how many games count."""
        async with self._write() as tx:
            return await self._rebuild(tx)

    async def _rate_history_once(self) -> None:
        """Rate the games finished before ratings existed (migration 10), once: the first
        process to open the upgraded database does it, and records it in ``ratings_state``."""
        done = "SELECT 1 FROM ratings_state WHERE key = 'rebuilt'"
        if await self._one(done) is not None:
            return
        async with self._write() as tx:
            await self._lock_ratings(tx)
            if await tx.row(done) is None:
                await self._rebuild(tx)

    async def _rebuild(self, tx: Tx) -> int:
        await self._lock_ratings(tx)
        rows = await tx.rows(
            f"SELECT {RATED_GAME_COLUMNS} FROM games WHERE rated = 1 AND status = 'finished' "
            "ORDER BY rated_seq IS NULL, rated_seq, finished_at, id"
        )
        await tx.run("DELETE FROM ratings")
        await tx.run("DELETE FROM rating_changes")
        await tx.run("UPDATE games SET rated_seq = NULL WHERE rated_seq IS NOT NULL")
        count = 0
        for row in rows:
            game = game_of(row)
            if game.rateable:
                await self._rate(tx, game)
                count += 1
        await tx.run(
            "INSERT INTO ratings_state (key, value) VALUES ('rebuilt', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (str(count),),
        )
        return count

    async def ratings_of(self, platform: str, community: str, player: str) -> list[RatingRow]:
        rows = await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE platform = ? AND community = ? "
            "AND player = ? ORDER BY variant",
            (platform, community, player),
        )
        return [RatingRow(*row) for row in rows]

    async def leaderboard(
        self, platform: str, community: str, variant: str, *, offset: int = 0, limit: int = 10
    ) -> list[RatingRow]:
        rows = await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE {_BOARD} "
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
        return [game_of(row) for row in rows]

    async def count_finished_games(self, platform: str, community: str, player: str) -> int:
        where, params = _players_games(platform, community, player, None, columns="id")
        row = await self._one(f"SELECT count(*) FROM ({where}) AS finished", params)
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
        async with self._read() as tx:
            done = await tx.row("SELECT rated_seq FROM games WHERE id = ?", (game.id,))
            if done is not None and done[0] is not None:
                return []  # rated before changes were kept
            updates = await self._rating_updates(tx, game)
        return [
            RatingChange(game.id, u.player, u.before.rating, u.before.deviation,
                         u.after.rating, u.after.deviation)
            for u in updates
            if u.community == game.chat.community_id
        ]  # fmt: skip

    @staticmethod
    async def _rating_updates(tx: Tx, game: GameRow) -> list[_RatingUpdate]:
        """The new ratings ``game`` gives its players, in its community and then over the
        platform (each player's rating first aged by the days since their last game)."""
        when = game.finished_at if game.finished_at is not None else game.updated_at
        score = 0.5 if game.winner is None else (1.0 if game.winner == 0 else 0.0)
        updates = []
        for community in (game.chat.community_id, ""):
            before: list[glicko2.Rating] = []
            stored: list[Any] = []
            for player in (game.sente, game.gote):
                row = await tx.row(
                    f"SELECT {RATING_COLUMNS} FROM ratings WHERE platform = ? "
                    "AND community = ? AND player = ? AND variant = ?",
                    (game.chat.platform, community, player, game.variant),
                )
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
                games, wins, losses, draws = (0, 0, 0, 0) if old is None else tuple(old[7:11])
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

    async def _rate(self, tx: Tx, game: GameRow) -> None:
        """Apply the finished ``game`` to its players' ratings (in its community and over the
        platform), once: ``rated_seq`` marks it done and orders a rebuild."""
        await self._lock_ratings(tx)
        done = await tx.row("SELECT rated_seq FROM games WHERE id = ?", (game.id,))
        if done is None or done[0] is not None:
            return
        seq = await tx.row(
            f"SELECT max(rated_seq) FROM games {self._indexed('games_rated_seq')} "
            "WHERE rated_seq IS NOT NULL"
        )
        await tx.run("UPDATE games SET rated_seq = ? WHERE id = ?", ((seq[0] or 0) + 1, game.id))
        for u in await self._rating_updates(tx, game):
            r = u.row
            await tx.run(
                f"INSERT INTO ratings ({RATING_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (platform, community, player, variant) DO UPDATE SET "
                "rating = excluded.rating, deviation = excluded.deviation, "
                "volatility = excluded.volatility, games = excluded.games, "
                "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, "
                "last_played = excluded.last_played",
                (r.platform, r.community, r.player, r.variant, r.rating, r.deviation,
                 r.volatility, r.games, r.wins, r.losses, r.draws, r.last_played),
            )  # fmt: skip
            if u.community == game.chat.community_id:
                await tx.run(
                    "INSERT INTO rating_changes (game_id, player, rating_before, "
                    "deviation_before, rating_after, deviation_after) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id, player) DO UPDATE SET "
                    "rating_before = excluded.rating_before, "
                    "deviation_before = excluded.deviation_before, "
                    "rating_after = excluded.rating_after, "
                    "deviation_after = excluded.deviation_after",
                    (game.id, u.player, u.before.rating, u.before.deviation, u.after.rating,
                     u.after.deviation),
                )  # fmt: skip

    # --- timers -------------------------------------------------------------------------

    @staticmethod
    async def _insert_timers(tx: Tx, timers: Sequence[NewTimer]) -> None:
        if not timers:
            return  # no trip to the database for nothing
        await tx.run_many(
            "INSERT INTO timers (kind, due_at, game_id, challenge_id, game_version, offset_s) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (t.kind.value, t.due_at, t.game_id, t.challenge_id, t.game_version, t.offset)
                for t in timers
            ],
        )

    async def due_timers(self, now: float, limit: int = 100) -> list[TimerRow]:
        rows = await self._all(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE fired_at IS NULL AND due_at <= ? "
            "AND (next_attempt_at IS NULL OR next_attempt_at <= ?) "
            "ORDER BY due_at, id LIMIT ?",
            (now, now, limit),
        )
        return [timer_of(r) for r in rows]

    async def claim_timers(self, now: float, until: float, limit: int = 100) -> list[TimerRow]:
        due = (
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE fired_at IS NULL AND due_at <= ? "
            "AND (next_attempt_at IS NULL OR next_attempt_at <= ?) ORDER BY due_at, id LIMIT ?"
        )
        if not await self._all(due, (now, now, 1)):
            return []  # nothing due: no write transaction
        async with self._write() as tx:
            rows = await tx.rows(due + self._LOCK_DUE, (now, now, limit))
            await tx.run_many(
                "UPDATE timers SET next_attempt_at = ? WHERE id = ?", [(until, r[0]) for r in rows]
            )
        return [timer_of(r) for r in rows]

    async def next_due(self) -> float | None:
        row = await self._one(
            f"SELECT coalesce(next_attempt_at, due_at) FROM timers {self._indexed('timers_next')} "
            "WHERE fired_at IS NULL ORDER BY coalesce(next_attempt_at, due_at) LIMIT 1"
        )
        return float(row[0]) if row and row[0] is not None else None

    async def mark_fired(
        self, timer_ids: Sequence[int], now: float, notices: Sequence[NewNotice] = ()
    ) -> list[int]:
        claimed = []
        async with self._write() as tx:
            for tid in timer_ids:
                if await tx.run("DELETE FROM timers WHERE id = ? AND fired_at IS NULL", (tid,)):
                    claimed.append(tid)
            if notices and timer_ids and timer_ids[-1] in claimed:
                await self._insert_notices(tx, notices)
        return claimed

    async def postpone_timer(self, timer_id: int, until: float) -> int:
        async with self._write() as tx:
            await tx.run(
                "UPDATE timers SET attempts = attempts + 1, next_attempt_at = ? "
                "WHERE id = ? AND fired_at IS NULL",
                (until, timer_id),
            )
            row = await tx.row("SELECT attempts FROM timers WHERE id = ?", (timer_id,))
        return int(row[0]) if row else 0

    async def pending_timers(self, game_id: int) -> list[TimerRow]:
        """The game's timers still to fire (for tests and the console)."""
        rows = await self._all(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? AND fired_at IS NULL "
            "ORDER BY due_at",
            (game_id,),
        )
        return [timer_of(r) for r in rows]

    # --- notices (the outbox) ---------------------------------------------------------

    @staticmethod
    async def _insert_notices(tx: Tx, notices: Sequence[NewNotice]) -> None:
        if not notices:
            return  # no trip to the database for nothing
        await tx.run_many(
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
        async with self._write() as tx:
            await self._insert_notices(tx, notices)

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
        async with self._write() as tx:
            rows = await tx.rows(due + self._LOCK_DUE, (*platforms, now, limit))
            claimed = []
            for (nid,) in rows:
                await tx.run(
                    "UPDATE outbox SET attempts = attempts + 1, claimed_by = ?, "
                    "claimed_until = ?, next_attempt_at = ? WHERE id = ?",
                    (owner, until, until, nid),
                )
                row = await tx.row(f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE id = ?", (nid,))
                claimed.append(notice_of(row))
        return claimed

    async def renew_notice(self, notice_id: int, owner: str, until: float) -> bool:
        changed = await self._run(
            "UPDATE outbox SET claimed_until = ?, next_attempt_at = ? "
            "WHERE id = ? AND claimed_by = ? AND state = 'pending'",
            (until, until, notice_id, owner),
        )
        return changed == 1

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
        await self._run(
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
        payload = self._WITHOUT_PICTURES if state is NoticeState.DELIVERED else "payload"
        await self._run(
            "UPDATE outbox SET state = ?, done_at = ?, claimed_by = NULL, "
            "claimed_until = NULL, last_error = coalesce(?, last_error), "
            f"payload = {payload} WHERE id = ? AND state = 'pending'",
            (state.value, now, error[:500] if error else None, notice_id),
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
                f"DELETE FROM outbox WHERE id IN (SELECT id FROM outbox "
                f"{self._indexed('outbox_done')} WHERE state IN ({marks}) AND done_at < ? "
                "LIMIT ?)",
                (*settled, before, batch),
            ),
            (
                f"DELETE FROM outbox WHERE id IN (SELECT id FROM outbox "
                f"{self._indexed('outbox_pending_age')} WHERE state = 'pending' AND "
                "created_at < ? LIMIT ?)",
                (before, batch),
            ),
        )
        gone = 0
        for sql, params in queries:
            while True:
                async with self._write() as tx:
                    count = await tx.run(sql, params)
                gone += count
                if count < batch:
                    break
        return gone

    async def notices(self, game_id: int | None = None) -> list[NoticeRow]:
        """Every queued message (of one game), oldest first (for tests and diagnosis)."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        rows = await self._all(f"SELECT {NOTICE_COLUMNS} FROM outbox {where} ORDER BY id", params)
        return [notice_of(r) for r in rows]

    # --- settings -----------------------------------------------------------------------

    async def get_settings(self, chat: ChatKey) -> ChatSettings:
        row = await self._one(
            "SELECT notation, piece_style, perspective, language, bare_moves, threads, "
            "notation_chosen FROM chat_settings WHERE platform = ? AND chat_id = ?",
            (chat.platform, chat.chat_id),
        )
        if not row:
            return ChatSettings()
        notation, style, perspective, language = row[:4]
        return ChatSettings(
            notation, style, perspective, language, bare_moves=bool(row[4]),
            threads=bool(row[5]), notation_chosen=bool(row[6]),
        )  # fmt: skip

    async def save_settings(self, chat: ChatKey, settings: ChatSettings) -> None:
        await self._run(
            "INSERT INTO chat_settings (platform, chat_id, notation, piece_style, "
            "perspective, language, bare_moves, threads, notation_chosen) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (platform, chat_id) DO UPDATE SET notation = excluded.notation, "
            "piece_style = excluded.piece_style, perspective = excluded.perspective, "
            "language = excluded.language, bare_moves = excluded.bare_moves, "
            "threads = excluded.threads, notation_chosen = excluded.notation_chosen",
            (
                chat.platform,
                chat.chat_id,
                settings.notation,
                settings.piece_style,
                settings.perspective,
                settings.language,
                int(settings.bare_moves),
                int(settings.threads),
                int(settings.notation_chosen),
            ),
        )

    async def get_reminder_route(self, user_key: str) -> ReminderRoute:
        row = await self._one("SELECT reminders FROM users WHERE key = ?", (user_key,))
        return ReminderRoute(row[0]) if row else ReminderRoute.CHAT

    async def set_reminder_route(self, user_key: str, route: ReminderRoute) -> None:
        platform, _, uid = user_key.partition(":")
        await self._run(
            "INSERT INTO users (key, platform, user_id, name, name_lower, reminders) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET "
            "reminders = excluded.reminders",
            (user_key, platform, uid, uid, uid.lower(), route.value),
        )

    # --- front-end state ----------------------------------------------------------------

    async def put_state(self, platform: str, kind: str, key: str, value: str) -> None:
        await self._run(
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
        await self._run(
            "DELETE FROM frontend_state WHERE platform = ? AND kind = ? AND key = ?",
            (platform, kind, key),
        )

    async def prune_state(self, platform: str, kind: str, before: float) -> int:
        return await self._run(
            "DELETE FROM frontend_state WHERE platform = ? AND kind = ? AND updated_at < ?",
            (platform, kind, before),
        )

    # --- /analyse: results kept, analyses under way ---------------------------------------

    async def get_analysis(self, game_id: int, budget: str, engine_key: str) -> AnalysisRow | None:
        row = await self._one(
            "SELECT game_id, budget, engine_key, engine, scores, best_moves, created_at "
            "FROM analyses WHERE game_id = ? AND budget = ? AND engine_key = ?",
            (game_id, budget, engine_key),
        )
        if row is None:
            return None
        return AnalysisRow(
            game_id=row[0],
            budget=row[1],
            engine_key=row[2],
            engine=row[3],
            scores=tuple(int(s) for s in row[4].split()),
            best_moves=tuple(None if m == "-" else m for m in row[5].split()),
            created_at=row[6],
        )

    async def save_analysis(self, analysis: AnalysisRow) -> None:
        scores = " ".join(str(s) for s in analysis.scores)
        best = " ".join(m or "-" for m in analysis.best_moves)
        await self._run(
            "INSERT INTO analyses (game_id, budget, engine_key, engine, scores, best_moves, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, budget, engine_key) DO UPDATE SET "
            "engine = excluded.engine, scores = excluded.scores, "
            "best_moves = excluded.best_moves, created_at = excluded.created_at",
            (
                analysis.game_id,
                analysis.budget,
                analysis.engine_key,
                analysis.engine,
                scores,
                best,
                analysis.created_at,
            ),
        )

    async def claim_analysis_request(
        self, request: AnalysisRequest, owner: str, until: float
    ) -> bool:
        chat = request.chat
        added = await self._run(
            "INSERT INTO analysis_requests (chat_key, platform, chat_id, thread_id, "
            "community, game_id, card, requested_at, claimed_by, claimed_until) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat_key) DO NOTHING",
            (
                chat.key,
                chat.platform,
                chat.chat_id,
                chat.thread_id,
                chat.community,
                request.game_id,
                request.card,
                request.requested_at,
                owner,
                until,
            ),
        )
        return added == 1

    async def take_analysis_requests(
        self, owner: str, now: float, until: float
    ) -> list[AnalysisRequest]:
        due = (
            "SELECT chat_key, platform, chat_id, thread_id, community, game_id, card, "
            "requested_at FROM analysis_requests WHERE claimed_until <= ? ORDER BY requested_at"
        )
        if not await self._all(due, (now,)):
            return []  # nothing to take up: no write transaction
        async with self._write() as tx:
            rows = await tx.rows(due + self._LOCK_DUE, (now,))
            taken = []
            for row in rows:
                changed = await tx.run(
                    "UPDATE analysis_requests SET claimed_by = ?, claimed_until = ? "
                    "WHERE chat_key = ? AND claimed_until <= ?",
                    (owner, until, row[0], now),
                )
                if changed:
                    chat = ChatKey(row[1], row[2], row[3], row[4])
                    taken.append(AnalysisRequest(chat, row[5], row[6], row[7]))
        return taken

    async def renew_analysis_request(self, chat: ChatKey, owner: str, until: float) -> bool:
        changed = await self._run(
            "UPDATE analysis_requests SET claimed_until = ? WHERE chat_key = ? AND claimed_by = ?",
            (until, chat.key, owner),
        )
        return changed == 1

    async def end_analysis_request(self, chat: ChatKey, owner: str) -> None:
        await self._run(
            "DELETE FROM analysis_requests WHERE chat_key = ? AND claimed_by = ?",
            (chat.key, owner),
        )

    async def release_analysis_requests(self, owner: str) -> None:
        await self._run(
            "UPDATE analysis_requests SET claimed_until = 0 WHERE claimed_by = ?", (owner,)
        )

    # --- mate problems ------------------------------------------------------------------

    async def puzzle_session(self, player: str) -> PuzzleSession | None:
        row = await self._one(
            f"SELECT {PUZZLE_SESSION_COLUMNS} FROM puzzle_sessions WHERE player = ?", (player,)
        )
        return puzzle_session_of(row) if row else None

    async def start_puzzle(self, session: PuzzleSession) -> bool:
        s = session
        async with self._write() as tx:
            changed = await tx.run(
                f"INSERT INTO puzzle_sessions ({PUZZLE_SESSION_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player) DO NOTHING",
                (
                    s.player, s.platform, s.community, s.chat_id, s.puzzle_id, " ".join(s.moves),
                    int(s.failed), s.hints, s.hint_ply, s.started_at, s.updated_at, s.daily_day,
                ),
            )  # fmt: skip
        return changed == 1

    async def update_puzzle(self, session: PuzzleSession, moves_before: Sequence[str]) -> bool:
        async with self._write() as tx:
            changed = await tx.run(
                "UPDATE puzzle_sessions SET moves = ?, failed = ?, hints = ?, hint_ply = ?, "
                "updated_at = ? "
                "WHERE player = ? AND puzzle_id = ? AND moves = ?",
                (
                    " ".join(session.moves), int(session.failed), session.hints,
                    session.hint_ply, session.updated_at, session.player, session.puzzle_id,
                    " ".join(moves_before),
                ),
            )  # fmt: skip
        return changed == 1

    async def abandon_puzzle(self, session: PuzzleSession) -> bool:
        s = session
        gone = await self._run(
            "DELETE FROM puzzle_sessions WHERE player = ? AND puzzle_id = ? AND moves = ?",
            (s.player, s.puzzle_id, " ".join(s.moves)),
        )
        return gone == 1

    async def finish_puzzle(
        self,
        session: PuzzleSession,
        score: float,
        seed: tuple[float, float],
        now: float,
    ) -> PuzzleOutcome | None:
        s = session
        async with self._write() as tx:
            gone = await tx.run(
                "DELETE FROM puzzle_sessions WHERE player = ? AND puzzle_id = ? AND moves = ?",
                (s.player, s.puzzle_id, " ".join(s.moves)),
            )
            if gone != 1:
                return None
            await self._lock_ratings(tx)
            row = await tx.row(
                "SELECT rating, deviation, volatility, attempts, updated_at FROM puzzle_ratings "
                "WHERE platform = ? AND community = ? AND player = ?",
                (s.platform, s.community, s.player),
            )
            player = glicko2.Rating() if row is None else glicko2.Rating(*row[:3])
            if row is not None:
                player = glicko2.age(player, max(0.0, now - float(row[4])) / 86400)
            attempts = 0 if row is None else int(row[3])
            row = await tx.row(
                "SELECT rating, deviation, volatility, attempts FROM puzzle_difficulty "
                "WHERE puzzle_id = ?",
                (s.puzzle_id,),
            )
            puzzle = glicko2.Rating(*seed) if row is None else glicko2.Rating(*row[:3])
            solved = 0 if row is None else int(row[3])
            player_after = glicko2.update(player, [(puzzle, score)])
            puzzle_after = glicko2.update(puzzle, [(player, 1.0 - score)])
            await tx.run(
                f"INSERT INTO puzzle_ratings ({PUZZLE_RATING_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (platform, community, player) "
                "DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
                "volatility = excluded.volatility, attempts = excluded.attempts, "
                "updated_at = excluded.updated_at",
                (
                    s.platform, s.community, s.player, player_after.rating,
                    player_after.deviation, player_after.volatility, attempts + 1, now,
                ),
            )  # fmt: skip
            await tx.run(
                "INSERT INTO puzzle_difficulty (puzzle_id, rating, deviation, volatility, "
                "attempts) VALUES (?, ?, ?, ?, ?) ON CONFLICT (puzzle_id) DO UPDATE SET "
                "rating = excluded.rating, deviation = excluded.deviation, "
                "volatility = excluded.volatility, attempts = excluded.attempts",
                (
                    s.puzzle_id, puzzle_after.rating, puzzle_after.deviation,
                    puzzle_after.volatility, solved + 1,
                ),
            )  # fmt: skip
            await tx.run(
                "INSERT INTO puzzle_results (player, puzzle_id, platform, community, score, "
                "rating_before, rating_after, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (player, puzzle_id) DO UPDATE SET platform = excluded.platform, "
                "community = excluded.community, score = excluded.score, "
                "rating_before = excluded.rating_before, rating_after = excluded.rating_after, "
                "finished_at = excluded.finished_at",
                (
                    s.player, s.puzzle_id, s.platform, s.community, score, player.rating,
                    player_after.rating, now,
                ),
            )  # fmt: skip
        return PuzzleOutcome(
            s.puzzle_id, score, player.rating, player.deviation, player_after.rating,
            player_after.deviation,
        )  # fmt: skip

    async def puzzle_rating(
        self, platform: str, community: str, player: str
    ) -> PuzzleRating | None:
        row = await self._one(
            f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings "
            "WHERE platform = ? AND community = ? AND player = ?",
            (platform, community, player),
        )
        return PuzzleRating(*row) if row else None

    async def puzzles_done(self, player: str) -> frozenset[str]:
        rows = await self._all("SELECT puzzle_id FROM puzzle_results WHERE player = ?", (player,))
        return frozenset(str(r[0]) for r in rows)

    async def puzzle_difficulties(self) -> dict[str, tuple[float, float]]:
        rows = await self._all("SELECT puzzle_id, rating, deviation FROM puzzle_difficulty")
        return {str(r[0]): (float(r[1]), float(r[2])) for r in rows}

    async def puzzle_leaderboard(
        self, platform: str, community: str, *, offset: int = 0, limit: int = 10
    ) -> list[PuzzleRating]:
        rows = await self._all(
            f"SELECT {PUZZLE_RATING_COLUMNS} FROM puzzle_ratings WHERE {_PUZZLE_BOARD} "
            "ORDER BY rating DESC, player LIMIT ? OFFSET ?",
            (platform, community, limit, offset),
        )
        return [PuzzleRating(*row) for row in rows]

    async def puzzle_leaderboard_size(self, platform: str, community: str) -> int:
        row = await self._one(
            f"SELECT count(*) FROM puzzle_ratings WHERE {_PUZZLE_BOARD}", (platform, community)
        )
        return int(row[0])

    async def puzzle_leaderboard_place(self, mine: PuzzleRating) -> int | None:
        if mine.deviation > glicko2.PROVISIONAL_DEVIATION:
            return None
        board = (mine.platform, mine.community)
        row = await self._one(
            f"SELECT (SELECT count(*) FROM puzzle_ratings WHERE {_PUZZLE_BOARD} AND rating > ?) + "
            f"(SELECT count(*) FROM puzzle_ratings WHERE {_PUZZLE_BOARD} AND rating = ? "
            "AND player < ?)",
            (*board, mine.rating, *board, mine.rating, mine.player),
        )
        return int(row[0]) + 1

    # --- the daily puzzle -----------------------------------------------------------------

    async def set_daily_puzzle(self, chat: ChatKey, minute: int | None, next_at: float) -> None:
        async with self._write() as tx:
            if minute is None:
                await tx.run(
                    "DELETE FROM daily_puzzles WHERE platform = ? AND chat_id = ?",
                    (chat.platform, chat.chat_id),
                )
                return
            await tx.run(
                "INSERT INTO daily_puzzles (platform, chat_id, thread_id, community, minute, "
                "next_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id) DO UPDATE "
                "SET thread_id = excluded.thread_id, community = excluded.community, "
                "minute = excluded.minute, next_at = excluded.next_at",
                (chat.platform, chat.chat_id, chat.thread_id, chat.community_id, minute, next_at),
            )

    async def daily_puzzle_chat(self, chat: ChatKey) -> DailyPuzzleChat | None:
        row = await self._one(
            f"SELECT {_DAILY_COLUMNS} FROM daily_puzzles WHERE platform = ? AND chat_id = ?",
            (chat.platform, chat.chat_id),
        )
        return daily_chat_of(row) if row else None

    async def due_daily_puzzles(self, now: float, limit: int = 100) -> list[DailyPuzzleChat]:
        rows = await self._all(
            f"SELECT {_DAILY_COLUMNS} FROM daily_puzzles WHERE next_at <= ? "
            "ORDER BY next_at LIMIT ?",
            (now, limit),
        )
        return [daily_chat_of(r) for r in rows]

    async def next_daily_due(self) -> float | None:
        row = await self._one("SELECT min(next_at) FROM daily_puzzles")
        return float(row[0]) if row and row[0] is not None else None

    async def post_daily_puzzle(
        self,
        daily: DailyPuzzleChat,
        next_at: float,
        day: str,
        puzzle_id: str,
        notices: Sequence[NewNotice],
        now: float,
    ) -> bool:
        chat = daily.chat
        async with self._write() as tx:
            claimed = await tx.run(
                "UPDATE daily_puzzles SET next_at = ? WHERE platform = ? AND chat_id = ? "
                "AND next_at = ?",
                (next_at, chat.platform, chat.chat_id, daily.next_at),
            )
            if claimed != 1:
                return False  # another process posted it, or the setting changed
            inserted = await tx.run(
                "INSERT INTO daily_posts (platform, chat_id, day, puzzle_id, posted_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id, day) DO NOTHING",
                (chat.platform, chat.chat_id, day, puzzle_id, now),
            )
            if inserted == 1:  # one post a day, even when the hour changed after it
                await self._insert_notices(tx, notices)
        return inserted == 1

    async def daily_post(self, chat: ChatKey, day: str | None = None) -> tuple[str, str] | None:
        where, params = ("AND day = ?", (day,)) if day is not None else ("", ())
        row = await self._one(
            "SELECT day, puzzle_id FROM daily_posts WHERE platform = ? AND chat_id = ? "
            f"{where} ORDER BY day DESC LIMIT 1",
            (chat.platform, chat.chat_id, *params),
        )
        return (str(row[0]), str(row[1])) if row else None

    async def daily_posted(self, chat: ChatKey) -> frozenset[str]:
        rows = await self._all(
            "SELECT puzzle_id FROM daily_posts WHERE platform = ? AND chat_id = ?",
            (chat.platform, chat.chat_id),
        )
        return frozenset(str(r[0]) for r in rows)

    async def daily_solvers(self, chat: ChatKey, day: str) -> int:
        row = await self._one(
            "SELECT count(*) FROM daily_solves WHERE platform = ? AND chat_id = ? AND day = ?",
            (chat.platform, chat.chat_id, day),
        )
        return int(row[0])

    async def record_daily_solve(
        self, chat: ChatKey, day: str, day_before: str, player: str, now: float
    ) -> DailySolve:
        where = (chat.platform, chat.chat_id)
        async with self._write() as tx:
            await tx.run(
                "INSERT INTO daily_solves (platform, chat_id, day, player, solved_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id, day, player) DO NOTHING",
                (*where, day, player, now),
            )
            row = await tx.row(
                "SELECT streak, last_day FROM daily_streaks WHERE platform = ? AND chat_id = ? "
                "AND player = ?",
                (*where, player),
            )
            streak = 1
            if row is not None and row[1] == day:
                streak = int(row[0])
            elif row is not None and row[1] == day_before:
                streak = int(row[0]) + 1
            await tx.run(
                "INSERT INTO daily_streaks (platform, chat_id, player, streak, last_day) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, chat_id, player) DO UPDATE SET "
                "streak = excluded.streak, last_day = excluded.last_day",
                (*where, player, streak, day),
            )
            count = await tx.row(
                "SELECT count(*) FROM daily_solves WHERE platform = ? AND chat_id = ? AND day = ?",
                (*where, day),
            )
        return DailySolve(int(count[0]), streak)
