"""Numbered schema migrations; ``MIGRATIONS[n - 1]`` takes a database from version n-1 to n.

Each is written once, in SQLite's SQL; :func:`postgres_sql` gives PostgreSQL's form of it (the
types and one expression index written the PostgreSQL way).  In SQLite the version lives in
``PRAGMA user_version`` and ``PRAGMA application_id`` marks the file as Komabot's; in PostgreSQL
both live in the table ``komabot_schema``.  A foreign database is never touched.  Never edit a
released migration: add one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

APPLICATION_ID = 0x4B4F4D41  # "KOMA"


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    sql: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "users, challenges and games",
        """
        CREATE TABLE users (
            key TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            name_lower TEXT NOT NULL
        );
        CREATE INDEX users_by_name ON users (platform, name_lower);
        CREATE TABLE challenges (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            thread_id TEXT,
            challenger TEXT NOT NULL,
            challenged TEXT,
            variant TEXT NOT NULL,
            color TEXT NOT NULL,
            time_per_move INTEGER,
            status TEXT NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            game_id INTEGER
        );
        CREATE INDEX challenges_open ON challenges (platform, chat_id, status);
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            thread_id TEXT,
            variant TEXT NOT NULL,
            start_sfen TEXT NOT NULL,
            moves TEXT NOT NULL,
            version INTEGER NOT NULL,
            sente TEXT NOT NULL,
            gote TEXT NOT NULL,
            status TEXT NOT NULL,
            termination TEXT,
            winner INTEGER,
            time_per_move INTEGER,
            deadline REAL,
            draw_offer INTEGER,
            takeback_offer INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            finished_at REAL,
            challenge_id INTEGER
        );
        CREATE INDEX games_by_chat ON games (platform, chat_id, status);
        CREATE INDEX games_by_sente ON games (sente, status);
        CREATE INDEX games_by_gote ON games (gote, status);
        """,
    ),
    Migration(
        2,
        "timers: move deadlines, reminders and challenge expiry",
        """
        CREATE TABLE timers (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            due_at REAL NOT NULL,
            game_id INTEGER REFERENCES games (id),
            challenge_id INTEGER REFERENCES challenges (id),
            game_version INTEGER,
            offset_s INTEGER NOT NULL DEFAULT 0,
            fired_at REAL
        );
        CREATE INDEX timers_pending ON timers (fired_at, due_at);
        CREATE INDEX timers_by_game ON timers (game_id, fired_at);
        """,
    ),
    Migration(
        3,
        "per-chat settings",
        """
        CREATE TABLE chat_settings (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            notation TEXT NOT NULL,
            piece_style TEXT NOT NULL,
            perspective TEXT NOT NULL,
            language TEXT NOT NULL DEFAULT 'en',
            PRIMARY KEY (platform, chat_id)
        );
        """,
    ),
    Migration(
        4,
        "front-end state: what each platform remembers (card messages, usernames)",
        """
        CREATE TABLE frontend_state (
            platform TEXT NOT NULL,
            kind TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (platform, kind, key)
        );
        CREATE INDEX frontend_state_age ON frontend_state (platform, kind, updated_at);
        """,
    ),
    Migration(
        5,
        "chat settings for bare moves and game threads; where each user's reminders go",
        """
        ALTER TABLE chat_settings ADD COLUMN bare_moves INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE chat_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN reminders TEXT NOT NULL DEFAULT 'chat';
        """,
    ),
    Migration(
        6,
        "one open challenge per challenger per chat, held by a unique index",
        # Older versions could leave several open challenges of one person in one chat (requests
        # racing each other): the newest stays open, the others are cancelled with their timers.
        """
        UPDATE timers SET fired_at = -1 WHERE fired_at IS NULL AND challenge_id IN (
            SELECT old.id FROM challenges AS old WHERE old.status = 'open' AND EXISTS (
                SELECT 1 FROM challenges AS newer WHERE newer.status = 'open'
                AND newer.platform = old.platform AND newer.chat_id = old.chat_id
                AND newer.challenger = old.challenger AND newer.id > old.id
            )
        );
        UPDATE challenges SET status = 'cancelled' WHERE status = 'open' AND EXISTS (
            SELECT 1 FROM challenges AS newer WHERE newer.status = 'open'
            AND newer.platform = challenges.platform AND newer.chat_id = challenges.chat_id
            AND newer.challenger = challenges.challenger AND newer.id > challenges.id
        );
        CREATE UNIQUE INDEX challenges_one_open ON challenges (platform, chat_id, challenger)
            WHERE status = 'open';
        """,
    ),
    Migration(
        7,
        "delivery at least once: an outbox of notices; timers retried with back-off",
        """
        ALTER TABLE timers ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE timers ADD COLUMN next_attempt_at REAL;
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            thread_id TEXT,
            payload TEXT NOT NULL,
            dedupe_key TEXT NOT NULL,
            created_at REAL NOT NULL,
            game_id INTEGER,
            game_deadline REAL,
            fallback_chat_id TEXT,
            fallback_thread_id TEXT,
            fallback_payload TEXT,
            state TEXT NOT NULL DEFAULT 'pending',
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL NOT NULL,
            claimed_by TEXT,
            claimed_until REAL,
            last_error TEXT,
            done_at REAL
        );
        CREATE INDEX outbox_due ON outbox (state, platform, next_attempt_at);
        CREATE INDEX outbox_done ON outbox (state, done_at);
        """,
    ),
    Migration(
        8,
        "speed at scale: an index for every query on a request or timer path; fired timers go",
        # From now on a timer row is deleted when it fires or is cancelled (the rows left are
        # the pending ones), so the file grows per game, not per move; the rows older versions
        # kept go here, once.  The partial indexes hold live rows only: what start-up reads of
        # a large file is bounded by the active games, not by history.
        """
        DELETE FROM timers WHERE fired_at IS NOT NULL;
        CREATE INDEX timers_by_challenge ON timers (challenge_id, fired_at);
        CREATE INDEX timers_next ON timers (coalesce(next_attempt_at, due_at))
            WHERE fired_at IS NULL;
        CREATE INDEX games_active ON games (id) WHERE status = 'active';
        CREATE INDEX games_by_sente_chat ON games (sente, platform, chat_id, id);
        CREATE INDEX games_by_gote_chat ON games (gote, platform, chat_id, id);
        CREATE INDEX challenges_live ON challenges (id) WHERE status = 'open';
        CREATE INDEX outbox_pending_age ON outbox (created_at) WHERE state = 'pending';
        """,
    ),
    Migration(
        9,
        "games against the bot: its level and its latest scores; their active games indexed",
        # The bot plays under the reserved player key ``engine:komabot`` (models.ENGINE_PLAYER);
        # ``engine_level`` marks its games (NULL: two people), so that ratings can leave them
        # out.  At start the games where the bot is to move are found through the partial index.
        """
        ALTER TABLE games ADD COLUMN engine_level INTEGER;
        ALTER TABLE games ADD COLUMN engine_scores TEXT NOT NULL DEFAULT '';
        CREATE INDEX games_engine_active ON games (id)
            WHERE status = 'active' AND engine_level IS NOT NULL;
        """,
    ),
    Migration(
        10,
        "ratings: rated games, Glicko-2 ratings per community and per platform",
        # Games two people started from a challenge were rated by default: they are marked so
        # (a challenge says whether its game is rated: ``/challenge ... casual``).
        # ``rated_seq`` is the order ratings took them in (``komabot ratings rebuild`` follows
        # it).  The ratings of games finished before this version are computed in Python at
        # the first open (SqliteStore.open, the same code as the rebuild), which then records
        # ``rebuilt`` in ``ratings_state``.  ``rating_changes`` keeps what each game did to its
        # players' ratings in its community (the result message shows it).  ``community`` is
        # the chat id ('' for the whole platform): the store keeps no Discord guild or Telegram
        # group above the chat.
        """
        ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE games ADD COLUMN rated_seq INTEGER;
        ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
        UPDATE games SET rated = 1 WHERE engine_level IS NULL AND challenge_id IS NOT NULL
            AND sente != 'engine:komabot' AND gote != 'engine:komabot';
        CREATE UNIQUE INDEX games_rated_seq ON games (rated_seq) WHERE rated_seq IS NOT NULL;
        CREATE TABLE ratings (
            platform TEXT NOT NULL,
            community TEXT NOT NULL,
            player TEXT NOT NULL,
            variant TEXT NOT NULL,
            rating REAL NOT NULL,
            deviation REAL NOT NULL,
            volatility REAL NOT NULL,
            games INTEGER NOT NULL DEFAULT 0,
            wins INTEGER NOT NULL DEFAULT 0,
            losses INTEGER NOT NULL DEFAULT 0,
            draws INTEGER NOT NULL DEFAULT 0,
            last_played REAL,
            PRIMARY KEY (platform, community, player, variant)
        );
        CREATE TABLE rating_changes (
            game_id INTEGER NOT NULL,
            player TEXT NOT NULL,
            rating_before REAL NOT NULL,
            deviation_before REAL NOT NULL,
            rating_after REAL NOT NULL,
            deviation_after REAL NOT NULL,
            PRIMARY KEY (game_id, player)
        );
        CREATE TABLE ratings_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
    ),
    Migration(
        11,
        "communities: a game's community (a Discord server), leaderboards and histories",
        # ``community`` is the group of chats whose ratings a game changes: a Discord server
        # (guild) for its channels and threads, else the chat itself.  Games from before it
        # are taken as their chat's (what migration 10 rated them in), so the stored ratings
        # stay what ``komabot ratings rebuild`` gives.  ``ratings_board`` serves /leaderboard
        # (non-provisional players of one community and variant, best first: its WHERE is
        # glicko2.PROVISIONAL_DEVIATION), ``games_finished_by_*`` serve /history, best wins
        # and streaks (a player's finished games in one community, newest first).
        """
        ALTER TABLE games ADD COLUMN community TEXT NOT NULL DEFAULT '';
        UPDATE games SET community = chat_id;
        CREATE INDEX ratings_board ON ratings (platform, community, variant, rating DESC, player)
            WHERE deviation <= 110.0;
        CREATE INDEX games_finished_by_sente ON games (sente, platform, community, finished_at)
            WHERE status = 'finished';
        CREATE INDEX games_finished_by_gote ON games (gote, platform, community, finished_at)
            WHERE status = 'finished';
        """,
    ),
    Migration(
        12,
        "the bot's turns claimed by one process at a time",
        # A process asks the engine for the bot's move in a game only while it holds the claim
        # on the game at its version (claimed_until in Unix time); a claim that ends (its
        # process died) or is for an older version lets another process take the turn.
        """
        CREATE TABLE engine_turns (
            game_id INTEGER PRIMARY KEY,
            version INTEGER NOT NULL,
            claimed_by TEXT NOT NULL,
            claimed_until REAL NOT NULL
        );
        """,
    ),
    Migration(
        13,
        "handicap challenges",
        # The handicap a challenge is for (the id of one of its variant's handicaps), NULL for
        # none; its colour is the challenger's (gote when giving it, sente when taking it).
        # The game keeps the handicap as its start position (games.start_sfen).
        """
        ALTER TABLE challenges ADD COLUMN handicap TEXT;
        """,
    ),
    Migration(
        14,
        "whether a chat chose its notation (else it follows the chat's language)",
        # A notation other than its language's own (Japanese for ja, else Western) was chosen;
        # one that matches may have been the language's doing and follows it from now on.
        """
        ALTER TABLE chat_settings ADD COLUMN notation_chosen INTEGER NOT NULL DEFAULT 0;
        UPDATE chat_settings SET notation_chosen = 1
            WHERE notation <> CASE WHEN language = 'ja' THEN 'japanese' ELSE 'western' END;
        """,
    ),
    Migration(
        15,
        "main time and byoyomi",
        # A challenge's and a game's main time in seconds (each side's at the start), NULL for
        # none; then time_per_move is the byoyomi, the period every later move must be made
        # in.  A game also keeps the main time each side has left (as of its last move; the
        # side to move spends it until the move: see bot.core.shogi_clock).
        """
        ALTER TABLE challenges ADD COLUMN main_time INTEGER;
        ALTER TABLE games ADD COLUMN main_time INTEGER;
        ALTER TABLE games ADD COLUMN sente_time_left REAL;
        ALTER TABLE games ADD COLUMN gote_time_left REAL;
        """,
    ),
    Migration(
        16,
        "/analyse's results kept, and the analyses under way (resumed after a restart)",
        # ``analyses``: one finished game's analysis at one budget (``ms:300``, ``nodes:2000``)
        # by one engine (``engine_key``: ``builtin`` or the USI engine's command line):
        # sente's score after each move (``scores``, space-separated, the start first) and the
        # engine's move in each position (``best_moves``, ``-`` where there was none); the
        # judgements are computed from them again.  ``analysis_requests``: the analysis a chat
        # asked for and is waiting for (one per chat), held by one process at a time like the
        # bot's turns (``claimed_until`` in Unix time, renewed while it works); a claim that
        # ends lets a process (the same one restarted) take it up and edit its card.
        """
        CREATE TABLE analyses (
            game_id INTEGER NOT NULL,
            budget TEXT NOT NULL,
            engine_key TEXT NOT NULL,
            engine TEXT NOT NULL,
            scores TEXT NOT NULL,
            best_moves TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, budget, engine_key)
        );
        CREATE TABLE analysis_requests (
            chat_key TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            thread_id TEXT,
            community TEXT,
            game_id INTEGER NOT NULL,
            card TEXT NOT NULL,
            requested_at REAL NOT NULL,
            claimed_by TEXT NOT NULL,
            claimed_until REAL NOT NULL
        );
        """,
    ),
    Migration(
        17,
        "mate problems in the chat: sessions, results and ratings",
        # A player's puzzle in progress (one at a time: the moves played so far, both sides,
        # in USI; whether a wrong move was played, how many hints were asked and at which
        # ply the latest: a second hint there names the square), every puzzle a player
        # finished (the latest result per puzzle: so /puzzle offers puzzles not seen), the
        # players' puzzle ratings per community and the puzzles' own ratings (Glicko-2; a
        # puzzle without a row has the rating its collection grade gives); the daily puzzle:
        # the chats that want one (at ``minute`` after midnight UTC; ``next_at`` the next post,
        # moved on by the one process that posts), each day's puzzle, who solved it (a session
        # on it has its ``daily_day``) and the solvers' streaks of consecutive days.
        """
        CREATE TABLE puzzle_sessions (
            player TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            community TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            puzzle_id TEXT NOT NULL,
            moves TEXT NOT NULL,
            failed INTEGER NOT NULL DEFAULT 0,
            hints INTEGER NOT NULL DEFAULT 0,
            hint_ply INTEGER NOT NULL DEFAULT -1,
            daily_day TEXT NOT NULL DEFAULT '',
            started_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE TABLE puzzle_results (
            player TEXT NOT NULL,
            puzzle_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            community TEXT NOT NULL,
            score REAL NOT NULL,
            rating_before REAL NOT NULL,
            rating_after REAL NOT NULL,
            finished_at REAL NOT NULL,
            PRIMARY KEY (player, puzzle_id)
        );
        CREATE TABLE puzzle_ratings (
            platform TEXT NOT NULL,
            community TEXT NOT NULL,
            player TEXT NOT NULL,
            rating REAL NOT NULL,
            deviation REAL NOT NULL,
            volatility REAL NOT NULL,
            attempts INTEGER NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (platform, community, player)
        );
        CREATE INDEX puzzle_ratings_board ON puzzle_ratings (platform, community, rating DESC);
        CREATE TABLE puzzle_difficulty (
            puzzle_id TEXT PRIMARY KEY,
            rating REAL NOT NULL,
            deviation REAL NOT NULL,
            volatility REAL NOT NULL,
            attempts INTEGER NOT NULL
        );
        CREATE TABLE daily_puzzles (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            thread_id TEXT,
            community TEXT NOT NULL,
            minute INTEGER NOT NULL,
            next_at REAL NOT NULL,
            PRIMARY KEY (platform, chat_id)
        );
        CREATE INDEX daily_puzzles_due ON daily_puzzles (next_at);
        CREATE TABLE daily_posts (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            day TEXT NOT NULL,
            puzzle_id TEXT NOT NULL,
            posted_at REAL NOT NULL,
            PRIMARY KEY (platform, chat_id, day)
        );
        CREATE TABLE daily_solves (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            day TEXT NOT NULL,
            player TEXT NOT NULL,
            solved_at REAL NOT NULL,
            PRIMARY KEY (platform, chat_id, day, player)
        );
        CREATE TABLE daily_streaks (
            platform TEXT NOT NULL,
            chat_id TEXT NOT NULL,
            player TEXT NOT NULL,
            streak INTEGER NOT NULL,
            last_day TEXT NOT NULL,
            PRIMARY KEY (platform, chat_id, player)
        );
        """,
    ),
)

LATEST = MIGRATIONS[-1].version
RATINGS_VERSION = 11
"""The schema the rating code reads: ratings (10) and communities (11)."""


_POSTGRES_TYPES = (
    # an id PostgreSQL assigns, growing like SQLite's AUTOINCREMENT
    (
        re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),  # SQLite's INTEGER holds 64 bits
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    # an index on an expression: PostgreSQL wants the expression in parentheses of its own
    (re.compile(r"\((coalesce\([^()]*\))\)"), r"((\1))"),
)


def postgres_sql(migration: Migration) -> str:
    """``migration``'s SQL as PostgreSQL takes it."""
    sql = migration.sql
    for pattern, replacement in _POSTGRES_TYPES:
        sql = pattern.sub(replacement, sql)
    return sql
