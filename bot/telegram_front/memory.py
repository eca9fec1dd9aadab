"""What the Telegram front end remembers across restarts, in a small SQLite file of its own.

* Cards: which message shows each service card (``Reply.card``, e.g. ``challenge:17``), so a
  challenge that expires after a restart is still edited in place.
* Button owners: a reply meant for one person (``Reply.ephemeral``) is private on Discord, but
  on Telegram the whole group sees it; its buttons (confirm resignation, pick a move) are kept
  for the person it answers.
* Usernames: Telegram never tells a bot who ``@bob`` is; the front end notes the id of every
  user it sees with a username, so ``/challenge @bob`` works once Bob has used the bot.

The file lives beside the service's database by default (``TELEGRAM_STATE_DB``); with no path it
is kept in memory.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.core.api import User

KEEP_SECONDS = 90 * 86400  # cards and button owners older than this are forgotten at start-up

_SCHEMA = """
CREATE TABLE IF NOT EXISTS telegram_cards (
    chat TEXT NOT NULL,
    card TEXT NOT NULL,
    chat_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    caption INTEGER NOT NULL,
    saved_at REAL NOT NULL,
    PRIMARY KEY (chat, card)
);
CREATE INDEX IF NOT EXISTS telegram_cards_message ON telegram_cards (chat_id, message_id);
CREATE TABLE IF NOT EXISTS telegram_owned_buttons (
    chat_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    saved_at REAL NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
CREATE TABLE IF NOT EXISTS telegram_usernames (
    username TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    seen_at REAL NOT NULL
);
"""


@dataclass(frozen=True)
class Posted:
    """A message the bot sent: where it is and whether its text is a caption."""

    chat_id: int
    message_id: int
    caption: bool


class Memory:
    """Cards and usernames; in memory when ``path`` is None."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._users: dict[str, User] = {}

    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(str(self.path) if self.path else ":memory:")
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.executescript(_SCHEMA)
        old = time.time() - KEEP_SECONDS
        await self._db.execute("DELETE FROM telegram_cards WHERE saved_at < ?", (old,))
        await self._db.execute("DELETE FROM telegram_owned_buttons WHERE saved_at < ?", (old,))
        await self._db.commit()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    # --- cards --------------------------------------------------------------------------

    async def put_card(self, chat: str, card: str, posted: Posted) -> None:
        db = await self._ready()
        await db.execute(
            "INSERT OR REPLACE INTO telegram_cards "
            "(chat, card, chat_id, message_id, caption, saved_at) VALUES (?, ?, ?, ?, ?, ?)",
            (chat, card, posted.chat_id, posted.message_id, int(posted.caption), time.time()),
        )
        await db.commit()

    async def card(self, chat: str, card: str) -> Posted | None:
        db = await self._ready()
        async with db.execute(
            "SELECT chat_id, message_id, caption FROM telegram_cards WHERE chat = ? AND card = ?",
            (chat, card),
        ) as cursor:
            row = await cursor.fetchone()
        return Posted(int(row[0]), int(row[1]), bool(row[2])) if row else None

    async def is_card(self, chat_id: int, message_id: int) -> bool:
        """Whether the message shows a card (the service edits it; the front end leaves it)."""
        db = await self._ready()
        async with db.execute(
            "SELECT 1 FROM telegram_cards WHERE chat_id = ? AND message_id = ? LIMIT 1",
            (chat_id, message_id),
        ) as cursor:
            return await cursor.fetchone() is not None

    # --- buttons for one person --------------------------------------------------------

    async def set_owner(self, posted: Posted, user_id: str) -> None:
        """Only ``user_id`` may press the buttons under ``posted`` (an answer meant for them)."""
        db = await self._ready()
        await db.execute(
            "INSERT OR REPLACE INTO telegram_owned_buttons (chat_id, message_id, user_id, saved_at)"
            " VALUES (?, ?, ?, ?)",
            (posted.chat_id, posted.message_id, user_id, time.time()),
        )
        await db.commit()

    async def owner(self, chat_id: int, message_id: int) -> str | None:
        """Who alone may press the buttons under the message, if anyone is set."""
        db = await self._ready()
        async with db.execute(
            "SELECT user_id FROM telegram_owned_buttons WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        ) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else None

    # --- usernames ----------------------------------------------------------------------

    async def remember_user(self, username: str, user: User) -> None:
        """Note that ``@username`` is ``user`` (written only when something changed)."""
        key = username.lower()
        if self._users.get(key) == user:
            return
        self._users[key] = user
        db = await self._ready()
        await db.execute(
            "INSERT OR REPLACE INTO telegram_usernames (username, user_id, name, seen_at) "
            "VALUES (?, ?, ?, ?)",
            (key, user.id, user.name, time.time()),
        )
        await db.commit()

    async def user(self, username: str) -> User | None:
        """The user last seen as ``@username`` (case-insensitive), if any."""
        key = username.lstrip("@").lower()
        if key in self._users:
            return self._users[key]
        db = await self._ready()
        async with db.execute(
            "SELECT user_id, name FROM telegram_usernames WHERE username = ?", (key,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        found = User("telegram", str(row[0]), str(row[1]))
        self._users[key] = found
        return found

    async def _ready(self) -> aiosqlite.Connection:
        if self._db is None:
            await self.open()
        assert self._db is not None
        return self._db
