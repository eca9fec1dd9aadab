"""The platform-neutral contract between front ends and the game service.

A front end turns a platform event into a :class:`Request`, hands it to
``GameService.handle`` and turns the :class:`Reply` back into a platform message.  Messages the
service sends on its own (reminders, time-outs, challenge cards to edit) go out through the
:class:`Outbox` each front end implements.  Nothing here knows about any platform.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

Platform = Literal["discord", "telegram", "console"]

_UNCLEAN = re.compile("[\x00\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` as valid UTF-8 can hold it: a surrogate pair split into two code points is
    joined, a lone surrogate becomes U+FFFD, NUL becomes U+FFFD.

    Chat platforms deliver JSON, which may carry lone surrogates (``"\\ud800"``); the
    database and every encoder refuse them.  Surrogates and pairs are one UTF-16 unit each
    before and after, so Telegram's entity offsets stay right.
    """
    if text.isascii() and "\x00" not in text:
        return text
    if _UNCLEAN.search(text) is None:
        return text
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return joined.replace("\x00", "\ufffd")


def _clean_fields(obj: object, names: tuple[str, ...]) -> None:
    """Clean the text fields ``names`` of a frozen dataclass in place (from ``__post_init__``)."""
    for name in names:
        value = getattr(obj, name)
        if isinstance(value, str):
            cleaned = clean_text(value)
            if cleaned is not value:
                object.__setattr__(obj, name, cleaned)


@dataclass(frozen=True)
class User:
    """A person on one platform. ``id`` is the platform's own id as text.

    ``handle`` is the platform's unique user name when it has one (a Telegram ``@username``,
    a Discord user name), shown next to the display name where telling people apart matters;
    it does not take part in comparisons.  Text is cleaned with :func:`clean_text`.
    """

    platform: Platform
    id: str
    name: str  # display name, for text and board headers; anyone may pick any
    handle: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _clean_fields(self, ("id", "name", "handle"))

    @property
    def key(self) -> str:
        """Globally unique key, e.g. ``discord:1234``."""
        return f"{self.platform}:{self.id}"


@dataclass(frozen=True)
class ChatRef:
    """Where a message goes: a chat (channel, group, private chat, console room).

    ``community`` is the group of chats the chat belongs to where the platform has one (a
    Discord server's id); None when the chat is its own community (a Telegram group, a
    Discord DM, the console).  Ratings and leaderboards are kept per community
    (:attr:`community_id`); it takes no part in comparisons: a chat is its id."""

    platform: Platform
    chat_id: str
    thread_id: str | None = None
    community: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _clean_fields(self, ("chat_id", "thread_id", "community"))

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.chat_id}"

    @property
    def community_id(self) -> str:
        """The community whose ratings this chat shows: the server, else the chat itself."""
        return self.community or self.chat_id


