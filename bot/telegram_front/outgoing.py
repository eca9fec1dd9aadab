"""Replies into Telegram messages: board photos with captions, documents, inline keyboards.

A reply with an image becomes a photo whose caption is the text (Telegram allows 1,024
characters; longer text follows as its own message, which then carries the buttons).  Files go
out as documents.  Text over 4,096 characters is split at line ends.  Users the reply mentions
become text mentions, so Telegram notifies them without needing a @username.  A reply without a
picture but with a text board (drawing failed, or images are off) shows the board in monospace.
A reply that names a ``card`` is remembered (see :mod:`bot.telegram_front.memory`) so the
service can edit it later.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from telegram import Bot, InputFile, Message, MessageEntity, ReplyParameters
from telegram import User as TgUser
from telegram.constants import MessageLimit
from telegram.error import BadRequest, TelegramError

from bot.core.api import Attachment, ChatKey, Reply, User
from bot.telegram_front.courier import ChatId, Courier
from bot.telegram_front.keyboards import keyboard
from bot.telegram_front.memory import Memory, Posted

log = logging.getLogger(__name__)

CAPTION_LIMIT = MessageLimit.CAPTION_LENGTH  # 1024
TEXT_LIMIT = MessageLimit.MAX_TEXT_LENGTH  # 4096
CARD_WAIT = 3.0
"""Seconds an edit waits for a card that was just posted to be remembered."""


@dataclass
class Press:
    """The message whose inline button the request being handled came from.

    ``shown`` is the text the service put into that very message while handling the press (a
    card edit), so the front end need not post the same words again.
    """

    message: Posted
    shown: str | None = None


pressed: contextvars.ContextVar[Press | None] = contextvars.ContextVar("pressed", default=None)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def mention_entities(text: str, users: Sequence[User]) -> list[MessageEntity]:
    """Text mentions over the first free occurrence of each Telegram user's name in ``text``."""
    entities: list[MessageEntity] = []
    taken: list[tuple[int, int]] = []
    for user in users:
        if user.platform != "telegram" or not user.name or not user.id.lstrip("-").isdigit():
            continue
        start = text.find(user.name)
        while start >= 0 and any(a < start + len(user.name) and start < b for a, b in taken):
            start = text.find(user.name, start + 1)
        if start < 0:
            continue
        taken.append((start, start + len(user.name)))
        entities.append(
            MessageEntity(
                MessageEntity.TEXT_MENTION,
                offset=utf16_len(text[:start]),
                length=utf16_len(user.name),
                user=TgUser(int(user.id), user.name, is_bot=False),
            )
        )
    return sorted(entities, key=lambda e: e.offset)


def with_mentions(text: str, users: Sequence[User]) -> str:
    """``text`` plus a line naming every mentioned user whose name it does not contain."""
    missing = [u.name for u in users if u.platform == "telegram" and u.name and u.name not in text]
    return f"{text}\n{' '.join(missing)}" if missing else text


