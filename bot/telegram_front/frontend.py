"""The Telegram front end: python-telegram-bot in, ``GameService.handle`` through, Telegram out.

It holds no game logic.  Updates arrive by long polling (default) or by webhook; each message
or button press for the bot becomes a :class:`~bot.core.api.Request`, and the
:class:`~bot.core.api.Reply` goes back as messages.  Updates of one chat are handled in order,
different chats concurrently.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dtm
import itertools
import logging
import sys
from collections.abc import Awaitable
from typing import Any

import telegram
from telegram import (
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
    Update,
)
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseUpdateProcessor,
    ContextTypes,
    TypeHandler,
)

from bot.config import Config, install_redaction, redact
from bot.core.api import ChatKey, DeliveryRefused, Handler, Platform, Reply, Request, StateStore
from bot.core.commands import COMMANDS
from bot.core.messages import LANGUAGES, text
from bot.telegram_front.courier import Courier
from bot.telegram_front.incoming import (
    BotIdentity,
    callback_request,
    message_request,
    people_in,
    to_user,
)
from bot.telegram_front.memory import Memory, Posted
from bot.telegram_front.outgoing import Press, Publisher, pressed
from bot.telegram_front.settings import TelegramSettings
from bot.telegram_front.webhook import WebhookServer

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ("message", "callback_query")
KEEP_BUTTONS_AFTER = frozenset(
    {"export", "board", "moves", "games", "piece", "cheatsheet", "help", "play"}
)
"""Buttons that only show something stay under their message; an answered question's go."""
ALERT_LIMIT = 200  # characters in an answerCallbackQuery alert
COMMAND_DESCRIPTION_LIMIT = 256
DESCRIPTION_LIMIT = 512  # setMyDescription: what an empty private chat with the bot shows
SHORT_DESCRIPTION_LIMIT = 120  # setMyShortDescription: the bot's profile and share card
# Commands a group's members other than its administrators are not offered in the menu: they
# change the chat's settings (a member may still type /settings reminders dm).
ADMIN_COMMANDS = frozenset({"settings"})
READY_TIMEOUT = 120.0  # seconds the Outbox waits for the bot to log in
START_ATTEMPTS_PAUSE = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


def bot_commands(lang: str = "en", members: bool = False) -> list[BotCommand]:
    """The menu Telegram shows: the commands of the service's table with their summaries; for
    ``members`` of a group (not its administrators) without those that change the chat."""
    return [
        BotCommand(command.name, command.summary(lang)[:COMMAND_DESCRIPTION_LIMIT])
        for command in COMMANDS
        if not (members and command.name in ADMIN_COMMANDS)
    ]


# (scope, whether it is a group's ordinary members) in the order they are registered; the
# default scope first, for clients that match no other
MENU_SCOPES: tuple[tuple[BotCommandScope, bool], ...] = (
    (BotCommandScopeDefault(), False),
    (BotCommandScopeAllPrivateChats(), False),
    (BotCommandScopeAllGroupChats(), True),
    (BotCommandScopeAllChatAdministrators(), False),
)


async def register_commands(bot: telegram.Bot) -> None:
    """``setMyCommands`` for private chats, groups and group administrators, each in English
    (the default) and in every other catalogue language; ``setMyDescription`` and
    ``setMyShortDescription`` in every language too."""
    for scope, members in MENU_SCOPES:
        for lang in LANGUAGES:
            code: str | None = None if lang == "en" else lang
            await bot.set_my_commands(bot_commands(lang, members), scope=scope, language_code=code)
    for lang in LANGUAGES:
        code = None if lang == "en" else lang
        description = text("telegram.description", lang)[:DESCRIPTION_LIMIT]
        short = text("telegram.short_description", lang)[:SHORT_DESCRIPTION_LIMIT]
        await bot.set_my_description(description, language_code=code)
        await bot.set_my_short_description(short, language_code=code)


