"""What the Telegram front end remembers across restarts, in the service's database.

* Cards: which message shows each service card (``Reply.card``, e.g. ``challenge:17``), so a
  challenge that expires after a restart is still edited in place.
* Button owners: a reply meant for one person (``Reply.ephemeral``) is private on Discord, but
  on Telegram the whole group sees it; its buttons (confirm resignation, pick a move) are kept
  for the person it answers.
* Usernames: Telegram never tells a bot who ``@bob`` is; the front end notes the id of every
  user it sees with a username, so ``/challenge @bob`` works once Bob has used the bot.

Everything goes through the :class:`~bot.core.api.StateStore` that ``run_app`` attaches, so
several webhook workers sharing one database share it too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.core.api import StateStore, User
from bot.core.frontend_memory import FrontEndMemory

PLATFORM = "telegram"
CARD = "card"  # "<chat key> <card>" -> "<chat id> <message id> <caption 0/1>"
CARD_MESSAGE = "card-message"  # "<chat id> <message id>" -> "<chat key> <card>"
OWNER = "button-owner"  # "<chat id> <message id>" -> user id
USERNAME = "username"  # lower-case username -> {"id": ..., "name": ...}


@dataclass(frozen=True)
class Posted:
    """A message the bot sent: where it is and whether its text is a caption."""

    chat_id: int
    message_id: int
    caption: bool


def _message_key(chat_id: int, message_id: int) -> str:
    return f"{chat_id} {message_id}"


def _posted(value: str) -> Posted | None:
    try:
        chat_id, message_id, caption = (int(part) for part in value.split())
    except ValueError:
        return None
    return Posted(chat_id, message_id, bool(caption))


class Memory(FrontEndMemory):
    """Cards, button owners and usernames, in the attached state store."""

    def __init__(self, state: StateStore | None = None) -> None:
        super().__init__(PLATFORM, state)
        self._users: dict[str, User] = {}  # what this process last wrote, to skip rewrites

    async def forget_old(self, now: float | None = None) -> None:
        """Drop cards and button owners not written for 90 days (usernames are kept)."""
        await self.prune((CARD, CARD_MESSAGE, OWNER), now)

    # --- cards --------------------------------------------------------------------------

    async def put_card(self, chat: str, card: str, posted: Posted) -> None:
        key = f"{chat} {card}"
        value = f"{posted.chat_id} {posted.message_id} {int(posted.caption)}"
        await self.state.put_state(PLATFORM, CARD, key, value)
        await self.state.put_state(
            PLATFORM, CARD_MESSAGE, _message_key(posted.chat_id, posted.message_id), key
        )

    async def card(self, chat: str, card: str) -> Posted | None:
        return await self._card(f"{chat} {card}")

    async def is_card(self, chat_id: int, message_id: int) -> bool:
        """Whether the message shows a card (the service edits it; the front end leaves it)."""
        key = await self.state.get_state(PLATFORM, CARD_MESSAGE, _message_key(chat_id, message_id))
        if key is None:
            return False
        posted = await self._card(key)  # a card posted anew has left its old message
        return posted is not None and (posted.chat_id, posted.message_id) == (chat_id, message_id)

    async def _card(self, key: str) -> Posted | None:
        value = await self.state.get_state(PLATFORM, CARD, key)
        return _posted(value) if value is not None else None

    # --- buttons for one person --------------------------------------------------------

    async def set_owner(self, posted: Posted, user_id: str) -> None:
        """Only ``user_id`` may press the buttons under ``posted`` (an answer meant for them)."""
        key = _message_key(posted.chat_id, posted.message_id)
        await self.state.put_state(PLATFORM, OWNER, key, user_id)

    async def owner(self, chat_id: int, message_id: int) -> str | None:
        """Who alone may press the buttons under the message, if anyone is set."""
        return await self.state.get_state(PLATFORM, OWNER, _message_key(chat_id, message_id))

    # --- usernames ----------------------------------------------------------------------

    async def remember_user(self, username: str, user: User) -> None:
        """Note that ``@username`` is ``user`` (written only when something changed)."""
        key = username.lower()
        if self._users.get(key) == user:
            return
        value = json.dumps({"id": user.id, "name": user.name}, ensure_ascii=False)
        await self.state.put_state(PLATFORM, USERNAME, key, value)
        self._users[key] = user

    async def user(self, username: str) -> User | None:
        """The user last seen as ``@username`` (case-insensitive), if any."""
        key = username.lstrip("@").lower()
        value = await self.state.get_state(PLATFORM, USERNAME, key)
        if value is None:
            return None
        try:
            data = json.loads(value)
            return User("telegram", str(data["id"]), str(data["name"]), username.lstrip("@"))
        except (ValueError, KeyError, TypeError):
            return None
