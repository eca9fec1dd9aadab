"""The service over a store under stress: racing challenges, huge lists, a database that takes
no writes (read-only, disk full)."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from pathlib import Path

import pytest

from bot.app import run_app
from bot.config import Config
from bot.core.api import ChatKey, Reply, Request
from bot.core.clock import FakeClock
from bot.core.messages import text
from bot.store import SqliteStore
from rules import load_variant
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, Harness, person

DISCORD_LIMIT = 2000


def open_challenges_of(path: Path, challenger: str) -> int:
    con = sqlite3.connect(path)
    try:
        row = con.execute(
            "SELECT count(*) FROM challenges WHERE status = 'open' AND challenger = ?",
            (challenger,),
        ).fetchone()
        return int(row[0])
    finally:
        con.close()


# --- one open challenge per person per chat, however the requests arrive -------------------


async def test_fifty_challenges_at_once_open_exactly_one(h: Harness) -> None:
    replies = await asyncio.gather(*(h.say(ALICE, "challenge", "shogi") for _ in range(50)))
    assert open_challenges_of(h.path, ALICE.key) == 1
    cards = [r for r in replies if r.card]
    assert len(cards) == 1
    refusals = [r for r in replies if not r.card]
    assert all("You already have challenge #" in r.text for r in refusals), refusals[0].text


async def test_challenges_racing_from_two_processes_open_exactly_one(
    h: Harness, tmp_path: Path
) -> None:
    other = await Harness(h.path, FakeClock(), Config()).open()  # its own connection
    try:
        replies = await asyncio.gather(
            *((h if i % 2 else other).say(ALICE, "challenge", "wa", target=BOB) for i in range(50))
        )
    finally:
        await other.close()
    assert open_challenges_of(h.path, ALICE.key) == 1
    assert sum(1 for r in replies if r.card) == 1
    assert all(
        "already have challenge" in r.text or "already open" in r.text
        for r in replies
        if not r.card
    )


async def test_a_challenge_past_its_time_does_not_block_a_new_one(
    h: Harness, clock: FakeClock
) -> None:
    first = await h.say(ALICE, "challenge", "shogi")
    assert first.card == "challenge:1"
    await clock.advance(Config().challenge_ttl + 1)  # its expiry timer has not fired yet
    again = await h.say(ALICE, "challenge", "wa")
    assert again.card == "challenge:2", again.text
    assert open_challenges_of(h.path, ALICE.key) == 1
    assert h.outbox.edits[-1][1] == "challenge:1"  # the old card says it expired


# --- replies that list rows stay within a message, however many rows there are ---------------


def insert_rows(path: Path, sql: str, rows: list[tuple[object, ...]]) -> None:
    con = sqlite3.connect(path, timeout=10)
    try:
        con.executemany(sql, rows)
        con.commit()
    finally:
        con.close()


GAME_SQL = (
    "INSERT INTO games (platform, chat_id, variant, start_sfen, moves, version, sente, gote, "
    "status, created_at, updated_at) VALUES ('console', ?, 'shogi', ?, '', 1, ?, ?, "
    "'active', 1, 1)"
)


def long_name(i: int) -> str:
    return f"Player-{i}-" + "x" * 40


async def test_accept_among_thousands_of_open_challenges_fits_a_message(h: Harness) -> None:
    insert_rows(
        h.path,
        "INSERT INTO challenges (platform, chat_id, challenger, challenged, variant, color, "
        "status, created_at, expires_at) VALUES ('console', 'main', ?, NULL, 'shogi', "
        "'random', 'open', 1, ?)",
        [(f"console:u{i}", time.time() + 10**6) for i in range(3000)],
    )
    insert_rows(
        h.path,
        "INSERT INTO users (key, platform, user_id, name, name_lower) "
        "VALUES (?, 'console', ?, ?, ?)",
        [(f"console:u{i}", f"u{i}", long_name(i), long_name(i).lower()) for i in range(3000)],
    )
    for command in ("accept", "decline"):
        reply = await h.say(DAVE, command)
        assert len(reply.text) < DISCORD_LIMIT, (command, len(reply.text))
        assert "Several challenges" in reply.text
        assert "more" in reply.text and "#1 " in reply.text
    await h.say(CAROL, "settings", "language", "ru")
    reply = await h.say(DAVE, "accept")
    assert len(reply.text) < DISCORD_LIMIT and "ещё" in reply.text
    complete = await h.say(DAVE, "complete", "accept", "challenge", "")
    assert 0 < len(complete.buttons[0]) <= 25


async def test_games_lists_with_thousands_of_games_fit_a_message(h: Harness) -> None:
    start = load_variant("shogi").start_sfen
    insert_rows(  # Alice plays in 3,000 chats
        h.path,
        GAME_SQL,
        [(f"room{i}", start, ALICE.key, f"console:o{i}") for i in range(3000)],
    )
    insert_rows(  # and 3,000 other pairs play in the main chat
        h.path,
        GAME_SQL,
        [("main", start, f"console:s{i}", f"console:g{i}") for i in range(3000)],
    )
    insert_rows(
        h.path,
        "INSERT INTO users (key, platform, user_id, name, name_lower) "
        "VALUES (?, 'console', ?, ?, ?)",
        [(f"console:o{i}", f"o{i}", long_name(i), long_name(i).lower()) for i in range(3000)],
    )
    games = await h.say(ALICE, "games")
    assert len(games.text) < DISCORD_LIMIT and "and 2990 more" in games.text, games.text[-200:]
    watcher = await h.say(CAROL, "board")
    assert len(watcher.text) < DISCORD_LIMIT and "Several games" in watcher.text
    assert "more" in watcher.text
    private = ChatKey("console", "alice-dm")
    mine = await h.service.handle(Request(private, ALICE, "board", options={"chat": "private"}))
    assert len(mine.text) < DISCORD_LIMIT and "more" in mine.text, mine.text[-200:]
    complete = await h.say(ALICE, "complete", "move", "game", "")
    assert 0 < len(complete.buttons[0]) <= 25


# --- a database that cannot be written ----------------------------------------------------


def internal_error(reply: Reply) -> bool:
    return reply.text.startswith("Something went wrong")


async def test_reading_commands_work_when_the_database_turns_read_only(h: Harness) -> None:
    game = await h.start_game()
    await h.restart()  # names no longer cached: each request would write them again
    await h.store._db.execute("PRAGMA query_only=1")  # what a read-only file does to writes
    newcomer = person("erin")  # never seen: their name cannot be kept
    for user, command, args in [
        (newcomer, "help", ()),
        (ALICE, "board", ()),
        (ALICE, "games", ()),
        (newcomer, "board", (str(game.id),)),
        (CAROL, "settings", ()),
    ]:
        reply = await h.say(user, command, *args)
        assert not internal_error(reply), (command, reply.text)
    refused = await h.say(ALICE, "move", "7g7f")
    assert refused.text == text("error.read_only"), refused.text
    assert (await h.game(game.id)).moves == ()
    refused = await h.say(CAROL, "challenge", "shogi")
    assert refused.text == text("error.read_only")


async def test_a_database_opened_read_only_serves_reads_and_refuses_writes(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "komabot.sqlite3"
    h = await Harness(path, clock, Config()).open()
    await h.start_game()
    await h.close()
    before = path.read_bytes()
    store = await SqliteStore.open(path, read_only=True)  # as for a read-only file (mode=ro)
    assert store.read_only
    h.store = store
    from bot.core.service import GameService

    h.service = GameService(store, Config(), clock=clock, render_images=False)
    try:
        assert "Commands" in (await h.say(person("zed"), "help")).text
        assert "Bob" in (await h.say(ALICE, "games")).text
        assert (await h.say(ALICE, "move", "7g7f")).text == text("error.read_only")
    finally:
        await store.close()
    assert path.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files anyway")
async def test_a_read_only_file_is_opened_read_only(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "komabot.sqlite3"
    h = await Harness(path, clock, Config()).open()
    await h.start_game()
    await h.close()
    path.chmod(0o444)
    try:
        store = await SqliteStore.open(path)
        try:
            assert store.read_only and "read-only" in store.read_only
        finally:
            await store.close()
    finally:
        path.chmod(0o644)


def pretend_unwritable(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """``os.access`` says ``path`` cannot be written, as for a file chmod 444 (root, whom the
    tests may run as, ignores the mode bits)."""
    real_access = os.access

    def access(p: object, mode: int, *args: object, **kw: object) -> bool:
        if Path(str(p)) == path and mode & os.W_OK:
            return False
        return real_access(p, mode, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)


async def test_start_up_says_the_database_is_read_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "komabot.sqlite3"
    store = await SqliteStore.open(path)
    await store.close()
    pretend_unwritable(monkeypatch, path)
    with caplog.at_level(logging.WARNING, logger="komabot"):
        stop = asyncio.Event()
        stop.set()
        await asyncio.wait_for(run_app(Config(db_path=path), [], stop=stop), 20)
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("read-only" in line and str(path) in line for line in lines), lines


async def test_timers_wait_on_a_read_only_database_instead_of_failing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "komabot.sqlite3"
    chat = ChatKey("console", "main")
    store = await SqliteStore.open(path)
    await store.create_challenge(
        ChatKey(chat.platform, chat.chat_id, chat.thread_id),
        "console:alice",
        None,
        "shogi",
        "random",
        None,
        0.0,
        10.0,
    )
    await store.close()
    pretend_unwritable(monkeypatch, path)
    # the challenge's expiry is long due, but nothing may be written: no pass, no error
    with caplog.at_level(logging.WARNING, logger="komabot"):
        stop = asyncio.Event()
        runner = asyncio.create_task(
            run_app(Config(db_path=path), [], clock=FakeClock(), stop=stop)
        )
        await asyncio.sleep(0.3)
        stop.set()
        await asyncio.wait_for(runner, 20)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    monkeypatch.undo()
    store = await SqliteStore.open(path)
    key = ChatKey(chat.platform, chat.chat_id, chat.thread_id)
    assert [c.id for c in await store.open_challenges(key)] == [1]  # untouched, still waiting
    await store.close()


async def test_a_new_database_in_a_read_only_folder_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.store import StoreOpenError

    real_access = os.access
    monkeypatch.setattr(
        os,
        "access",
        lambda p, mode, *a, **k: False if Path(str(p)) == tmp_path else real_access(p, mode),
    )
    with pytest.raises(StoreOpenError, match="read-only") as caught:
        await SqliteStore.open(tmp_path / "komabot.sqlite3")
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "komabot.sqlite3").exists()


# --- a full disk ------------------------------------------------------------------------


async def fill_up(h: Harness) -> None:
    """Let the database grow no more and fill the tables a challenge and a name write use."""
    db = h.store._db
    count = (await (await db.execute("PRAGMA page_count")).fetchone())[0]  # type: ignore[index]
    await db.execute(f"PRAGMA max_page_count={count}")
    fillers = [
        "INSERT INTO challenges (platform, chat_id, challenger, variant, color, status, "
        "created_at, expires_at) VALUES ('x', 'x', 'x' || random(), 'shogi', 'random', "
        "'cancelled', 1, 1)",
        "INSERT INTO timers (kind, due_at, fired_at) VALUES ('reminder', 1, -1)",
        "INSERT INTO users (key, platform, user_id, name, name_lower) VALUES "
        "('x:' || random(), 'x', 'x', 'x', 'x')",
    ]
    for sql in fillers:
        with pytest.raises(sqlite3.OperationalError, match="full"):
            for _ in range(100_000):
                await db.execute(sql)


async def test_a_full_disk_refuses_writes_clearly_and_keeps_reading(h: Harness) -> None:
    game = await h.start_game()
    russian = ChatKey("console", "ru-room")
    await h.say(CAROL, "settings", "language", "ru", chat=russian)
    await fill_up(h)
    refused = await h.say(CAROL, "challenge", "shogi")
    assert refused.text == text("error.disk_full"), refused.text
    assert not internal_error(refused)
    assert "Commands" in (await h.say(person("newcomer"), "help")).text  # name not kept: fine
    assert "Alice" in (await h.say(ALICE, "board", str(game.id))).text
    refused = await h.say(CAROL, "challenge", "wa", chat=russian)
    assert refused.text == text("error.disk_full", "ru")
    assert open_challenges_of(h.path, CAROL.key) == 0