def user_language(user: telegram.User | None) -> str:
    """The catalogue language of a Telegram user's app (``language_code``), else English: for
    the few words said before the chat's settings are read."""
    code = (user.language_code or "").split("-")[0] if user is not None else ""
    return code if code in LANGUAGES else "en"


class ChatOrder(BaseUpdateProcessor):
    """Processes updates of one chat one after another, of different chats side by side."""

    def __init__(self, max_concurrent_updates: int = 64) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock = self._locks.setdefault(chat.id, asyncio.Lock())
        self._waiting[chat.id] = self._waiting.get(chat.id, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._waiting[chat.id] -= 1
            if not self._waiting[chat.id]:
                del self._waiting[chat.id], self._locks[chat.id]

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to free."""


class TelegramFrontEnd:
    """The :class:`~bot.core.api.FrontEnd` for Telegram (``komabot telegram`` / ``run``)."""

    platform: Platform = "telegram"

    def __init__(self, config: Config, settings: TelegramSettings | None = None) -> None:
        self.config = config
        self.settings = settings or TelegramSettings.from_env(config.telegram_token)
        install_redaction(self.secrets)  # ptb and httpx log request URLs, token included
        self.application = self._build()
        self.memory = Memory()  # the service's database, from attach_state
        self.courier = Courier()
        self.publisher = Publisher(self.application.bot, self.courier, self.memory)
        self._handle: Handler | None = None
        self._me: BotIdentity | None = None
        self._ready = asyncio.Event()
        self._webhook: WebhookServer | None = None

    def _build(self) -> Application:  # type: ignore[type-arg]
        builder: ApplicationBuilder = (  # type: ignore[type-arg]
            Application.builder()
            .token(self.settings.token)
            .base_url(self.settings.base_url)
            .base_file_url(self.settings.base_file_url)
            .concurrent_updates(ChatOrder())
            .connection_pool_size(16)
            .media_write_timeout(60)
        )
        application = builder.build()
        application.add_handler(TypeHandler(Update, self._on_update))
        application.add_error_handler(self._on_error)
        return application

    # ----------------------------------------------------------------- FrontEnd protocol

    def attach_state(self, state: StateStore) -> None:
        """Remember cards, button owners and usernames in ``state`` (the service's DB)."""
        self.memory.attach(state)

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        """Answer Telegram updates with ``handle`` until ``stop`` is set."""
        if not self.memory.attached:
            raise RuntimeError("the Telegram front end needs a state store (attach_state)")
        self._handle = handle
        await self.memory.forget_old()
        if not await self._initialize(stop):
            return
        try:
            await self._serve(stop)
        finally:
            await self.application.shutdown()

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        """Post a message the service sends on its own (reminder, time-out).

        Raises :class:`DeliveryRefused` when Telegram refuses it for good (the bot was blocked
        or removed, may not start the private chat, the chat is gone, a bad request); other
        errors (a 5xx, the network, flood waits beyond the courier's patience) may pass on a
        retry.  Telegram has no idempotent send: a retry after a send whose answer was lost
        posts the message twice.
        """
        await self.wait_ready()
        try:
            await self.publisher.send(chat, reply)
        except (Forbidden, BadRequest) as exc:
            raise DeliveryRefused(f"Telegram refused the message to {chat.key}: {exc}") from exc

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        """Show ``reply`` in the message of ``card`` (a challenge answered or expired)."""
        await self.wait_ready()
        await self.publisher.edit_card(chat, card, reply)

    @property
    def secrets(self) -> tuple[str, ...]:
        """What must never be printed or logged: the token and the webhook secret."""
        return tuple(s for s in (self.settings.token, self.settings.webhook_secret) if s)

    @property
    def webhook_port(self) -> int | None:
        """The port the webhook server listens on (None in polling mode)."""
        return self._webhook.port if self._webhook is not None else None

    async def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        """Wait until the bot is logged in and answering; RuntimeError if it is not running."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            raise RuntimeError("the Telegram front end is not running") from None

    async def check(self) -> int:
        """Log in, register the command menu, print who the bot is; the exit code."""
        try:
            async with self.application:
                bot = self.application.bot
                await register_commands(bot)
                info = await bot.get_webhook_info()
        except InvalidToken:
            print("komabot telegram: Telegram refused TELEGRAM_TOKEN", file=sys.stderr)
            return 2
        except TelegramError as error:
            said = redact(f"{self.settings.api_base}: {error}", self.secrets)
            print(f"komabot telegram: {said}", file=sys.stderr)
            return 1
        print(f"Logged in as @{bot.username} (id {bot.id}) at {self.settings.api_base}")
        print(f"{len(bot_commands())} commands registered for the menu")
        if info.url:
            print(f"Webhook set: {info.url} ({info.pending_update_count} updates waiting)")
        else:
            print(f"No webhook set: long polling ({info.pending_update_count} updates waiting)")
        return 0

    # ----------------------------------------------------------------- lifecycle

    async def _initialize(self, stop: asyncio.Event) -> bool:
        """Log in (``getMe``), retrying while Telegram is unreachable; False if stopped."""
        for attempt in itertools.count():
            try:
                await self.application.initialize()
                return True
            except InvalidToken as error:
                raise InvalidToken(
                    "Telegram refused TELEGRAM_TOKEN; ask @BotFather for the bot's token"
                ) from error
            except NetworkError as error:
                pause = START_ATTEMPTS_PAUSE[min(attempt, len(START_ATTEMPTS_PAUSE) - 1)]
                log.warning("Telegram unreachable (%s); trying again in %.0f s", error, pause)
                try:
                    await asyncio.wait_for(stop.wait(), pause)
                    return False
                except TimeoutError:
                    continue
        raise AssertionError("unreachable")

    async def _serve(self, stop: asyncio.Event) -> None:
        app = self.application
        bot = app.bot
        self._me = BotIdentity(bot.id, bot.username)
        await self.courier.call("commands", lambda _: register_commands(bot))
        webhook: WebhookServer | None = None
        if self.settings.webhook:
            webhook = self._webhook = WebhookServer(app, self.settings)
            await webhook.start()
            await self.courier.call(
                "webhook",
                lambda _: bot.set_webhook(
                    url=self.settings.webhook_url,
                    secret_token=self.settings.secret_token,
                    allowed_updates=list(ALLOWED_UPDATES),
                ),
            )
        else:
            assert app.updater is not None
            await app.updater.start_polling(
                timeout=dtm.timedelta(seconds=self.settings.poll_timeout),
                allowed_updates=list(ALLOWED_UPDATES),
                bootstrap_retries=-1,
                error_callback=self._on_polling_error,
            )
        await app.start()
        self._ready.set()
        log.info(
            "telegram: @%s is answering (%s)",
            bot.username,
            "webhook" if webhook else "long polling",
        )
        try:
            await stop.wait()
        finally:
            if webhook is not None:
                await webhook.stop()
            elif app.updater is not None and app.updater.running:
                await app.updater.stop()
            await app.stop()  # handles the updates already received
            self._ready.clear()

    # ----------------------------------------------------------------- updates

    async def _on_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        for person in people_in(update):
            user = to_user(person)
            if user.handle:
                await self.memory.remember_user(user.handle, user)
        if update.callback_query is not None:
            await self._on_callback(update.callback_query)
        elif update.message is not None:
            await self._on_message(update.message)

    async def _on_message(self, message: telegram.Message) -> None:
        assert self._me is not None
        request = await message_request(message, self._me, self.memory.user)
        if request is None:
            return
        if request.command == "settings" and request.args:
            request = await self._with_admin(message, request)
        reply = await self._ask(request)
        quote = None if message.chat.type == ChatType.PRIVATE else message.message_id
        await self.publisher.send(request.chat, reply, quote=quote, asker=request.user.id)

    async def _with_admin(self, message: telegram.Message, request: Request) -> Request:
        """Add ``admin=1|0`` (may the sender manage this group?) to a settings change, or
        ``admin=unknown`` when Telegram did not answer ``getChatMember`` (the service then
        refuses to change the group's settings: it fails closed).  Private chats leave it out:
        the one person there may."""
        sender = message.from_user
        if message.chat.type == ChatType.PRIVATE or sender is None:
            return request
        admin: str
        if message.sender_chat is not None and message.sender_chat.id == message.chat.id:
            admin = "1"  # an anonymous group administrator
        else:
            try:
                member = await message.get_bot().get_chat_member(message.chat.id, sender.id)
            except Exception as exc:  # a 500, a 429, a network failure: nobody can tell
                log.warning("could not ask who manages chat %s: %s", message.chat.id, exc)
                admin = "unknown"
            else:
                admin = "1" if member.status in ("creator", "administrator") else "0"
        options = {**request.options, "admin": admin}
        return dataclasses.replace(request, options=options)

    async def _on_callback(self, query: telegram.CallbackQuery) -> None:
        """A pressed button: ask the service, answer the press, post or show the reply."""
        answered: list[bool] = []
        try:
            await self._press(query, answered)
        finally:
            if not answered:  # whatever went wrong, the button stops spinning
                await self._answer(query, "", answered)

    async def _press(self, query: telegram.CallbackQuery, answered: list[bool]) -> None:
        request = callback_request(query)
        if request is None:
            return
        press: Press | None = None
        source = query.message
        if source is not None:
            owner = await self.memory.owner(source.chat.id, source.message_id)
            if owner is not None and owner != request.user.id:
                said = text("button.not_yours", user_language(query.from_user))
                await self._answer(query, said, answered)
                return
            media = isinstance(source, telegram.Message) and bool(source.photo or source.document)
            press = Press(Posted(source.chat.id, source.message_id, caption=media))
        token = pressed.set(press)
        try:
            reply = await self._ask(request)
        finally:
            pressed.reset(token)
        plain = reply.image is None and not reply.files and not reply.buttons
        alert = reply.ephemeral and plain and len(reply.text) <= ALERT_LIMIT
        await self._answer(query, reply.text if alert else "", answered)
        if alert:
            return
        already_shown = plain and press is not None and press.shown == reply.text.strip()
        if not already_shown:
            await self.publisher.send(request.chat, reply, asker=request.user.id)
        if (
            not reply.ephemeral
            and press is not None
            and request.command not in KEEP_BUTTONS_AFTER
            and not await self.memory.is_card(press.message.chat_id, press.message.message_id)
        ):
            await self.publisher.drop_keyboard(press.message)

    async def _answer(
        self, query: telegram.CallbackQuery, alert: str, answered: list[bool]
    ) -> None:
        """Answer a button press once, with an alert when ``alert`` is not empty."""
        answered.append(True)
        chat = query.message.chat.id if query.message else "callbacks"
        try:
            await self.courier.call(
                chat,
                lambda _: query.answer(text=alert or None, show_alert=bool(alert)),
            )
        except TelegramError as error:  # too late to answer: the press itself was handled
            log.info("telegram: callback %s not answered (%s)", query.id, error)

    async def _ask(self, request: Request) -> Reply:
        """The service's reply; an unexpected failure becomes the catalogue's apology."""
        assert self._handle is not None
        try:
            return await self._handle(request)
        except Exception:
            log.exception("telegram: /%s in %s failed", request.command, request.chat.key)
            return Reply(text("error.internal", command=request.command), ephemeral=True)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The one error handler: anything a handler did not catch is logged with its update."""
        where = ""
        if isinstance(update, Update) and update.effective_chat is not None:
            where = f" in chat {update.effective_chat.id}"
        log.error("telegram: update failed%s", where, exc_info=context.error)

    def _on_polling_error(self, error: TelegramError) -> None:
        log.warning("telegram: fetching updates failed (%s); ptb retries", error)
