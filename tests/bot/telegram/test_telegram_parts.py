"""The Telegram front end's parts on their own: settings, flood waits, text pieces, keyboards."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TimedOut

from bot.cli import build_parser
from bot.config import ConfigError
from bot.core.api import Button, User
from bot.core.frontend_memory import KEEP_SECONDS
from bot.store import SqliteStore
from bot.telegram_front.courier import Courier
from bot.telegram_front.keyboards import fits_callback_data, keyboard
from bot.telegram_front.memory import Memory, Posted
from bot.telegram_front.outgoing import mention_entities, split_text, with_mentions
from bot.telegram_front.settings import TelegramSettings
from tests.bot.telegram.fake_botapi import FakeBotApi

TOKEN = "123456:ABC-def_ghi"


def test_settings_defaults_and_webhook() -> None:
    plain = TelegramSettings.from_env(TOKEN, {})
    assert plain.base_url == "https://api.telegram.org/bot"
    assert plain.base_file_url == "https://api.telegram.org/file/bot"
    assert not plain.webhook and plain.poll_timeout == 30
    assert TOKEN not in repr(plain)

    hooked = TelegramSettings.from_env(
        TOKEN,
        {
            "TELEGRAM_API_BASE": "http://127.0.0.1:8081/",
            "TELEGRAM_WEBHOOK_URL": "https://bot.example.org/komabot/telegram",
            "TELEGRAM_WEBHOOK_PORT": "9000",
        },
    )
    assert hooked.base_url == "http://127.0.0.1:8081/bot"
    assert hooked.webhook and hooked.webhook_path == "/komabot/telegram"
    assert hooked.webhook_port == 9000
    # without a configured secret every worker derives the same one from the token
    assert hooked.secret_token == TelegramSettings.from_env(TOKEN, {}).secret_token
    assert hooked.secret_token != TelegramSettings.from_env("1:other", {}).secret_token
    assert len(hooked.secret_token) <= 256 and TOKEN not in hooked.secret_token


@pytest.mark.parametrize(
    ("env", "token", "names"),
    [
        ({}, "not-a-token", "TELEGRAM_TOKEN"),
        ({"TELEGRAM_API_BASE": "api.telegram.org"}, TOKEN, "TELEGRAM_API_BASE"),
        ({"TELEGRAM_WEBHOOK_URL": "http://insecure.example.org/x"}, TOKEN, "TELEGRAM_WEBHOOK_URL"),
        ({"TELEGRAM_WEBHOOK_PORT": "eighty"}, TOKEN, "TELEGRAM_WEBHOOK_PORT"),
        ({"TELEGRAM_WEBHOOK_PORT": "70000"}, TOKEN, "TELEGRAM_WEBHOOK_PORT"),
        ({"TELEGRAM_WEBHOOK_SECRET": "has spaces"}, TOKEN, "TELEGRAM_WEBHOOK_SECRET"),
        ({"TELEGRAM_POLL_TIMEOUT": "-1"}, TOKEN, "TELEGRAM_POLL_TIMEOUT"),
    ],
)
def test_settings_errors_name_the_variable(env: dict[str, str], token: str, names: str) -> None:
    with pytest.raises(ConfigError, match=names):
        TelegramSettings.from_env(token, env)


class Sleeps:
    def __init__(self) -> None:
        self.slept: list[float] = []
        self.now = 0.0

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
@pytest.mark.parametrize("timedelta", ["1", "0"])
async def test_courier_waits_out_flood_limits_and_network_errors(
    monkeypatch: pytest.MonkeyPatch, timedelta: str
) -> None:
    monkeypatch.setenv("PTB_TIMEDELTA", timedelta)  # retry_after as timedelta, or as int
    sleeps = Sleeps()
    courier = Courier(sleep=sleeps.sleep, clock=sleeps.clock)
    failures: list[Exception] = [RetryAfter(3), TimedOut(), RetryAfter(5)]
    seen: list[int | str] = []

    async def send(chat_id: int | str) -> str:
        seen.append(chat_id)
        if failures:
            raise failures.pop(0)
        return "sent"

    assert await courier.call(42, send) == "sent"
    assert seen == [42, 42, 42, 42]
    assert sleeps.slept == [3.0, 1.0, 5.0]

    # a chat still in its flood wait holds back the next call to it, not other chats
    async def flood(chat_id: int | str) -> str:
        raise RetryAfter(7)

    courier2 = Courier(sleep=sleeps.sleep, clock=sleeps.clock, flood_attempts=2)
    sleeps.slept.clear()
    with pytest.raises(RetryAfter):
        await courier2.call(1, flood)
    assert sleeps.slept == [7.0]


async def test_courier_follows_migrations_and_gives_up_on_hopeless_calls() -> None:
    sleeps = Sleeps()
    courier = Courier(sleep=sleeps.sleep, clock=sleeps.clock)
    seen: list[int | str] = []

    async def send(chat_id: int | str) -> str:
        seen.append(chat_id)
        if chat_id == -5:
            raise ChatMigrated(-1005)
        return "sent"

    assert await courier.call(-5, send) == "sent"
    assert seen == [-5, -1005]
    assert courier.chat_id(-5) == -1005  # later calls go straight to the new id

    for hopeless in (BadRequest("message is too long"), Forbidden("bot was blocked")):

        async def refuse(chat_id: int | str, error: Exception = hopeless) -> str:
            raise error

        with pytest.raises(type(hopeless)):
            await courier.call(1, refuse)
    assert sleeps.slept == []


def test_split_text_cuts_at_line_ends() -> None:
    text = "\n".join(f"line {n:04d}" for n in range(1000))
    pieces = split_text(text, 4096)
    assert all(len(p) <= 4096 for p in pieces)
    assert "\n".join(pieces) == text
    assert split_text("x" * 5000, 4096) == ["x" * 4096, "x" * 904]
    assert split_text("   ") == []


def test_mentions_use_utf16_offsets() -> None:
    kanji = User("telegram", "7", "歩兵")
    emoji = User("telegram", "8", "Bob")
    text = "🎌 歩兵 vs Bob: Bob to move"
    entities = mention_entities(text, [kanji, emoji])
    raw = text.encode("utf-16-le")
    shown = [raw[e.offset * 2 : (e.offset + e.length) * 2].decode("utf-16-le") for e in entities]
    assert shown == ["歩兵", "Bob"]
    assert [e.user.id for e in entities if e.user] == [7, 8]
    discord_user = User("discord", "9", "Carol")
    assert mention_entities("Carol", [discord_user]) == []
    assert with_mentions("Your move.", [emoji]) == "Your move.\nBob"
    assert with_mentions("Bob, your move.", [emoji]) == "Bob, your move."


def test_keyboards_keep_callback_data_within_64_bytes() -> None:
    assert fits_callback_data("accept 17")
    assert fits_callback_data("x" * 64) and not fits_callback_data("x" * 65)
    assert not fits_callback_data("") and not fits_callback_data("歩" * 22)  # 66 bytes
    markup = keyboard(
        (
            (Button("Accept", "accept 17", "success"), Button("Too long", "y" * 65)),
            (Button("Only bad", "z" * 80),),
        )
    )
    assert markup is not None
    assert [[b.callback_data for b in row] for row in markup.inline_keyboard] == [["accept 17"]]
    assert keyboard(()) is None


async def test_memory_keeps_cards_and_usernames_in_the_main_database(tmp_path: Path) -> None:
    path = tmp_path / "komabot.sqlite3"
    store = await SqliteStore.open(path)
    memory = Memory(store)
    await memory.put_card("telegram:-1", "challenge:3", Posted(-1, 10, caption=False))
    await memory.remember_user("Bob_B", User("telegram", "2002", "Bob"))
    await memory.set_owner(Posted(-1, 12, caption=True), "2001")
    await store.close()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".sqlite3"] == [path.name]

    store = await SqliteStore.open(path)
    again = Memory(store)
    assert await again.card("telegram:-1", "challenge:3") == Posted(-1, 10, caption=False)
    assert await again.card("telegram:-2", "challenge:3") is None
    assert await again.is_card(-1, 10) and not await again.is_card(-1, 11)
    assert await again.owner(-1, 12) == "2001" and await again.owner(-1, 10) is None
    assert await again.user("@bob_b") == User("telegram", "2002", "Bob")
    assert await again.user("nobody") is None
    # A card posted anew moves: its old message is no longer a card.
    await again.put_card("telegram:-1", "challenge:3", Posted(-1, 20, caption=True))
    assert not await again.is_card(-1, 10) and await again.is_card(-1, 20)
    # Cards and button owners are forgotten after KEEP_SECONDS; usernames are kept.
    await again.forget_old(now=time.time() + KEEP_SECONDS + 60)
    assert await again.card("telegram:-1", "challenge:3") is None
    assert not await again.is_card(-1, 20) and await again.owner(-1, 12) is None
    assert await again.user("bob_b") == User("telegram", "2002", "Bob")
    await store.close()


async def test_memory_refuses_to_work_without_a_store() -> None:
    with pytest.raises(RuntimeError, match="state store"):
        await Memory().card("telegram:-1", "challenge:3")


def test_cli_registers_telegram() -> None:
    parser = build_parser()
    args = parser.parse_args(["telegram", "--check"])
    assert args.check and args.func.__module__ == "bot.cli.telegram_cmds"


async def run_cli(*argv: str, env: dict[str, str]) -> tuple[int, str, str]:
    komabot = Path(sys.executable).with_name("komabot")
    process = await asyncio.create_subprocess_exec(
        str(komabot),
        *argv,
        env={"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/"), **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_cli_check_against_the_fake_server(fake: FakeBotApi, tmp_path: Path) -> None:
    env = {
        "TELEGRAM_TOKEN": fake.token,
        "TELEGRAM_API_BASE": f"http://127.0.0.1:{fake.port}",
        "KOMABOT_DB": str(tmp_path / "komabot.sqlite3"),
    }
    code, out, err = await run_cli("telegram", "--check", env=env)
    assert code == 0, err
    assert "Logged in as @KomaTestBot" in out and "long polling" in out
    assert fake.commands
    assert fake.token not in out + err


async def test_check_with_a_wrong_token(
    fake: FakeBotApi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.config import Config
    from bot.telegram_front import TelegramFrontEnd
    from tests.bot.telegram.conftest import settings_for

    settings = dataclasses.replace(settings_for(fake, tmp_path), token="999:wrong")
    front = TelegramFrontEnd(Config(db_path=tmp_path / "k.sqlite3"), settings)
    assert await front.check() == 2
    assert "refused TELEGRAM_TOKEN" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "TELEGRAM_TOKEN is not set"),
        (
            {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_WEBHOOK_URL": "http://plain.example.org/hook"},
            "TELEGRAM_WEBHOOK_URL",
        ),
    ],
)
def test_cli_refuses_a_bad_environment(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    message: str,
) -> None:
    from bot.cli import main

    for name in ("TELEGRAM_TOKEN", "TELEGRAM_WEBHOOK_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["telegram"]) == 2
    assert message in capsys.readouterr().err


def test_run_starts_telegram_when_only_its_token_is_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import bot.app
    from bot.cli import main
    from bot.telegram_front import TelegramFrontEnd

    started: list[list[object]] = []

    def serve(config: object, front_ends: list[object], prog: str = "komabot") -> int:
        started.append(list(front_ends))
        return 0

    monkeypatch.setattr(bot.app, "serve", serve)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TELEGRAM_TOKEN", TOKEN)
    assert main(["run", "--db", str(tmp_path / "komabot.sqlite3")]) == 0
    (front_ends,) = started
    assert [type(f) for f in front_ends] == [TelegramFrontEnd]
    assert front_ends[0].platform == "telegram"  # type: ignore[attr-defined]


async def test_komabot_run_serves_telegram_and_stops_on_sigterm(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    import signal

    dana = {"id": 3001, "is_bot": False, "first_name": "Dana", "username": "dana_k"}
    chat = fake.private_chat(dana)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/"),
        "TELEGRAM_TOKEN": fake.token,
        "TELEGRAM_API_BASE": f"http://127.0.0.1:{fake.port}",
        "KOMABOT_DB": str(tmp_path / "komabot.sqlite3"),
    }
    komabot = Path(sys.executable).with_name("komabot")
    process = await asyncio.create_subprocess_exec(
        str(komabot),
        "run",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake.wait_until(lambda: fake.calls_of("getUpdates"), timeout=30)
        fake.send_text(chat, dana, "/help")
        (reply,) = await fake.expect(1, timeout=30)
        process.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, err.decode()
    assert "/challenge" in reply["text"]
    assert fake.token not in out.decode() + err.decode()
    # What the front end remembers (here: who @dana_k is) is in the one database.
    assert sorted(p.name for p in tmp_path.glob("*.sqlite3")) == ["komabot.sqlite3"]
    con = sqlite3.connect(tmp_path / "komabot.sqlite3")
    try:
        rows = con.execute(
            "SELECT value FROM frontend_state WHERE platform = 'telegram' AND kind = 'username' "
            "AND key = 'dana_k'"
        ).fetchall()
    finally:
        con.close()
    assert [json.loads(value)["id"] for (value,) in rows] == ["3001"]


async def test_komabot_telegram_exits_non_zero_when_the_token_is_refused(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    wrong = "999999:WRONG-secret"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/"),
        "TELEGRAM_TOKEN": wrong,
        "TELEGRAM_API_BASE": f"http://127.0.0.1:{fake.port}",
        "KOMABOT_DB": str(tmp_path / "komabot.sqlite3"),
    }
    komabot = Path(sys.executable).with_name("komabot")
    process = await asyncio.create_subprocess_exec(
        str(komabot),
        "telegram",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    text = err.decode()
    assert process.returncode == 1, text
    (line,) = [line for line in text.splitlines() if "ERROR" in line]
    assert "telegram front end stopped: Telegram refused TELEGRAM_TOKEN" in line
    assert "WRONG-secret" not in out.decode() + text and "Traceback" not in text


async def test_waits_for_an_unreachable_api_and_stops_cleanly(tmp_path: Path) -> None:
    import socket

    from bot.config import Config
    from bot.telegram_front import TelegramFrontEnd

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = TelegramSettings(token=TOKEN, api_base=f"http://127.0.0.1:{port}")
    front = TelegramFrontEnd(Config(db_path=tmp_path / "k.sqlite3"), settings)
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    front.attach_state(store)
    stop = asyncio.Event()

    async def handle(request: object) -> object:
        raise AssertionError("no request can arrive")

    task = asyncio.create_task(front.run(handle, stop))  # type: ignore[arg-type]
    try:
        await asyncio.sleep(0.3)
        assert not task.done()  # still trying to log in, not crashed
        stop.set()
        await asyncio.wait_for(task, 5)
    finally:
        await store.close()


async def test_front_end_will_not_run_without_a_state_store(tmp_path: Path) -> None:
    from bot.config import Config
    from bot.telegram_front import TelegramFrontEnd

    front = TelegramFrontEnd(Config(db_path=tmp_path / "k.sqlite3"), TelegramSettings(TOKEN))

    async def handle(request: object) -> object:
        raise AssertionError("no request can arrive")

    with pytest.raises(RuntimeError, match="state store"):
        await front.run(handle, asyncio.Event())  # type: ignore[arg-type]
