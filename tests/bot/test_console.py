"""The console front end: in-process with text streams, and ``komabot console`` with piped input."""

from __future__ import annotations

import asyncio
import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

from bot.config import Config
from bot.console_front import ConsoleFrontEnd
from bot.core.api import Attachment, Button, ChatRef, Reply, Request
from rules import Position, load_variant

ROOT = Path(__file__).resolve().parents[2]


async def drive(front: ConsoleFrontEnd, seen: list[Request]) -> None:
    async def handle(request: Request) -> Reply:
        seen.append(request)
        return Reply(
            f"echo {request.command}",
            image=Attachment(b"PNG", "board.png", "image/png"),
            buttons=((Button("Accept", "accept 3"),),),
            text_board="[board]",
        )

    await asyncio.wait_for(front.run(handle, asyncio.Event()), 10)


async def test_lines_become_requests(tmp_path: Path) -> None:
    lines = "\n".join(
        [
            "@alice /challenge @Bob wa",
            "/as bob",
            "accept",
            "# a comment",
            "",
            "/chat lounge",
            "@carol /m@komabot 7g7f",
            "hello there",
            "/quit",
            "@alice /board",
        ]
    )
    out = io.StringIO()
    config = Config(console_out=tmp_path / "img")
    front = ConsoleFrontEnd(config, stdin=io.StringIO(lines), stdout=out, banner=False)
    seen: list[Request] = []
    await drive(front, seen)
    assert [(r.user.id, r.chat.chat_id, r.command, r.args) for r in seen] == [
        ("alice", "main", "challenge", ("wa",)),
        ("bob", "main", "accept", ()),
        ("carol", "lounge", "move", ("7g7f",)),
        ("bob", "lounge", "hello", ("there",)),
    ]
    assert seen[0].target is not None and seen[0].target.id == "bob"
    text = out.getvalue()
    assert "[Accept: /accept 3]" in text and "[board]" in text
    images = sorted((tmp_path / "img").iterdir())
    assert len(images) == 4 and images[0].read_bytes() == b"PNG"
    assert f"image: {images[0]}" in text
    assert "/board" not in "".join(r.command for r in seen)  # nothing after /quit


async def test_outbox_messages_print_with_their_chat(tmp_path: Path) -> None:
    out = io.StringIO()
    front = ConsoleFrontEnd(Config(console_out=tmp_path), stdin=io.StringIO(""), stdout=out)
    await front.send(ChatRef("console", "lounge"), Reply("⏰ reminder"))
    await front.edit_card(ChatRef("console", "main"), "challenge:4", Reply("expired"))
    await front.send(ChatRef("console", "dm:bob"), Reply("⏰ your move"))
    text = out.getvalue()
    assert "[bot in chat lounge]\n⏰ reminder" in text
    assert "[bot to @bob privately]\n⏰ your move" in text
    assert "[bot updates challenge:4 in chat main]\nexpired" in text


def random_wa_moves(count: int, seed: int) -> list[str]:
    pos = Position.start(load_variant("wa"))
    rng = random.Random(seed)
    moves = []
    for _ in range(count):
        move = rng.choice(sorted(pos.legal_moves()))
        moves.append(pos.usi(move))
        pos.push(move)
    return moves


def console(tmp_path: Path, lines: list[str]) -> str:
    env = {
        **os.environ,
        "KOMABOT_DB": str(tmp_path / "komabot.sqlite3"),
        "KOMABOT_CONSOLE_OUT": str(tmp_path / "out"),
        "KOMABOT_LOG_LEVEL": "WARNING",
        "DISCORD_TOKEN": "",
        "TELEGRAM_TOKEN": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())", "run"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def last_board(output: str) -> str:
    boards = re.findall(r"(☖ gote.*?\n.*?☗ sente[^\n]*|☗ sente.*?\n.*?☖ gote[^\n]*)", output, re.S)
    assert boards
    return boards[-1]


# A whole Wa Shogi game (no drops) that gote wins by checkmate on move 32.
WA_MATE = [
    "8i9h",
    "4a4b",
    "9h11j",
    "6b9b",
    "6j8j",
    "8c9d",
    "1i1h",
    "9d9i+",
    "10j9i",
    "7c7d",
    "1k1j",
    "4c5b",
    "7i7h",
    "4d4e",
    "4i3h",
    "5b4c",
    "3h3c",
    "2b3c",
    "4k3j",
    "3c8h",
    "9i8h",
    "4c6e",
    "8h1a",
    "2a1a",
    "8j5j",
    "5a5b",
    "3j4j",
    "6a7b",
    "4h4g",
    "6e4g",
    "1j1k",
    "4g6i",
]


def test_a_whole_wa_game_then_a_restart_mid_game(tmp_path: Path) -> None:
    second = random_wa_moves(30, seed=4)
    script = ["@alice /challenge @bob wa sente 3d", "@bob /accept"]
    script += [f"@{'alice' if i % 2 == 0 else 'bob'} /move {m}" for i, m in enumerate(WA_MATE)]
    script += ["@bob /resign", "@alice /export kif 1", "@alice /export 1"]
    script += ["@bob /challenge @alice wa-drops gote 7d", "@alice /accept"]
    script += [f"@{'alice' if i % 2 == 0 else 'bob'} /move {m}" for i, m in enumerate(second[:11])]
    script += ["@carol /board"]  # ends here: end of input, like closing the terminal
    out = console(tmp_path, script)
    assert out.count(" played ") == 32 + 11
    assert "Game #1 is over: bob wins by checkmate" in out
    assert "Game #1 is over (bob wins by checkmate)" in out  # resigning afterwards
    assert "Wa Shogi games can't be written as kif; use one of kifu, usi, gif" in out
    assert re.search(r"file: .*game-1\.kifu", out)
    before = last_board(out)

    out = console(tmp_path, ["@carol /board", "@alice /games", "@bob /move " + second[11], "/quit"])
    assert last_board(out.split("> @alice /games")[0]) == before
    assert "Game #2: alice ☗ vs bob ☖ · Wa Shogi with drops · move 11" in out
    assert "#2 vs bob · Wa Shogi with drops · move 11 · bob's move" in out  # as /board says
    assert "bob played" in out
