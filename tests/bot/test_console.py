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
from bot.core.api import Attachment, Button, ChatKey, Reply, Request
from rules import Position, load_variant

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script


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
    await front.send(ChatKey("console", "lounge"), Reply("⏰ reminder"))
    await front.edit_card(ChatKey("console", "main"), "challenge:4", Reply("expired"))
    await front.send(ChatKey("console", "dm:bob"), Reply("⏰ your move"))
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
        [sys.executable, "-c", ENTRY, "run"],
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


class TerminalInput(io.StringIO):
    """Typed lines that say they come from a terminal."""

    def isatty(self) -> bool:
        return True


async def test_a_terminal_gets_a_prompt_after_each_answer(tmp_path: Path) -> None:
    out = io.StringIO()
    typed = TerminalInput("/board\n/as bob\n/chat lounge\n/board\n")
    front = ConsoleFrontEnd(Config(console_out=tmp_path), stdin=typed, stdout=out, banner=False)
    await drive(front, [])
    text = out.getvalue()
    assert text.startswith("alice@main> echo board\n")  # the answer comes before the next prompt
    assert "\nalice@main> (you are now bob)" in text
    assert "\nbob@main> (now in chat lounge)" in text
    assert "\nbob@lounge> echo board" in text
    assert text.endswith("bob@lounge> \n")  # end of input: the shell's prompt on a new line
    assert "> /board" not in text  # the terminal itself shows what was typed


async def test_piped_input_gets_no_prompt(tmp_path: Path) -> None:
    out = io.StringIO()
    piped = io.StringIO("/board\n/as bob\n")
    front = ConsoleFrontEnd(Config(console_out=tmp_path), stdin=piped, stdout=out, banner=False)
    await drive(front, [])
    text = out.getvalue()
    assert text.startswith("> /board\necho board\n") and "@main>" not in text


