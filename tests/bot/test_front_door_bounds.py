"""Input is bounded where it comes in, to what the platforms let a person send (a Discord message
4,000 characters, a slash-command string option 6,000, a Telegram message 4,096, the console a
line of 4,096): a longer one is refused before anything parses it, so a request's work stays
small and the process answers signals."""

from __future__ import annotations

import asyncio
import datetime
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import telegram

from bot.config import Config
from bot.console_front import MAX_LINE, ConsoleFrontEnd
from bot.core.api import Reply, Request
from bot.discord_front.requests import MESSAGE_LIMIT, OPTION_LIMIT, slash_request, text_request
from bot.discord_front.settings import DiscordSettings
from bot.telegram_front.incoming import CALLBACK_LIMIT, TEXT_LIMIT, callback_request
from bot.telegram_front.incoming import message_request as telegram_request
from rules.lookup import LONGEST_QUERY, UnknownPieceError, find_piece

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script
MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdin=sys.stdin, stdout=subprocess.PIPE, text=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)  # kilobytes
print(done.stdout)
"""


def console_env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DISCORD_TOKEN": "",
        "TELEGRAM_TOKEN": "",
        "KOMABOT_DB": str(tmp_path / "k.db"),
        "KOMABOT_CONSOLE_OUT": str(tmp_path / "out"),
    }


def test_the_console_refuses_a_huge_line_in_little_memory(tmp_path: Path) -> None:
    lines = tmp_path / "in.txt"
    lines.write_text("/piece " + "x" * 8_000_000 + "\n@alice /piece fox\n")
    with lines.open() as stdin:
        done = subprocess.run(
            [sys.executable, "-c", MEASURE, sys.executable, "-c", ENTRY, "console", "--quiet"],
            stdin=stdin,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=console_env(tmp_path),
            timeout=120,
        )
    peak_kb, _, out = done.stdout.partition("\n")
    assert f"more than {MAX_LINE:,} characters" in out, out[-300:]
    assert "Treacherous Fox" in out, out[-300:]  # the next line is read as usual
    assert int(peak_kb) < 250_000, peak_kb  # 8 MB of text was never held, let alone parsed


def test_the_console_stops_on_sigterm_after_a_line_of_two_million_mentions(
    tmp_path: Path,
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", ENTRY, "console", "--quiet"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=console_env(tmp_path),
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("@alice /challenge " + "@bob " * 2_000_000 + "\n")
        proc.stdin.flush()
        started = time.monotonic()
        while f"more than {MAX_LINE:,} characters" not in proc.stdout.readline():
            assert time.monotonic() - started < 60
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
        proc.wait()


async def test_the_console_reads_a_line_up_to_its_limit() -> None:
    seen: list[Request] = []

    async def handle(request: Request) -> Reply:
        seen.append(request)
        return Reply("ok")

    fitting = "/help " + "x" * (MAX_LINE - len("/help "))
    stdin = io.StringIO(f"{fitting}\n/help {'y' * MAX_LINE}\n/help again\n")
    out = io.StringIO()
    front = ConsoleFrontEnd(Config(), stdin=stdin, stdout=out, banner=False)
    await asyncio.wait_for(front.run(handle, asyncio.Event()), 20)
    assert [r.args for r in seen] == [("x" * (MAX_LINE - 6),), ("again",)]
    assert out.getvalue().count(f"more than {MAX_LINE:,} characters") == 1


def discord_message(content: str) -> Any:
    author = SimpleNamespace(id=2, display_name="alice", name="alice", bot=False)
    return SimpleNamespace(
        content=content,
        channel=SimpleNamespace(id=5),
        guild=None,
        author=author,
        mentions=[],
    )


def test_discord_reads_a_message_up_to_its_limit_only() -> None:
    settings = DiscordSettings(token="t")
    fits = "!move 7g7f" + " " * (MESSAGE_LIMIT - 10)
    request = text_request(discord_message(fits), settings)
    assert request is not None and request.command == "move"
    assert text_request(discord_message(fits + " x"), settings) is None


def test_discord_drops_an_option_longer_than_discord_allows() -> None:
    interaction: Any = SimpleNamespace(
        client=SimpleNamespace(user=SimpleNamespace(id=1)),
        guild_id=None,
        channel_id=5,
        user=SimpleNamespace(id=2, display_name="alice", name="alice"),
    )
    request = slash_request(interaction, "move", {"move": "7" * (OPTION_LIMIT + 1)})
    assert request.args == ("7" * OPTION_LIMIT,) or request.args == ()
    assert all(len(v) <= OPTION_LIMIT for v in request.options.values())


def telegram_message(text: str) -> telegram.Message:
    return telegram.Message(
        message_id=1,
        date=datetime.datetime.now(datetime.UTC),
        chat=telegram.Chat(7, telegram.constants.ChatType.PRIVATE),
        from_user=telegram.User(2, "alice", False),
        text=text,
    )


async def test_telegram_reads_a_message_up_to_its_limit_only() -> None:
    me: Any = SimpleNamespace(id=1, username="komabot")

    async def resolve(name: str) -> None:
        return None

    fits = "7g7f" + " " * (TEXT_LIMIT - 4)
    request = await telegram_request(telegram_message(fits), me, resolve)
    assert request is not None and request.command == "move"
    assert await telegram_request(telegram_message(fits + "x"), me, resolve) is None


def test_telegram_ignores_callback_data_longer_than_telegram_allows() -> None:
    message = telegram_message("board")
    alice = telegram.User(2, "alice", False)
    fits = "board " + "9" * (CALLBACK_LIMIT - 6)
    pressed = callback_request(telegram.CallbackQuery("1", alice, "c", message=message, data=fits))
    assert pressed is not None and pressed.command == "board"
    longer = telegram.CallbackQuery("2", alice, "c", message=message, data=fits + "9")
    assert callback_request(longer) is None


def test_a_piece_name_longer_than_any_is_refused_without_comparing_it() -> None:
    with pytest.raises(UnknownPieceError) as raised:
        find_piece("fox" * 1000)
    assert len(raised.value.params["query"]) <= LONGEST_QUERY + 1
    assert raised.value.params["candidates"] == []