def split_text(text: str, limit: int = TEXT_LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at line ends where possible."""
    pieces: list[str] = []
    while len(text) > limit:
        cut = text.rfind("\n", 0, limit + 1)
        if cut <= 0:
            cut = limit
        pieces.append(text[:cut])
        text = text[cut:].lstrip("\n")
    if text.strip():
        pieces.append(text)
    return pieces


class Publisher:
    """Sends replies to chats and edits cards, through a :class:`Courier`."""

    def __init__(self, bot: Bot, courier: Courier, memory: Memory) -> None:
        self.bot = bot
        self.courier = courier
        self.memory = memory

    async def send(
        self, chat: ChatKey, reply: Reply, quote: int | None = None, asker: str | None = None
    ) -> list[Posted]:
        """Post ``reply`` in ``chat`` (as an answer to message ``quote`` when given).

        The buttons of a reply meant for ``asker`` alone (ephemeral) are kept for them.
        """
        text = with_mentions(reply.text, reply.mentions).strip()
        markup = keyboard(reply.buttons)
        base = _Target(int(chat.chat_id), int(chat.thread_id) if chat.thread_id else None, quote)
        posted: list[Posted] = []
        card: Posted | None = None
        files = list(reply.files)
        if reply.image is not None:
            fits = len(text) <= CAPTION_LIMIT
            photo = await self._photo(base, reply.image, text if fits else "", reply, fits, markup)
            posted.append(photo)
            if fits:
                card, text = photo, ""
        elif len(files) == 1 and not markup and 0 < len(text) <= CAPTION_LIMIT:
            doc = await self._media(base, "document", files.pop(), text, reply, None)
            posted.append(doc)
            card, text = doc, ""
        board = reply.text_board if reply.image is None and reply.text_board else ""
        if text or board:
            # (text, where the monospace board starts in it or -1)
            pieces = [(piece, -1) for piece in split_text(text)]
            if board and len(text) + 2 + len(board) <= TEXT_LIMIT:
                pieces = [(f"{text}\n\n{board}", len(text) + 2) if text else (board, 0)]
            elif board:
                pieces += [(piece, 0) for piece in split_text(board)]
            for number, (piece, pre) in enumerate(pieces, 1):
                last = number == len(pieces)
                message = await self._text(base, piece, reply, markup if last else None, pre)
                posted.append(message)
                card = message if last else card
        for attachment in files:
            posted.append(await self._media(base, "document", attachment, "", reply, None))
        if reply.card and card is not None:
            await self.memory.put_card(chat.key, reply.card, card)
        if reply.ephemeral and markup is not None and asker is not None and card is not None:
            await self.memory.set_owner(card, asker)
        return posted

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        """Show ``reply`` in the message of ``card``; post it anew when that message is gone."""
        press = pressed.get()
        if press is not None and str(press.message.chat_id) != chat.chat_id:
            press = None
        posted = await self.memory.card(chat.key, card) or (press.message if press else None)
        waited = 0.0  # a card posted a moment ago is remembered once Telegram has answered
        while posted is None and waited < CARD_WAIT:
            await asyncio.sleep(0.05)
            waited += 0.05
            posted = await self.memory.card(chat.key, card)
        if posted is None:
            log.info("telegram card %s is not known here; posting it anew", card)
            await self.send(chat, reply)
            return
        text = with_mentions(reply.text, reply.mentions).strip()
        entities = mention_entities(text, reply.mentions)
        markup = keyboard(reply.buttons)
        try:
            if posted.caption:
                await self.courier.call(
                    posted.chat_id,
                    lambda cid: self.bot.edit_message_caption(
                        chat_id=cid,
                        message_id=posted.message_id,
                        caption=text[:CAPTION_LIMIT],
                        caption_entities=entities if len(text) <= CAPTION_LIMIT else None,
                        reply_markup=markup,
                    ),
                )
            else:
                await self.courier.call(
                    posted.chat_id,
                    lambda cid: self.bot.edit_message_text(
                        chat_id=cid,
                        message_id=posted.message_id,
                        text=text[:TEXT_LIMIT] or "…",
                        entities=entities if len(text) <= TEXT_LIMIT else None,
                        reply_markup=markup,
                    ),
                )
        except BadRequest as error:
            if "not modified" in error.message.lower():
                return
            log.warning("telegram card %s could not be edited (%s); posting it anew", card, error)
            await self.send(chat, reply)
            return
        await self.memory.put_card(chat.key, card, posted)
        if press is not None and press.message.message_id == posted.message_id:
            press.shown = text

    async def drop_keyboard(self, posted: Posted) -> None:
        """Take the buttons off a message whose question has been answered."""
        try:
            await self.courier.call(
                posted.chat_id,
                lambda cid: self.bot.edit_message_reply_markup(
                    chat_id=cid, message_id=posted.message_id, reply_markup=None
                ),
            )
        except TelegramError as error:
            log.info("telegram: buttons of message %s stay (%s)", posted.message_id, error)

    async def _photo(
        self,
        target: _Target,
        image: Attachment,
        caption: str,
        reply: Reply,
        fits: bool,
        markup: object,
    ) -> Posted:
        """The image as a photo; as a document when Telegram refuses it as a photo."""
        try:
            return await self._media(
                target, "photo", image, caption, reply, markup if fits else None
            )
        except BadRequest as error:
            log.warning(
                "telegram refused %s as a photo (%s); sending a file", image.filename, error
            )
            return await self._media(
                target, "document", image, caption, reply, markup if fits else None
            )

    async def _text(
        self, target: _Target, text: str, reply: Reply, markup: object, pre: int = -1
    ) -> Posted:
        """A text message; from character ``pre`` on (if not -1) it is shown in monospace."""

        async def send(entities: list[MessageEntity]) -> Message:
            return await self.courier.call(
                target.chat_id,
                lambda cid: self.bot.send_message(
                    chat_id=cid,
                    text=text,
                    entities=entities or None,
                    parse_mode=None,
                    reply_markup=markup,  # type: ignore[arg-type]
                    message_thread_id=target.thread_id,
                    reply_parameters=target.reply_parameters(),
                ),
            )

        entities = mention_entities(text[:pre] if pre >= 0 else text, reply.mentions)
        if pre >= 0:
            offset = utf16_len(text[:pre])
            block = MessageEntity(MessageEntity.PRE, offset, utf16_len(text) - offset)
            entities = sorted([*entities, block], key=lambda e: e.offset)
        message = await _without_mentions_if_refused(send, entities)
        return Posted(message.chat_id, message.message_id, caption=False)

    async def _media(
        self,
        target: _Target,
        kind: str,
        attachment: Attachment,
        caption: str,
        reply: Reply,
        markup: object,
    ) -> Posted:
        upload = self.bot.send_photo if kind == "photo" else self.bot.send_document

        async def send(entities: list[MessageEntity]) -> Message:
            return await self.courier.call(
                target.chat_id,
                lambda cid: upload(
                    cid,
                    InputFile(attachment.data, filename=attachment.filename),
                    caption=caption or None,
                    caption_entities=entities or None,
                    parse_mode=None,
                    reply_markup=markup,  # type: ignore[arg-type]
                    message_thread_id=target.thread_id,
                    reply_parameters=target.reply_parameters(),
                ),
            )

        entities = mention_entities(caption, reply.mentions) if caption else []
        message = await _without_mentions_if_refused(send, entities)
        return Posted(message.chat_id, message.message_id, caption=True)


async def _without_mentions_if_refused(
    send: Callable[[list[MessageEntity]], Awaitable[Message]], entities: list[MessageEntity]
) -> Message:
    """``send(entities)``; sent again without them if Telegram refuses the message."""
    try:
        return await send(entities)
    except BadRequest as error:
        if not entities:
            raise
        log.warning("telegram refused the mentions (%s); sending without them", error)
        return await send([])


@dataclass(frozen=True)
class _Target:
    chat_id: ChatId
    thread_id: int | None
    quote: int | None

    def reply_parameters(self) -> ReplyParameters | None:
        if self.quote is None:
            return None
        return ReplyParameters(self.quote, allow_sending_without_reply=True)
