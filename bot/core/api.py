"""The platform-neutral contract between front ends and the game service.

A front end turns a platform event into a :class:`Request`, hands it to
``GameService.handle`` and turns the :class:`Reply` back into a platform message.  Messages the
service sends on its own (reminders, time-outs, challenge cards to edit) go out through the
:class:`Outbox` each front end implements.  Nothing here knows about any platform.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from bot.chat import ChatKey, Platform, clean_fields, clean_text

__all__ = [  # the chat reference is bot.chat's, named here for the front ends
    "Attachment",
    "Button",
    "ChatKey",
    "DeliveryRefused",
    "FrontEnd",
    "Handler",
    "KeepsState",
    "Outbox",
    "Platform",
    "Reply",
    "Request",
    "StateStore",
    "User",
    "clean_text",
]


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
        clean_fields(self, ("id", "name", "handle"))

    @property
    def key(self) -> str:
        """Globally unique key, e.g. ``discord:1234``."""
        return f"{self.platform}:{self.id}"


@dataclass(frozen=True)
class Request:
    """One command from one user in one chat.

    ``command`` is the canonical command name (``challenge``, ``move``, ``board``...);
    ``args`` the remaining words as typed; ``options`` named values where the platform has them
    (slash-command options, button payloads).  ``target`` is a user the platform identified for
    the command, by id (a Telegram reply or mention, a Discord user option or mention);
    ``more_targets`` the people mentioned after it (``/rating @bob @carol``): a command about
    one player refuses them all, naming each, rather than pick one.
    ``unknown_mentions`` are words of ``args`` that are platform mentions the front end could
    not tie to a user (a Telegram ``@username`` the bot has never seen): the service refuses
    them rather than guess from display names.  ``to_bot`` says the command names the bot
    itself (a mention of the bot, the bot picked in a user option): ``/challenge @Komabot``
    is a game against the bot.

    Every text is cleaned with :func:`clean_text` on construction, so whatever a front end
    passes reaches the service and the store as valid UTF-8.
    """

    chat: ChatKey
    user: User
    command: str
    args: tuple[str, ...] = ()
    options: Mapping[str, str] = field(default_factory=dict)
    target: User | None = None
    more_targets: tuple[User, ...] = ()
    unknown_mentions: tuple[str, ...] = ()
    to_bot: bool = False

    def __post_init__(self) -> None:
        clean_fields(self, ("command",))
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

    async def send(self, chat: ChatKey, reply: Reply) -> None: ...

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None: ...


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
    service reaches each one through its ``Outbox`` methods, chosen by ``ChatKey.platform``.
    A front end that remembers things across restarts also implements :class:`KeepsState`.
    """

    platform: Platform

    async def run(self, handle: Handler, stop: asyncio.Event) -> None: ...
