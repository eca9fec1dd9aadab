"""The fake Bot API refuses what Telegram refuses: one call per limit, each answered
``{"ok": false, "error_code": 400, "description": "Bad Request: ..."}`` and recorded so that a
test where the bot made it fails (here the violations are taken, as they are made on purpose)."""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any

import aiohttp
import pytest
import telegram
from telegram.error import BadRequest

from tests.bot.platform_specs import ViolationLog
from tests.bot.telegram.fake_botapi import FakeBotApi

CHAT = 42


def png(width: int, height: int) -> bytes:
    """A PNG header of ``width`` x ``height`` (what the fake reads a photo's size from)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(header))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


def keyboard(*buttons: dict[str, Any]) -> str:
    return json.dumps({"inline_keyboard": [list(buttons)]})


def commands(*pairs: tuple[str, str]) -> str:
    return json.dumps([{"command": c, "description": d} for c, d in pairs])


# (what, method, fields, uploads, the field Telegram refuses)
REFUSED: list[tuple[str, str, dict[str, str], dict[str, bytes], str]] = [
    (
        "a caption of 1,025 characters",
        "sendPhoto",
        {"chat_id": str(CHAT), "caption": "c" * 1025},
        {"photo": png(10, 10)},
        "caption",
    ),
    (
        "a document caption of 1,025 characters",
        "sendDocument",
        {"chat_id": str(CHAT), "caption": "c" * 1025},
        {"document": b"text"},
        "caption",
    ),
    (
        "an edited caption of 1,025 characters",
        "editMessageCaption",
        {"chat_id": str(CHAT), "message_id": "1", "caption": "c" * 1025},
        {},
        "caption",
    ),
    ("a message of 4,097", "sendMessage", {"chat_id": str(CHAT), "text": "t" * 4097}, {}, "text"),
    (
        "an edit of 4,097",
        "editMessageText",
        {"chat_id": str(CHAT), "message_id": "1", "text": "t" * 4097},
        {},
        "text",
    ),
    ("an empty message", "sendMessage", {"chat_id": str(CHAT), "text": ""}, {}, "text"),
    ("a blank message", "sendMessage", {"chat_id": str(CHAT), "text": "  \n "}, {}, "text"),
    ("a message without text", "sendMessage", {"chat_id": str(CHAT)}, {}, "text"),
    ("a message without a chat", "sendMessage", {"text": "hello"}, {}, "chat_id"),
    ("a photo without the photo", "sendPhoto", {"chat_id": str(CHAT)}, {}, "photo"),
    (
        "callback_data of 65 bytes",
        "sendMessage",
        {
            "chat_id": str(CHAT),
            "text": "t",
            "reply_markup": keyboard({"text": "b", "callback_data": "d" * 65}),
        },
        {},
        "reply_markup.inline_keyboard.0.0.callback_data",
    ),
    (
        "callback_data of 33 characters, 66 bytes",
        "sendMessage",
        {
            "chat_id": str(CHAT),
            "text": "t",
            "reply_markup": keyboard({"text": "b", "callback_data": "ж" * 33}),
        },
        {},
        "reply_markup.inline_keyboard.0.0.callback_data",
    ),
    (
        "empty callback_data",
        "sendMessage",
        {
            "chat_id": str(CHAT),
            "text": "t",
            "reply_markup": keyboard({"text": "b", "callback_data": ""}),
        },
        {},
        "reply_markup.inline_keyboard.0.0.callback_data",
    ),
    (
        "a button without text",
        "sendMessage",
        {"chat_id": str(CHAT), "text": "t", "reply_markup": keyboard({"callback_data": "x"})},
        {},
        "reply_markup.inline_keyboard.0.0.text",
    ),
    (
        "a button with two actions",
        "sendMessage",
        {
            "chat_id": str(CHAT),
            "text": "t",
            "reply_markup": keyboard({"text": "b", "callback_data": "x", "url": "https://x.org"}),
        },
        {},
        "reply_markup.inline_keyboard.0.0",
    ),
    (
        "a button with no action",
        "sendMessage",
        {"chat_id": str(CHAT), "text": "t", "reply_markup": keyboard({"text": "b"})},
        {},
        "reply_markup.inline_keyboard.0.0",
    ),
    (
        "a reply to no message",
        "sendMessage",
        {"chat_id": str(CHAT), "text": "t", "reply_parameters": json.dumps({"chat_id": CHAT})},
        {},
        "reply_parameters.message_id",
    ),
    (
        "a topic id that is not a number",
        "sendMessage",
        {"chat_id": str(CHAT), "text": "t", "message_thread_id": "general"},
        {},
        "message_thread_id",
    ),
    (
        "a flag that is not a boolean",
        "sendMessage",
        {"chat_id": str(CHAT), "text": "t", "disable_notification": "maybe"},
        {},
        "disable_notification",
    ),
    (
        "a markup that is not JSON",
        "sendMessage",
        {"chat_id": str(CHAT), "text": "t", "reply_markup": "{inline"},
        {},
        "reply_markup",
    ),
    (
        "a callback answer of 201 characters",
        "answerCallbackQuery",
        {"callback_query_id": "1", "text": "a" * 201},
        {},
        "text",
    ),
    (
        "a command in capitals",
        "setMyCommands",
        {"commands": commands(("Play", "p"))},
        {},
        "commands.0.command",
    ),
    (
        "a command of 33 characters",
        "setMyCommands",
        {"commands": commands(("p" * 33, "p"))},
        {},
        "commands.0.command",
    ),
    (
        "a command with a dash",
        "setMyCommands",
        {"commands": commands(("new-game", "p"))},
        {},
        "commands.0.command",
    ),
    (
        "a command description of 257 characters",
        "setMyCommands",
        {"commands": commands(("play", "d" * 257))},
        {},
        "commands.0.description",
    ),
    (
        "an empty command description",
        "setMyCommands",
        {"commands": commands(("play", ""))},
        {},
        "commands.0.description",
    ),
    (
        "101 commands",
        "setMyCommands",
        {"commands": commands(*((f"c{i}", "d") for i in range(101)))},
        {},
        "commands",
    ),
    (
        "a chat action of no kind",
        "sendChatAction",
        {"chat_id": str(CHAT), "action": "thinking"},
        {},
        "action",
    ),
    ("a description of 513", "setMyDescription", {"description": "d" * 513}, {}, "description"),
    (
        "a short description of 121",
        "setMyShortDescription",
        {"short_description": "d" * 121},
        {},
        "short_description",
    ),
    (
        "a photo of 9,000 + 1,001 pixels",
        "sendPhoto",
        {"chat_id": str(CHAT)},
        {"photo": png(9000, 1001)},
        "photo",
    ),
    (
        "a photo of ratio 21",
        "sendPhoto",
        {"chat_id": str(CHAT)},
        {"photo": png(2100, 100)},
        "photo",
    ),
    (
        "a photo that is no picture",
        "sendPhoto",
        {"chat_id": str(CHAT)},
        {"photo": b"GIF89a"},
        "photo",
    ),
    ("an empty document", "sendDocument", {"chat_id": str(CHAT)}, {"document": b""}, "document"),
]


async def call(
    fake: FakeBotApi, method: str, fields: dict[str, str], uploads: dict[str, bytes]
) -> tuple[int, Any]:
    form = aiohttp.FormData()
    for name, value in fields.items():
        form.add_field(name, value)
    for name, data in uploads.items():
        form.add_field(name, data, filename=f"{name}.png", content_type="image/png")
    url = f"{fake.base_url}{fake.token}/{method}"
    async with aiohttp.ClientSession() as session, session.post(url, data=form) as answer:
        return answer.status, await answer.json()


@pytest.fixture
async def server() -> Any:
    fake = FakeBotApi()
    await fake.start()
    fake.private_chat({"id": CHAT, "first_name": "Ann"})
    try:
        yield fake
    finally:
        await fake.close()


@pytest.mark.parametrize(
    ("method", "fields", "uploads", "where"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
async def test_the_fake_refuses_what_telegram_refuses(
    server: FakeBotApi, method: str, fields: dict[str, str], uploads: dict[str, bytes], where: str
) -> None:
    status, answer = await call(server, method, fields, uploads)
    violations = server.take_violations()
    assert status == 400, answer
    assert answer["ok"] is False and answer["error_code"] == 400, answer
    assert answer["description"].startswith("Bad Request: "), answer
    assert where in {v.where for v in violations}, violations


async def test_the_limits_themselves_are_accepted(server: FakeBotApi) -> None:
    """At each limit, not over it: answered ok and nothing recorded."""
    answers = [
        await call(server, "sendMessage", {"chat_id": str(CHAT), "text": "t" * 4096}, {}),
        await call(
            server,
            "sendPhoto",
            {
                "chat_id": str(CHAT),
                "caption": "c" * 1024,
                "reply_markup": keyboard({"text": "b", "callback_data": "ж" * 32}),
            },
            {"photo": png(9000, 1000)},
        ),
        await call(server, "setMyCommands", {"commands": commands(("new_game_2", "d" * 256))}, {}),
    ]
    assert server.take_violations() == []
    assert [status for status, _ in answers] == [200, 200, 200], answers


async def test_an_unknown_method_is_not_found(server: FakeBotApi) -> None:
    status, answer = await call(server, "sendShogiBoard", {"chat_id": str(CHAT)}, {})
    (violation,) = server.take_violations()
    assert status == 404 and answer["description"].startswith("Not Found")
    assert violation.request == "sendShogiBoard"


async def test_python_telegram_bot_sees_the_refusal_as_bad_request(server: FakeBotApi) -> None:
    """The real client gets what it gets from Telegram: BadRequest, naming the field."""
    bot = telegram.Bot(server.token, base_url=server.base_url)
    async with bot:
        with pytest.raises(BadRequest) as refused:
            await bot.send_message(CHAT, "t" * 4097)
        sent = await bot.send_message(CHAT, "fine")
    (violation,) = server.take_violations()
    assert "text" in refused.value.message
    assert violation.where == "text" and "4096" in violation.problem
    assert sent.text == "fine"


async def test_violations_left_in_a_test_are_reported_at_its_end(server: FakeBotApi) -> None:
    """What the autouse fixture of tests/bot/conftest.py reads: every fake's leftovers."""
    await call(server, "sendMessage", {"chat_id": str(CHAT), "text": "t" * 4097}, {})
    (left,) = ViolationLog.unclaimed()
    assert left.platform == "telegram" and left.where == "text"
