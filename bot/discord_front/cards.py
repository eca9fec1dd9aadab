"""Which Discord message shows which service card, kept across restarts.

The service names messages it may edit later (``Reply.card``, e.g. ``challenge:17``); this
index remembers the channel and message posted for each, in a small SQLite file of the Discord
front end's own (or in memory), so an expired challenge is still edited in place after a restart.
It also remembers the hash of the last slash-command payload synced, so a restart does not
re-register unchanged commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import aiosqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS cards (
    chat TEXT NOT NULL,
    card TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (chat, card)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class CardMessage:
    channel_id: int
    message_id: int


class CardIndex:
    """``(chat, card) -> message``; in memory when ``path`` is None."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(str(self.path) if self.path else ":memory:")
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.executescript(_SCHEMA)
        await self._db.commit()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("CardIndex used before open()")
        return self._db

    async def remember(self, chat: str, card: str, where: CardMessage) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO cards (chat, card, channel_id, message_id) VALUES (?, ?, ?, ?)",
            (chat, card, where.channel_id, where.message_id),
        )
        await self.db.commit()

    async def find(self, chat: str, card: str) -> CardMessage | None:
        async with self.db.execute(
            "SELECT channel_id, message_id FROM cards WHERE chat = ? AND card = ?", (chat, card)
        ) as cursor:
            row = await cursor.fetchone()
        return CardMessage(int(row[0]), int(row[1])) if row else None

    async def forget(self, chat: str, card: str) -> None:
        await self.db.execute("DELETE FROM cards WHERE chat = ? AND card = ?", (chat, card))
        await self.db.commit()

    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value)
        )
        await self.db.commit()