@dataclass(frozen=True)
class Request:
    """One command from one user in one chat.

    ``command`` is the canonical command name (``challenge``, ``move``, ``board``...);
    ``args`` the remaining words as typed; ``options`` named values where the platform has them
    (slash-command options, button payloads).  ``target`` is a user the platform identified for
    the command, by id (a Telegram reply or mention, a Discord user option or mention).
    ``unknown_mentions`` are words of ``args`` that are platform mentions the front end could
    not tie to a user (a Telegram ``@username`` the bot has never seen): the service refuses
    them rather than guess from display names.  ``to_bot`` says the command names the bot
    itself (a mention of the bot, the bot picked in a user option): ``/challenge @Komabot``
    is a game against the bot.

    Every text is cleaned with :func:`clean_text` on construction, so whatever a front end
    passes reaches the service and the store as valid UTF-8.
    """

    chat: ChatRef
    user: User
    command: str
    args: tuple[str, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    target: User | None = None
    unknown_mentions: tuple[str, ...] = ()
    to_bot: bool = False

    def __post_init__(self) -> None:
        _clean_fields(self, ("command",))
        for name in ("args", "unknown_mentions"):
            words = getattr(self, name)
            cleaned = tuple(clean_text(w) for w in words)
            if cleaned != words:
                object.__setattr__(self, name, cleaned)
        if any(clean_text(k) is not k or clean_text(v) is not v for k, v in self.options.items()):
            options = {clean_text(k): clean_text(v) for k, v in self.options.items()}
            object.__setattr__(self, "options", options)


ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Button:
    """A button; pressing it sends a Request with ``command`` and ``args`` from ``action``.

    ``action`` is a short string such as ``accept 42`` (command, then arguments) that fits a
    Discord ``custom_id`` (100 chars) and a Telegram ``callback_data`` (64 bytes).
    """

    label: str
    action: str
    style: ButtonStyle = "secondary"


@dataclass(frozen=True)
class Attachment:
    data: bytes
    filename: str  # "board.png", "game-12.kifu", "game-12.gif"
    mime: str  # "image/png", "image/gif", "text/plain"...

    @property
    def is_image(self) -> bool:
        return self.mime.startswith("image/")


@dataclass(frozen=True)
class Reply:
    """What the service answers: text, an optional image, optional files and buttons.

    ``ephemeral`` marks answers meant only for the asker (user errors, private lists);
    ``mentions`` lists users the text calls on (the player to move); ``card`` names a message
    the service may later edit (a challenge card: ``challenge:17``) so a front end can remember
    the platform message it posted for it.  ``silent`` and ``thread_title`` are explained at
    the fields.  ``text_board`` repeats the image's board as plain
    text (ranks, files, hands) for front ends that cannot show pictures, such as the console.
    """

    text: str
    image: Attachment | None = None
    files: tuple[Attachment, ...] = ()
    buttons: tuple[tuple[Button, ...], ...] = ()
    ephemeral: bool = False
    mentions: tuple[User, ...] = ()
    card: str | None = None
    text_board: str | None = None  # the board as plain text, for text-only front ends
    lang: str = "en"  # the chat's language, for words the front end adds itself
    silent: bool = False  # nothing to say: the message was not meant for the bot (a bare move
    # typed where bare moves are off); the front end posts nothing
    thread_title: str | None = None  # the chat wants a thread per game: a front end that can
    # open threads opens one with this title and sends the request again from inside it
    idempotency_key: str | None = None  # the same on every attempt to deliver one message the
    # service sends on its own: a platform that can (Discord's message nonce) posts it once


class DeliveryRefused(Exception):
    """The platform refused a message for good (the bot may not write there, the user does not
    accept direct messages, the chat is gone): sending it again would not help."""


class Outbox(Protocol):
    """How the service reaches a chat without a request (reminders, time-outs, card edits).

    ``send`` returns once the platform accepted the message and raises when it did not:
    :class:`DeliveryRefused` when trying again cannot help, any other error when it may (the
    service retries those later, with the same ``Reply.idempotency_key``).
    """

    async def send(self, chat: ChatRef, reply: Reply) -> None: ...

    async def edit_card(self, chat: ChatRef, card: str, reply: Reply) -> None: ...


Handler = Callable[[Request], Awaitable[Reply]]


class StateStore(Protocol):
    """What a front end may keep in the service's database: small text values by key.

    Entries are grouped by ``platform`` and ``kind`` (``card``, ``username``...); every write
    stamps the entry with the time, so old ones can be pruned.  The service's store implements
    it, so front ends in several processes sharing one database share what they remember.
    """

    async def put_state(self, platform: str, kind: str, key: str, value: str) -> None: ...

    async def get_state(self, platform: str, kind: str, key: str) -> str | None: ...

    async def delete_state(self, platform: str, kind: str, key: str) -> None: ...

    async def prune_state(self, platform: str, kind: str, before: float) -> int:
        """Delete the ``kind`` entries last written before ``before`` (Unix time); how many."""
        ...


@runtime_checkable
class KeepsState(Protocol):
    """A front end that remembers things across restarts; ``run_app`` attaches the store
    before ``run``.  Front ends without it (the console) are not asked."""

    def attach_state(self, state: StateStore) -> None: ...


class FrontEnd(Outbox, Protocol):
    """A chat platform adapter: runs until ``stop`` is set, answering requests with ``handle``.

    ``komabot run`` starts every configured front end in one event loop over one service; the
    service reaches each one through its ``Outbox`` methods, chosen by ``ChatRef.platform``.
    A front end that remembers things across restarts also implements :class:`KeepsState`.
    """

    platform: Platform

    async def run(self, handle: Handler, stop: asyncio.Event) -> None: ...
