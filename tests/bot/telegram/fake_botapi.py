"""A fake Telegram Bot API server on 127.0.0.1 for offline tests of the real ptb client.

It speaks the Bot API's HTTP protocol (form-encoded or multipart bodies, ``{"ok": ...}``
answers), holds ``getUpdates`` open until an update arrives or the poll times out, keeps every
message the bot sent or edited, and checks the limits Telegram enforces (caption and text
lengths, ``callback_data`` bytes, command names, every callback answered once).  Tests act as
users through :meth:`FakeBotApi.send_text` and :meth:`FakeBotApi.press`, and read what the bot
did through :meth:`FakeBotApi.expect` and :attr:`FakeBotApi.calls`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

import aiohttp
from aiohttp import web

from tests.bot.platform_specs import Violation, ViolationLog, load_spec
from tests.bot.telegram.botapi_rules import (
    SPEC_FILE,
    check_call,
    description,
    known_method,
    warm_up,
)

JSON = dict[str, Any]

SCOPES = frozenset(
    {
        "default",
        "all_private_chats",
        "all_group_chats",
        "all_chat_administrators",
        "chat",
        "chat_administrators",
        "chat_member",
    }
)
PHOTO_MAX_BYTES = 10 * 1024 * 1024
PHOTO_MAX_SIDES = 10_000  # width + height
PHOTO_MAX_RATIO = 20
DOCUMENT_MAX_BYTES = 50 * 1024 * 1024
BOT_COMMAND_AT_START = re.compile(r"^/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?")
MENTION = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}")


class ApiError(Exception):
    """An error answer: HTTP status, Bot API description and optional parameters."""

    def __init__(self, status: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def bad_request(what: str) -> ApiError:
    return ApiError(400, f"Bad Request: {what}")


class Refused(ApiError):
    """An answer to a request Telegram refuses for what it is (not for the state it meets):
    recorded as a :class:`Violation` besides the error answer."""

    def __init__(self, violations: list[Violation], status: int = 400) -> None:
        words = description(violations) if status == 400 else violations[0].problem
        super().__init__(status, words)
        self.violations = violations


@dataclass
class Upload:
    filename: str
    content_type: str
    data: bytes


@dataclass
class ApiCall:
    """One request the bot made, with its decoded fields and uploaded files."""

    method: str
    params: dict[str, str]
    files: dict[str, Upload]
    status: int = 200
    at: float = field(default_factory=time.monotonic)

    def json(self, name: str) -> Any:
        return json.loads(self.params[name]) if name in self.params else None


def utf16_len(text: str) -> int:
    # A lone surrogate (JSON may carry "\ud800") is one UTF-16 unit to Telegram too.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_slice(text: str, offset: int, length: int) -> str:
    raw = text.encode("utf-16-le", "surrogatepass")
    return raw[offset * 2 : (offset + length) * 2].decode("utf-16-le", "surrogatepass")


def png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


class FakeBotApi:
    """The fake server and the test's handle on it."""

    def __init__(self, token: str = "123456:TEST-token", username: str = "KomaTestBot") -> None:
        load_spec(SPEC_FILE)  # no fake without the Bot API's description to check calls against
        self.token = token
        self.bot_user: JSON = {
            "id": int(token.split(":")[0]),
            "is_bot": True,
            "first_name": "Komabot",
            "username": username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.calls: list[ApiCall] = []
        self.chats: dict[int, JSON] = {}
        self.messages: dict[tuple[int, int], JSON] = {}
        self.sent: list[JSON] = []  # every message the bot sent, in order
        self.commands: list[JSON] | None = None  # the default menu
        self.menus: dict[str, list[JSON]] = {}  # language code ("" default) -> default menu
        # (scope type: "default", "all_private_chats"..., language code) -> menu
        self.scoped_menus: dict[tuple[str, str], list[JSON]] = {}
        self.descriptions: dict[str, str] = {}  # language code -> setMyDescription
        self.short_descriptions: dict[str, str] = {}  # language code -> setMyShortDescription
        self.webhook_url = ""
        self.webhook_secret = ""
        self.deliveries: list[tuple[int, str]] = []  # (update_id, receiver) posted by webhook
        self._receivers: list[str] = []
        self._delivery: asyncio.Task[None] | None = None
        self.callbacks_open: dict[str, JSON] = {}
        self.callback_answers: dict[str, dict[str, str]] = {}
        self.update_errors: list[str] = []
        self.members: dict[tuple[int, int], str] = {}  # (chat, user) -> status; default admin
        self._updates: list[JSON] = []
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = {}
        self._file_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._failures: dict[str, list[int]] = {}
        self._errors: dict[str, list[ApiError]] = {}
        self._cursor = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._runner: web.AppRunner | None = None
        self.violations = ViolationLog()  # requests Telegram would refuse (checked at teardown)
        self.port = 0

    def take_violations(self) -> list[Violation]:
        """The requests Telegram would have refused so far, forgotten: for tests that send
        them on purpose (any left at the end of a test fail it)."""
        return self.violations.take()

    # ----------------------------------------------------------------- server lifecycle

    async def start(self) -> None:
        await asyncio.to_thread(warm_up)
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._dispatch)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    # ----------------------------------------------------------------- test-side actions

    def user(self, user_id: int, first_name: str, username: str | None = None) -> JSON:
        user: JSON = {"id": user_id, "is_bot": False, "first_name": first_name}
        if username:
            user["username"] = username
        return user

    def private_chat(self, user: JSON) -> JSON:
        chat = {"id": user["id"], "type": "private", "first_name": user["first_name"]}
        if "username" in user:
            chat["username"] = user["username"]
        self.chats[chat["id"]] = chat
        return chat

    def group_chat(self, chat_id: int, title: str, forum: bool = False) -> JSON:
        chat: JSON = {"id": chat_id, "type": "supergroup", "title": title}
        if forum:
            chat["is_forum"] = True
        self.chats[chat_id] = chat
        return chat

    def send_text(
        self,
        chat: JSON,
        user: JSON,
        text: str,
        reply_to: int | None = None,
        text_mentions: tuple[tuple[str, JSON], ...] = (),
        thread_id: int | None = None,
    ) -> JSON:
        """A user writes ``text``; commands and @mentions get their entities as Telegram does."""
        entities: list[JSON] = []
        command = BOT_COMMAND_AT_START.match(text)
        if command:
            entities.append({"type": "bot_command", "offset": 0, "length": command.end()})
        for found in MENTION.finditer(text):
            if command and found.start() < command.end():
                continue
            offset = utf16_len(text[: found.start()])
            entities.append({"type": "mention", "offset": offset, "length": utf16_len(found[0])})
        for name, who in text_mentions:
            start = text.index(name)
            entities.append(
                {
                    "type": "text_mention",
                    "offset": utf16_len(text[:start]),
                    "length": utf16_len(name),
                    "user": who,
                }
            )
        message = self._new_message(chat, user, thread_id)
        message["text"] = text
        if entities:
            message["entities"] = sorted(entities, key=lambda e: e["offset"])
        if reply_to is not None:
            message["reply_to_message"] = self._public(self.messages[(chat["id"], reply_to)])
        self._store(message)
        self._enqueue({"message": message})
        return message

    def press(self, chat: JSON, user: JSON, message_id: int, data: str) -> str:
        """A user presses the inline button with ``data`` under the bot's message."""
        message = self.messages[(chat["id"], message_id)]
        datas = [
            button.get("callback_data")
            for row in message.get("reply_markup", {}).get("inline_keyboard", [])
            for button in row
        ]
        if data not in datas:
            raise AssertionError(f"no button {data!r} under message {message_id}: {datas}")
        query_id = str(next(self._callback_ids))
        query = {
            "id": query_id,
            "from": user,
            "message": self._public(message),
            "chat_instance": f"ci{chat['id']}",
            "data": data,
        }
        self.callbacks_open[query_id] = query
        self._enqueue({"callback_query": query})
        return query_id

    def fail_next(self, method: str, retry_after: int, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``method`` with 429 Too Many Requests."""
        self._failures.setdefault(method, []).extend([retry_after] * times)

    def error_next(self, method: str, status: int, description: str, times: int = 1) -> None:
        """Answer the next ``times`` calls of ``method`` with an error ``status`` and
        ``description`` (a 500 Internal Server Error, say)."""
        self._errors.setdefault(method, []).extend([ApiError(status, description)] * times)

    def deliver_to(self, *receivers: str) -> None:
        """Post updates to these webhook receivers in turn, one update at a time and in order,
        as Telegram does to a webhook URL with a load balancer in front of several workers
        (each ``http://127.0.0.1:PORT/path``); until a webhook is set they wait."""
        self._receivers = list(receivers)
        self._delivery = asyncio.get_running_loop().create_task(self._deliver())

    async def _deliver(self) -> None:
        turn = 0
        async with aiohttp.ClientSession() as session:
            while True:
                async with self._changed:
                    await self._changed.wait_for(lambda: bool(self._updates and self.webhook_url))
                update = self._updates[0]
                receiver = self._receivers[turn % len(self._receivers)]
                headers = {"X-Telegram-Bot-Api-Secret-Token": self.webhook_secret}
                try:
                    async with session.post(receiver, json=update, headers=headers) as answer:
                        delivered = answer.status == 200
                except aiohttp.ClientError:
                    delivered = False
                if not delivered:  # Telegram tries again later (the next worker, here)
                    turn += 1
                    await asyncio.sleep(0.05)
                    continue
                self._updates.remove(update)
                self.deliveries.append((update["update_id"], receiver))
                turn += 1
                await self._notify()

    # ----------------------------------------------------------------- test-side waiting

    async def wait_until(self, check: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``check()`` returns something truthy; return it."""
        async with self._changed:
            result = check()
            deadline = time.monotonic() + timeout
            while not result:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting; last calls: {self._tail()}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
                result = check()
            return result

    async def expect(self, count: int = 1, timeout: float = 10.0) -> list[JSON]:
        """The next ``count`` messages the bot sent (since the last ``expect``)."""
        await self.wait_until(lambda: len(self.sent) >= self._cursor + count, timeout)
        got = self.sent[self._cursor : self._cursor + count]
        self._cursor += count
        return got

    def undelivered(self) -> list[JSON]:
        """Updates the bot has not taken yet (by getUpdates or its webhook)."""
        return list(self._updates)

    def unread(self) -> list[JSON]:
        """Messages the bot sent that no ``expect`` has consumed yet."""
        return self.sent[self._cursor :]

    async def answered(self, query_id: str, timeout: float = 10.0) -> dict[str, str]:
        """Wait until the callback query was answered; return the answer's fields."""
        return await self.wait_until(lambda: self.callback_answers.get(query_id), timeout)  # type: ignore[no-any-return]

    def calls_of(self, method: str) -> list[ApiCall]:
        return [call for call in self.calls if call.method == method]

    def _tail(self) -> list[str]:
        return [f"{c.method}:{c.status}" for c in self.calls[-8:]]

    # ----------------------------------------------------------------- plumbing

    def _new_message(self, chat: JSON, sender: JSON, thread_id: int | None) -> JSON:
        counter = self._message_ids.setdefault(chat["id"], itertools.count(1))
        message: JSON = {
            "message_id": next(counter),
            "date": int(time.time()),
            "chat": chat,
            "from": sender,
        }
        if thread_id is not None:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        return message

    def _store(self, message: JSON) -> None:
        self.messages[(message["chat"]["id"], message["message_id"])] = message

    def _enqueue(self, update: JSON) -> None:
        update["update_id"] = next(self._update_ids)
        self._updates.append(update)
        task = asyncio.get_running_loop().create_task(self._notify())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _dispatch(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params: dict[str, str] = {}
        files: dict[str, Upload] = {}
        if request.can_read_body:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = Upload(value.filename, value.content_type, value.file.read())
                else:
                    params[key] = str(value)
        params.update({k: v for k, v in request.query.items() if k not in params})
        call = ApiCall(method, params, files)
        self.calls.append(call)
        await self._notify()
        try:
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            refused = await asyncio.to_thread(  # off the loop the bot runs on too
                check_call, method, params, set(files)
            )
            if refused:
                raise Refused(refused, 400 if known_method(method) else 404)
            errors = self._errors.get(method)
            if errors:
                raise errors.pop(0)
            failures = self._failures.get(method)
            if failures:
                retry_after = failures.pop(0)
                raise ApiError(
                    429,
                    f"Too Many Requests: retry after {retry_after}",
                    {"retry_after": retry_after},
                )
            handler = getattr(self, f"_api_{method}", None)
            if handler is None:
                raise ApiError(404, "Not Found")
            result = await handler(call)
            body: JSON = {"ok": True, "result": result}
        except ApiError as error:
            if isinstance(error, Refused):
                self.violations.add(error.violations)
            call.status = error.status
            body = {"ok": False, "error_code": error.status, "description": error.description}
            if error.parameters:
                body["parameters"] = error.parameters
        await self._notify()
        return web.json_response(body, status=call.status)

    # ----------------------------------------------------------------- Bot API methods

    async def _api_getMe(self, call: ApiCall) -> JSON:
        return self.bot_user

    async def _api_deleteWebhook(self, call: ApiCall) -> bool:
        self.webhook_url = ""
        if call.params.get("drop_pending_updates") == "true":
            self._updates.clear()
        return True

    async def _api_setWebhook(self, call: ApiCall) -> bool:
        self.webhook_url = call.params.get("url", "")
        self.webhook_secret = call.params.get("secret_token", "")
        await self._notify()
        return True

    async def _api_getWebhookInfo(self, call: ApiCall) -> JSON:
        return {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _api_getUpdates(self, call: ApiCall) -> list[JSON]:
        if self.webhook_url:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active")
        offset = int(call.params.get("offset", 0) or 0)
        limit = int(call.params.get("limit", 100) or 100)
        timeout = float(call.params.get("timeout", 0) or 0)
        if offset:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        deadline = time.monotonic() + timeout
        async with self._changed:
            while not self._updates:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(self._changed.wait(), left)
                except TimeoutError:
                    break
        return self._updates[:limit]

    async def _api_setMyCommands(self, call: ApiCall) -> bool:
        commands = call.json("commands")  # checked by the spec and its stated rules
        language = call.params.get("language_code", "")
        scope = call.json("scope") if "scope" in call.params else {"type": "default"}
        if scope.get("type") not in SCOPES:
            self._refuse(call, "scope", f"BOT_COMMAND_SCOPE_INVALID: {scope!r}")
        self.scoped_menus[(scope["type"], language)] = commands
        if scope["type"] == "default":
            self.menus[language] = commands
            if not language:
                self.commands = commands
        return True

    async def _api_setMyDescription(self, call: ApiCall) -> bool:
        return self._describe(call, "description", self.descriptions)

    async def _api_setMyShortDescription(self, call: ApiCall) -> bool:
        return self._describe(call, "short_description", self.short_descriptions)

    @staticmethod
    def _describe(call: ApiCall, field: str, kept: dict[str, str]) -> bool:
        """setMy(Short)Description: ``field`` per language (its length checked by the spec)."""
        kept[call.params.get("language_code", "")] = call.params.get(field, "")
        return True

    async def _api_getChatMember(self, call: ApiCall) -> JSON:
        chat = self._chat(call)
        user_id = int(call.params["user_id"])
        status = self.members.get((chat["id"], user_id), "administrator")
        member: JSON = {"status": status, "user": self.user(user_id, f"user{user_id}")}
        if status == "administrator":
            member.update(
                {
                    key: True
                    for key in (
                        "can_be_edited",
                        "is_anonymous",
                        "can_manage_chat",
                        "can_delete_messages",
                        "can_manage_video_chats",
                        "can_restrict_members",
                        "can_promote_members",
                        "can_change_info",
                        "can_invite_users",
                        "can_post_stories",
                        "can_edit_stories",
                        "can_delete_stories",
                    )
                }
            )
        return member

    async def _api_sendChatAction(self, call: ApiCall) -> bool:
        self._chat(call)
        return True

    async def _api_sendMessage(self, call: ApiCall) -> JSON:
        text = call.params["text"]  # its presence and length checked by the spec
        message = self._bot_message(call)
        message["text"] = text
        self._entities(call, text, message, "entities")
        return self._finish(message)

    async def _api_sendPhoto(self, call: ApiCall) -> JSON:
        upload = self._upload(call, "photo", PHOTO_MAX_BYTES)
        size = png_size(upload.data)
        if size is None and not upload.data.startswith(b"\xff\xd8"):
            self._refuse(call, "photo", "IMAGE_PROCESS_FAILED: not a PNG or JPEG picture")
        width, height = size or (0, 0)
        if width + height > PHOTO_MAX_SIDES:
            self._refuse(
                call, "photo", f"PHOTO_INVALID_DIMENSIONS: width + height {width + height}"
            )
        if size and max(width, height) > PHOTO_MAX_RATIO * min(width, height):
            self._refuse(call, "photo", f"PHOTO_INVALID_DIMENSIONS: ratio of {width}x{height}")
        message = self._bot_message(call)
        file_id = f"photo{next(self._file_ids)}"
        message["photo"] = [
            {
                "file_id": file_id,
                "file_unique_id": f"u{file_id}",
                "width": width,
                "height": height,
                "file_size": len(upload.data),
            }
        ]
        message["_upload"] = upload
        self._caption(call, message)
        return self._finish(message)

    async def _api_sendDocument(self, call: ApiCall) -> JSON:
        upload = self._upload(call, "document", DOCUMENT_MAX_BYTES)
        message = self._bot_message(call)
        file_id = f"doc{next(self._file_ids)}"
        message["document"] = {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_name": upload.filename,
            "mime_type": upload.content_type,
            "file_size": len(upload.data),
        }
        message["_upload"] = upload
        self._caption(call, message)
        return self._finish(message)

    async def _api_answerCallbackQuery(self, call: ApiCall) -> bool:
        query_id = call.params.get("callback_query_id", "")
        if query_id not in self.callbacks_open:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        del self.callbacks_open[query_id]
        self.callback_answers[query_id] = dict(call.params)
        return True

    async def _api_editMessageReplyMarkup(self, call: ApiCall) -> JSON:
        message = self._editable(call)
        markup = self._markup(call)
        if markup == message.get("reply_markup"):
            raise bad_request("message is not modified")
        self._set_markup(message, markup)
        return self._public(message)

    async def _api_editMessageText(self, call: ApiCall) -> JSON:
        message = self._editable(call)
        if "text" not in message:
            raise bad_request("there is no text in the message to edit")
        text = call.params["text"]  # its presence and length checked by the spec
        markup = self._markup(call)
        if text == message["text"] and markup == message.get("reply_markup"):
            raise bad_request("message is not modified")
        message["text"] = text
        message.pop("entities", None)
        self._entities(call, text, message, "entities")
        self._set_markup(message, markup)
        message["edit_date"] = int(time.time())
        return self._public(message)

    async def _api_editMessageCaption(self, call: ApiCall) -> JSON:
        message = self._editable(call)
        if "photo" not in message and "document" not in message:
            raise bad_request("there is no caption in the message to edit")
        caption = call.params.get("caption", "")
        markup = self._markup(call)
        if caption == message.get("caption", "") and markup == message.get("reply_markup"):
            raise bad_request("message is not modified")
        message.pop("caption", None)
        message.pop("caption_entities", None)
        self._caption(call, message)
        self._set_markup(message, markup)
        message["edit_date"] = int(time.time())
        return self._public(message)

    # ----------------------------------------------------------------- helpers for methods

    def _chat(self, call: ApiCall) -> JSON:
        try:
            return self.chats[int(call.params["chat_id"])]
        except (KeyError, ValueError):
            raise bad_request("chat not found") from None

    def _bot_message(self, call: ApiCall) -> JSON:
        chat = self._chat(call)
        thread = call.params.get("message_thread_id")
        message = self._new_message(chat, self.bot_user, int(thread) if thread else None)
        reply = call.json("reply_parameters")
        if reply:
            quoted = self.messages.get((chat["id"], int(reply["message_id"])))
            if quoted is None and not reply.get("allow_sending_without_reply"):
                raise bad_request("message to be replied not found")
            if quoted is not None:
                message["reply_to_message"] = self._public(quoted)
        self._set_markup(message, self._markup(call))
        return message

    def _finish(self, message: JSON) -> JSON:
        self._store(message)
        self.sent.append(message)
        return self._public(message)

    @staticmethod
    def _public(message: JSON) -> JSON:
        return {k: v for k, v in message.items() if not k.startswith("_")}

    def _upload(self, call: ApiCall, name: str, limit: int) -> Upload:
        upload = call.files.get(name)
        if upload is None:
            self._refuse(call, name, f"there is no {name} in the request (the fake takes uploads)")
        if not upload.data:
            self._refuse(call, name, "file must be non-empty")
        if len(upload.data) > limit:
            self._refuse(call, name, f"Request Entity Too Large: over {limit} bytes", 413)
        return upload

    @staticmethod
    def _refuse(call: ApiCall, where: str, problem: str, status: int = 400) -> NoReturn:
        """Refuse ``call`` for what it is: a :class:`Violation` besides the error answer."""
        raise Refused([Violation("telegram", call.method, where, problem)], status)

    def _caption(self, call: ApiCall, message: JSON) -> None:
        caption = call.params.get("caption", "")  # its length checked by the spec
        if caption:
            message["caption"] = caption
            self._entities(call, caption, message, "caption_entities")

    def _entities(self, call: ApiCall, text: str, message: JSON, key: str) -> None:
        if call.params.get("parse_mode"):
            raise bad_request("this fake server does not parse markup; send entities instead")
        entities = call.json(key)
        if not entities:
            return
        size = utf16_len(text)
        for entity in entities:
            if entity["offset"] < 0 or entity["offset"] + entity["length"] > size:
                self._refuse(call, key, f"entity out of range: {entity}")
            if entity["type"] == "text_mention" and "id" not in entity.get("user", {}):
                self._refuse(call, key, "text_mention entity without a user")
        message[key] = entities

    def _markup(self, call: ApiCall) -> JSON | None:
        markup = call.json("reply_markup")
        if markup is None:
            return None
        for row in markup.get("inline_keyboard", []):
            for button in row:
                if not button.get("text"):
                    self._refuse(call, "reply_markup", "BUTTON_TEXT_INVALID: a button without text")
        return markup if markup.get("inline_keyboard") else None

    @staticmethod
    def _set_markup(message: JSON, markup: JSON | None) -> None:
        if markup:
            message["reply_markup"] = markup
        else:
            message.pop("reply_markup", None)

    def _editable(self, call: ApiCall) -> JSON:
        chat = self._chat(call)
        try:
            message = self.messages[(chat["id"], int(call.params["message_id"]))]
        except (KeyError, ValueError):
            raise bad_request("message to edit not found") from None
        if message["from"]["id"] != self.bot_user["id"]:
            raise bad_request("message can't be edited")
        return message
