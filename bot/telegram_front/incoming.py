"""Telegram updates into platform-neutral :class:`~bot.core.api.Request` values.

Which messages are meant for the bot: a ``/command`` (``/move@ThisBot`` too, never one
addressed to another bot), and, without a slash, any text in a private chat, a message that
mentions the bot, or a reply to one of the bot's messages that could be a move (remarks in reply
to a board are left alone).  The bot mentioned after the first word (``/challenge @ThisBot``)
is named as the opponent: ``Request.to_bot``.  Text that does not start with a command word is
a move.  The opponent of a challenge is the author of the message replied to, a text mention, or an
``@username`` the bot has seen before; an ``@username`` it has not seen stays in the words and
is listed in ``Request.unknown_mentions``, so the service never takes it for a display name.
People mentioned after the first are ``Request.more_targets`` (a command about one player
refuses them, naming each).
Text is cleaned (:func:`~bot.core.api.clean_text`) before anything reads it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import telegram
from telegram.constants import (
    ChatType,
    InlineKeyboardButtonLimit,
    MessageEntityType,
    MessageLimit,
)

from bot.core.api import ChatKey, Request, User, clean_text
from bot.core.commands import find_command


@dataclass(frozen=True)
class BotIdentity:
    """Who the bot is on Telegram (from ``getMe``)."""

    id: int
    username: str


def to_user(user: telegram.User) -> User:
    """The service's user: display name, and the unique ``@username`` as handle."""
    return User(
        platform="telegram",
        id=str(user.id),
        name=user.full_name or str(user.id),
        handle=user.username or None,
    )


def to_chat(message: telegram.Message | telegram.MaybeInaccessibleMessage) -> ChatKey:
    """The chat of a message; a forum topic is its thread."""
    thread = None
    if isinstance(message, telegram.Message) and message.is_topic_message:
        thread = str(message.message_thread_id)
    return ChatKey(platform="telegram", chat_id=str(message.chat.id), thread_id=thread)


def chat_options(chat: telegram.Chat) -> dict[str, str]:
    """``{"chat": "private"}`` for a one-to-one chat with the bot (where only one person is)."""
    return {"chat": "private"} if chat.type == ChatType.PRIVATE else {}


Resolve = Callable[[str], Awaitable[User | None]]
"""Finds the user behind an ``@username`` the front end has seen before."""


def people_in(update: telegram.Update) -> list[telegram.User]:
    """Everyone an update shows: the sender, the author replied to, text-mentioned users."""
    people = [update.effective_user]
    message = update.effective_message
    if message is not None:
        if message.reply_to_message is not None:
            people.append(message.reply_to_message.from_user)
        people.extend(e.user for e in message.entities if e.type == MessageEntityType.TEXT_MENTION)
    return [p for p in people if p is not None and not p.is_bot]


TEXT_LIMIT = MessageLimit.MAX_TEXT_LENGTH  # 4,096: the longest message a person can send
CALLBACK_LIMIT = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA  # 64 bytes of callback_data
_MOVE_MARK = re.compile(r"[0-9０-９同]")


def could_be_move(words: list[str]) -> bool:
    """Whether a reply to the bot may be a move: every notation names a square with a digit
    (``7g7f``, ``P-7f``, ``７六歩``) or says ``同`` (same square)."""
    return len(words) <= 3 and any(_MOVE_MARK.search(word) for word in words)


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-le")


def _entity_text(text: str, entity: telegram.MessageEntity) -> str:
    """The part of ``text`` an entity covers (its offset and length count UTF-16 units)."""
    raw = _utf16(text)[entity.offset * 2 : (entity.offset + entity.length) * 2]
    return raw.decode("utf-16-le", errors="replace")


