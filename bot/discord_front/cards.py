"""Which Discord message shows which service card, kept across restarts.

The service names messages it may edit later (``Reply.card``, e.g. ``challenge:17``); this
index remembers the channel and message posted for each, in the service's database (through
:class:`~bot.core.api.StateStore`), so an expired challenge is still edited in place after a
restart or by another shard's process.  It also remembers the hash of the last slash-command
payload synced, so a restart does not re-register unchanged commands.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.api import StateStore
from bot.core.frontend_memory import FrontEndMemory

PLATFORM = "discord"
CARD = "card"  # key "<chat key> <card>", value "<channel id> <message id>"
META = "meta"


@dataclass(frozen=True)
class CardMessage:
    channel_id: int
    message_id: int


def _card_key(chat: str, card: str) -> str:
    return f"{chat} {card}"


class CardIndex(FrontEndMemory):
    """``(chat, card) -> message`` and a few settings, in the attached state store."""

    def __init__(self, state: StateStore | None = None) -> None:
        super().__init__(PLATFORM, state)

    async def forget_old(self, now: float | None = None) -> None:
        """Drop cards not written for 90 days (their challenges are long over)."""
        await self.prune((CARD,), now)

    async def remember(self, chat: str, card: str, where: CardMessage) -> None:
        value = f"{where.channel_id} {where.message_id}"
        await self.state.put_state(PLATFORM, CARD, _card_key(chat, card), value)

    async def find(self, chat: str, card: str) -> CardMessage | None:
        value = await self.state.get_state(PLATFORM, CARD, _card_key(chat, card))
        if value is None:
            return None
        try:
            channel_id, message_id = (int(part) for part in value.split())
        except ValueError:
            return None  # not written by this code: treat as unknown, the card is posted anew
        return CardMessage(channel_id, message_id)

    async def forget(self, chat: str, card: str) -> None:
        await self.state.delete_state(PLATFORM, CARD, _card_key(chat, card))

    async def get_meta(self, key: str) -> str | None:
        return await self.state.get_state(PLATFORM, META, key)

    async def set_meta(self, key: str, value: str) -> None:
        await self.state.put_state(PLATFORM, META, key, value)
