"""Which Telegram message shows each service card (``challenge:17``), kept across restarts.

The service names messages it may edit later (``Reply.card``); the book remembers the chat and
message posted for each in a small SQLite file of the Telegram front end's own, beside the
service's database (or in memory), so that a challenge expiring after a restart is still edited
in place.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

KEEP_SECONDS = 90 * 86400  # cards older than this are forgotten at start-up

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
"""


@dataclass(frozen=True)
class Posted:
    """A message the bot sent: where it is and whether its text is a caption."""

    chat_id: int
    message_id: int
    caption: bool


class CardBook:
    """``(chat, card) -> Posted``; in memory when ``path`` is None."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(str(self.path) if self.path else ":memory:")
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.executescript(_SCHEMA)
        await self._db.execute(
            "DELETE FROM telegram_cards WHERE saved_at < ?", (time.time() - KEEP_SECONDS,)
        )
        await self._db.commit()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def put(self, chat: str, card: str, posted: Posted) -> None:
        db = await self._ready()
        await db.execute(
            "INSERT OR REPLACE INTO telegram_cards "
            "(chat, card, chat_id, message_id, caption, saved_at) VALUES (?, ?, ?, ?, ?, ?)",
            (chat, card, posted.chat_id, posted.message_id, int(posted.caption), time.time()),
        )
        await db.commit()

    async def get(self, chat: str, card: str) -> Posted | None:
        db = await self._ready()
        async with db.execute(
            "SELECT chat_id, message_id, caption FROM telegram_cards WHERE chat = ? AND card = ?",
            (chat, card),
        ) as cursor:
            row = await cursor.fetchone()
        return Posted(int(row[0]), int(row[1]), bool(row[2])) if row else None

    async def holds(self, chat_id: int, message_id: int) -> bool:
        """Whether the message shows a card (the service edits it; the front end leaves it)."""
        db = await self._ready()
        async with db.execute(
            "SELECT 1 FROM telegram_cards WHERE chat_id = ? AND message_id = ? LIMIT 1",
            (chat_id, message_id),
        ) as cursor:
            return await cursor.fetchone() is not None

    async def _ready(self) -> aiosqlite.Connection:
        if self._db is None:
            await self.open()
        assert self._db is not None
        return self._db