def _blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the UTF-16 ``(offset, length)`` spans replaced by spaces."""
    raw = bytearray(_utf16(text))
    for offset, length in spans:
        raw[offset * 2 : (offset + length) * 2] = " ".encode("utf-16-le") * length
    return bytes(raw).decode("utf-16-le", errors="replace")


async def message_request(
    message: telegram.Message, me: BotIdentity, resolve: Resolve
) -> Request | None:
    """The request a text message makes of the bot, or None when it is not for the bot."""
    if len(message.text or "") > TEXT_LIMIT:
        return None  # more than Telegram lets anyone send: nothing a person typed
    text = clean_text(message.text or "")  # lone surrogates keep their UTF-16 length
    sender = message.from_user
    if not text or sender is None or sender.is_bot:
        return None
    private = message.chat.type == ChatType.PRIVATE
    entities = list(message.entities)
    replied = message.reply_to_message
    replied_author = replied.from_user if replied is not None else None
    to_bot = replied_author is not None and replied_author.id == me.id
    # Topic messages in forums are formally replies to the topic's first message; that is no
    # reply to a person.
    if replied is not None and message.is_topic_message and replied.forum_topic_created:
        replied_author, to_bot = None, False

    cut: list[tuple[int, int]] = []
    command: str | None = None
    mentions_bot = False
    names_bot = False  # the bot is mentioned after the first word: /challenge @ThisBot
    first = entities[0] if entities else None
    if first is not None and first.type == MessageEntityType.BOT_COMMAND and first.offset == 0:
        word = _entity_text(text, first)[1:]
        name, _, addressee = word.partition("@")
        if addressee and addressee.lower() != me.username.lower():
            return None
        known = find_command(name)
        if known is None and not (private or addressee):
            return None  # an unknown /command in a group is probably another bot's
        command = known.name if known else name.lower()
        cut.append((first.offset, first.length))
        entities = entities[1:]

    people: list[User] = []  # everyone mentioned: the first is the target, the rest more
    unknown: list[str] = []
    for entity in entities:
        if entity.type == MessageEntityType.TEXT_MENTION and entity.user is not None:
            if entity.user.id == me.id:
                mentions_bot = True
                names_bot = names_bot or entity.offset > 0
            else:
                people.append(to_user(entity.user))
            cut.append((entity.offset, entity.length))
        elif entity.type == MessageEntityType.MENTION:
            username = _entity_text(text, entity)
            if username[1:].lower() == me.username.lower():
                mentions_bot = True
                names_bot = names_bot or entity.offset > 0
                cut.append((entity.offset, entity.length))
            elif (known_user := await resolve(username)) is None:
                unknown.append(username)  # a username is no display name: never guess
            else:
                people.append(known_user)
                cut.append((entity.offset, entity.length))

    words = _blank_spans(text, cut).split()
    if command is None:
        if not (private or to_bot or mentions_bot) or not words:
            return None
        found = find_command(words[0])
        if found is not None and not (private or mentions_bot) and words[0].lower() != found.name:
            found = None  # in a group reply, "no way" is a remark, not the alias of /decline
        if found is not None:
            command, words = found.name, words[1:]
        elif private or mentions_bot or could_be_move(words):
            command = "move"
        else:
            return None  # a remark in reply to the board ("nice one!"), not a move
    target = people[0] if people else None
    if target is None and not names_bot and replied_author and not replied_author.is_bot:
        target = to_user(replied_author)
    return Request(
        chat=to_chat(message),
        user=to_user(sender),
        command=command,
        args=tuple(words),
        options=chat_options(message.chat),
        target=target,
        more_targets=tuple(people[1:]),
        unknown_mentions=tuple(unknown),
        to_bot=names_bot,
    )


def callback_request(query: telegram.CallbackQuery) -> Request | None:
    """The request a pressed inline button makes: its ``callback_data`` is the action."""
    if not query.data or query.message is None or query.from_user.is_bot:
        return None
    if len(query.data.encode()) > CALLBACK_LIMIT:
        return None  # no button of ours (Telegram allows no more): nothing a person pressed
    words = query.data.split()
    if not words:
        return None
    return Request(
        chat=to_chat(query.message),
        user=to_user(query.from_user),
        command=words[0],
        args=tuple(words[1:]),
        options=chat_options(query.message.chat),
    )