def test_komabot_console_in_a_terminal_prompts(tmp_path: Path) -> None:
    """The real thing: ``komabot console`` on a pseudo-terminal reads with ``input()``; Ctrl-C
    at the prompt leaves the terminal as it found it (echo on)."""
    import pty
    import select
    import signal
    import termios

    env = {
        **os.environ,
        "KOMABOT_DB": str(tmp_path / "komabot.sqlite3"),
        "KOMABOT_CONSOLE_OUT": str(tmp_path / "out"),
        "KOMABOT_LOG_LEVEL": "WARNING",
        "TERM": "dumb",
    }
    leader, follower = pty.openpty()
    settings = termios.tcgetattr(follower)
    process = subprocess.Popen(
        [sys.executable, "-c", ENTRY, "console", "--quiet", "--user", "carol"],
        stdin=follower,
        stdout=follower,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    seen = b""

    def read_until(marker: bytes, count: int = 1) -> None:
        nonlocal seen
        while seen.count(marker) < count:
            ready, _, _ = select.select([leader], [], [], 30)
            assert ready, f"no {marker!r} in {seen!r}"
            seen += os.read(leader, 4096)

    try:
        read_until(b"carol@main> ")
        os.write(leader, b"/help board\n")
        read_until(b"carol@main> ", 2)
        assert b"/board" in seen.split(b"carol@main> ")[1]  # the answer, then the prompt
        process.send_signal(signal.SIGINT)  # Ctrl-C while readline waits for a line
        assert process.wait(timeout=30) == 0
        assert termios.tcgetattr(follower) == settings
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
        os.close(follower)
    assert process.stderr is not None
    assert b"Traceback" not in process.stderr.read()
    process.stderr.close()


async def test_output_files_sort_in_the_order_they_were_made_across_sessions(
    tmp_path: Path,
) -> None:
    out_dir = tmp_path / "out"
    config = Config(console_out=out_dir)
    made = []
    for session in range(2):
        front = ConsoleFrontEnd(config, stdin=io.StringIO(""), stdout=io.StringIO())
        for name in ("board.png", "game-1.kif") if session == 0 else ("board.png",):
            made.append(front.save(Attachment(f"{session} {name}".encode(), name, "x")))
    assert sorted(out_dir.iterdir()) == made
    assert [p.name for p in made] == ["0001-board.png", "0002-game-1.kif", "0003-board.png"]
    assert made[-1].read_bytes() == b"1 board.png"


async def test_playing_the_bot_in_the_console(tmp_path: Path) -> None:
    """The real service and engine (a tiny budget): /play, a move and the bot's answer with its
    board, a challenge to @komabot in another chat (the bot has sente and moves first), and the
    help's button."""
    from bot.core.service import GameService
    from bot.store import SqliteStore

    config = Config(console_out=tmp_path / "img", engine_movetime_ms=50)
    out = io.StringIO()
    front = ConsoleFrontEnd(config, stdin=io.StringIO(""), stdout=out, banner=False)
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    service = GameService(store, config, outboxes={"console": front})
    try:
        await front.line("/play wa level 1 sente", service.handle)
        assert "Game #1 begins: alice (sente ☗) vs Komabot, level 1 (gote ☖)" in out.getvalue()
        await front.line("/move 8h8g", service.handle)
        await service.bot_player.settled()
        answer = out.getvalue().split("[bot in chat main]\n")[-1]
        assert answer.startswith("Komabot, level 1 played "), out.getvalue()
        assert " vP" in answer and "image: " in answer  # the text board and the picture

        await front.line("/chat lounge", service.handle)
        await front.line("/challenge @komabot shogi gote level 1", service.handle)
        await service.bot_player.settled()
        first = out.getvalue().split("[bot in chat lounge]\n")[-1]
        assert first.startswith("Komabot, level 1 played "), out.getvalue()
        game = await store.get_game(2)
        assert game is not None and len(game.moves) == 1 and game.sente == "engine:komabot"

        await front.line("/help", service.handle)
        assert "[Play the bot: /play]" in out.getvalue()
        images = [p for p in (tmp_path / "img").iterdir() if p.name.endswith("board.png")]
        assert len(images) >= 4 and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    finally:
        await service.drain()
        await store.close()


async def test_the_consoles_own_lines_follow_the_chats_language(tmp_path: Path) -> None:
    """In a Russian chat the banner, the notes and the headers are Russian: none of the words
    of the English console lines is left (commands, names and what was typed aside)."""
    from bot.core.messages import EN

    lines = "@alice\n!!\n/as\n/as bob\n/chat lounge\n/chat\n/board\n"
    out = io.StringIO()
    config = Config(console_out=tmp_path / "img")
    front = ConsoleFrontEnd(config, stdin=io.StringIO(lines), stdout=out)
    seen: list[Request] = []

    async def handle(request: Request) -> Reply:
        seen.append(request)
        return Reply("доска", lang="ru", buttons=((Button("Принять", "accept 3"),),))

    await asyncio.wait_for(front.run(handle, asyncio.Event()), 10)
    await front.send(ChatKey("console", "lounge"), Reply("напоминание", lang="ru"))
    await front.send(ChatKey("console", "dm:bob"), Reply("ваш ход", lang="ru"))
    await front.edit_card(ChatKey("console", "main"), "challenge:4", Reply("истёк", lang="ru"))
    said = out.getvalue()
    assert [r.command for r in seen] == ["complete", "board"]  # complete: the language
    assert said.startswith("Консоль Komabot")
    for line in (
        "(напишите что-нибудь от имени alice, например @alice /board)",
        "(это не команда: '!!'; команды начинаются с /, например /help)",
        "(напишите /as ИМЯ)",
        "(теперь вы — bob)",
        "(теперь вы в чате lounge)",
        "(напишите /chat ИМЯ)",
        "[бот в чате lounge]\nнапоминание",
        "[бот лично @bob]\nваш ход",
        "[бот обновляет challenge:4 в чате main]\nистёк",
    ):
        assert line in said, line
    english = {
        w.lower()
        for key, template in EN.items()
        if key.startswith("console.")
        for w in re.findall(r"[A-Za-z]{3,}", template.split("{")[0] + template)
    }
    english -= {"komabot", "alice", "bob", "challenge", "accept", "move", "play", "level", "ctrl"}
    english -= {"board", "help", "quit", "chat", "name", "komabot"}  # commands, as typed
    typed = re.sub(r"/[a-z]+|@\w+|'[^']*'|\[[^]]*: /[^]]*\]", " ", said.replace(str(tmp_path), ""))
    left = [w for w in re.findall(r"[A-Za-z]{3,}", typed) if w.lower() in english]
    assert left == [], left


async def test_nobody_speaks_as_the_bot(tmp_path: Path) -> None:
    lines = "@komabot /board\n/as komabot\n@Bot /accept\n/board\n"
    out = io.StringIO()
    front = ConsoleFrontEnd(
        Config(console_out=tmp_path), stdin=io.StringIO(lines), stdout=out, banner=False
    )
    seen: list[Request] = []
    await drive(front, seen)
    assert [(r.user.id, r.command) for r in seen] == [("alice", "board")]
    said = out.getvalue()
    assert said.count("is the bot's own name") == 3, said


async def test_a_card_that_says_what_the_reply_says_prints_once(tmp_path: Path) -> None:
    out = io.StringIO()
    lines = "/cancel\n/accept\n"
    front = ConsoleFrontEnd(
        Config(console_out=tmp_path), stdin=io.StringIO(lines), stdout=out, banner=False
    )

    async def handle(request: Request) -> Reply:
        said = "Challenge #4 was withdrawn by alice."
        card = said if request.command == "cancel" else "Challenge #5 was accepted."
        main = ChatKey("console", "main")
        await front.edit_card(main, f"challenge:{request.command}", Reply(card))
        return Reply(said if request.command == "cancel" else "The game begins.")

    await asyncio.wait_for(front.run(handle, asyncio.Event()), 10)
    said = out.getvalue()
    assert said.count("Challenge #4 was withdrawn by alice.") == 1, said
    assert "challenge:cancel" not in said
    assert "[bot updates challenge:accept in chat main]\nChallenge #5 was accepted." in said
    assert said.index("Challenge #5 was accepted.") < said.index("The game begins.")


async def test_later_replies_name_their_image_in_their_language(tmp_path: Path) -> None:
    out = io.StringIO()
    front = ConsoleFrontEnd(Config(console_out=tmp_path), stdin=io.StringIO(""), stdout=out)
    image = Attachment(b"PNG", "board.png", "image/png")
    await front.send(ChatKey("console", "main"), Reply("Ход", image=image, lang="ru"))
    assert "изображение: " in out.getvalue() and "image: " not in out.getvalue()
