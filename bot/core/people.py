"""People: the names and platform handles the bot has seen, and whom a typed ``@name`` means."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.chat import platform_of
from bot.core.api import User
from bot.core.context import Context, UserError
from bot.core.messages import text
from bot.store.errors import StoreWriteError
from bot.store.interface import Store
from bot.store.models import ENGINE_PLAYER, GameRow, UserRow

log = logging.getLogger("komabot.service")

# Platform handles (Telegram usernames, Discord user names), kept in the store's key-value
# state: user id -> handle, and lower-case handle -> user id.
USER_HANDLE = "user-handle"
HANDLE_USER = "handle-user"


def mentions(word: str, *users: User | None) -> bool:
    """Whether the typed ``@word`` is how the platform wrote its mention of one of ``users``
    (a display name or handle, any case): a mention the request already resolved."""
    name = word[1:].lower()
    return any(
        user is not None and name in (user.name.lower(), (user.handle or "").lower())
        for user in users
    )


class People:
    """Names and handles of users, cached in this process, over the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._names: dict[str, str] = {}
        self._handles: dict[str, str | None] = {}
        self._name_write_failed = False

    async def remember(self, user: User) -> None:
        """Keep the user's current display name (for mentions and boards) and platform handle
        (to tell people of one name apart)."""
        if self._names.get(user.key) != user.name:
            await self.store.save_user(UserRow(user.key, user.platform, user.id, user.name))
            self._names[user.key] = user.name
        # handle_of reads the stored handle once per process: a restart writes nothing new
        if user.handle and await self.handle_of(user.key) != user.handle:
            await self.store.put_state(user.platform, USER_HANDLE, user.id, user.handle)
            await self.store.put_state(user.platform, HANDLE_USER, user.handle.lower(), user.id)
            self._handles[user.key] = user.handle

    async def remember_quietly(self, *users: User | None) -> None:
        """:meth:`remember` the people of a request; a database that takes no writes (read-only,
        disk full) only costs the name update, never the request (logged once)."""
        for user in users:
            if user is None:
                continue
            try:
                await self.remember(user)
            except StoreWriteError as exc:
                if not self._name_write_failed:
                    log.warning("cannot keep user names (%s); requests go on without", exc)
                self._name_write_failed = True

    async def handle_of(self, key: str) -> str | None:
        """The platform handle last seen for the user ``key``, if any."""
        if key not in self._handles:
            platform, _, uid = key.partition(":")
            self._handles[key] = await self.store.get_state(platform, USER_HANDLE, uid)
        return self._handles[key]

    async def user_with_handle(self, platform: str, handle: str) -> str | None:
        """The key of the user last seen with ``handle`` (ignoring case) who still has it."""
        uid = await self.store.get_state(platform, HANDLE_USER, handle.lower())
        if uid is None:
            return None
        key = f"{platform}:{uid}"
        current = await self.handle_of(key)
        return key if current is not None and current.lower() == handle.lower() else None

    async def name(self, key: str) -> str:
        if key == ENGINE_PLAYER:
            return text("bot.brand")
        if key not in self._names:
            row = await self.store.get_user(key)
            self._names[key] = row.name if row else key.partition(":")[2]
        return self._names[key]

    async def one_player(self, keys: Sequence[str]) -> str | None:
        """The one player ``keys`` name (named twice is still one), None for nobody.  Two or
        more are refused, each named (``rating.one_player``), never settled by taking one:
        what every command about one player (/rating, /history, /challenge...) says."""
        players = list(dict.fromkeys(keys))
        if len(players) > 1:
            raise UserError("rating.one_player", names=[await self.name(k) for k in players])
        return players[0] if players else None

    async def names(self, game: GameRow, lang: str = "en") -> tuple[str, str]:
        """The players' names; the bot's says its level ("Komabot, level 4", in ``lang``)."""
        names = [await self.name(game.sente), await self.name(game.gote)]
        if game.engine_color is not None:
            names[game.engine_color] = text("bot.name", lang, level=game.engine_level)
        return names[0], names[1]

    async def user(self, key: str) -> User:
        return User(platform_of(key), key.partition(":")[2], await self.name(key))

    async def who(self, key: str) -> str:
        """A user's display name with their handle: ``Bob (@bob_real)``."""
        name = await self.name(key)
        handle = await self.handle_of(key)
        return f"{name} (@{handle})" if handle else name

    async def user_by_name(self, ctx: Context, word: str) -> User:
        """The one user ``@name`` can mean: typed text is matched against display names and
        handles (Telegram usernames, Discord user names) of the people the bot knows on this
        platform, never against ids; a name two people share is refused with their handles.

        Display names are anyone's to choose, so only a platform mention (``Request.target``)
        names a person for certain; the challenge card says whom a typed name was taken for.
        """
        name = word[1:]
        platform = ctx.chat.platform
        if name.isdecimal():
            raise UserError("challenge.number_name", name=word)
        keys = [row.key for row in await self.store.users_named(platform, name)]
        by_handle = await self.user_with_handle(platform, name)
        if by_handle is not None and by_handle not in keys:
            keys.insert(0, by_handle)
        if not keys:
            raise UserError("challenge.unknown_user", name=word)
        if len(keys) > 1:
            people = [await self.who(key) for key in keys]
            raise UserError("challenge.ambiguous_user", name=word, people=people)
        user = await self.user(keys[0])
        return User(user.platform, user.id, user.name, await self.handle_of(user.key))
