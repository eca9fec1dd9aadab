"""Speed at scale: every query on a request or timer path uses an index, the file grows per
game rather than per move, and a large file opens without reading its history."""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from pathlib import Path

import pytest

import bot.store.sqlite as sqlite_store
from bot.config import Config
from bot.core.clock import FakeClock
from bot.store import ChallengeStatus, ChatKey, SqliteStore, StoreOpenError
from bot.store.errors import ReadOnlyStore
from bot.store.migrations import LATEST
from bot.store.models import NewNotice, NoticeState, RatingRow, UserRow
from tests.bot.core.engine_fakes import RecordingEngine
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, Harness, person

MAIN = ChatKey("console", "main")


async def _record(store: SqliteStore) -> list[str]:
    """Every SQL statement the store's connection runs from now on (expanded)."""
    seen: list[str] = []
    await store._db.set_trace_callback(seen.append)
    return seen


async def _flow(h: Harness, clock: FakeClock) -> None:
    """A bit of everything a chat does: challenges made, declined and taken, moves, look-ups,
    reminders and a time-out fired, notices delivered and pruned, front-end state."""
    store = h.store
    await h.say(CAROL, "challenge", "shogi")
    await h.say(CAROL, "settings", "language", "en")
    game = await h.start_game(time="1d")
    await h.play(game, "7g7f", "3c3d", "2g2f", "8c8d")  # enough moves to be rated
    await h.say(ALICE, "games")
    await h.say(BOB, "board")
    await h.say(BOB, "moves")
    await h.say(DAVE, "accept")  # Carol's open challenge: a second game
    await h.say(DAVE, "resign")
    for _ in range(4):  # reminders, then the time-out
        await clock.advance(8 * 3600)
        await h.service.fire_due()
    # a game against the bot: started with no challenge, its moves, a takeback, a draw refused
    erin = person("erin")
    await h.say(erin, "play", "sente", "level", "2")
    await h.say(erin, "move", "7g7f")
    await h.service.bot_player.settled()
    await h.say(erin, "takeback")
    await h.say(erin, "draw")
    await h.service.bot_player.resume()
    await h.service.bot_player.settled()
    for command in ("rating", "leaderboard", "history"):  # the time-out rated Alice and Bob
        await h.say(ALICE, command)
    await h.say(ALICE, "leaderboard", "wa")
    await store.leaderboard_place(
        "console", "main", RatingRow("console", "main", "x", "shogi", 1500, 50, 0.06, 9, 9, 0, 0, 1)
    )
    await store.users_named("console", "alice")
    await store.get_user(ALICE.key)
    await store.last_game(MAIN, ALICE.key)
    await store.last_game(MAIN, "console:nobody")
    await store.active_games_of(ALICE.key)
    await store.count_active_games_of(ALICE.key)
    await store.count_active_games()
    await store.active_games_in_chat(MAIN)
    await store.count_active_games_in_chat(MAIN)
    await store.open_challenges(MAIN, by=ALICE.key)
    await store.open_challenges(MAIN, to=BOB.key)
    await store.count_open_challenges(MAIN, to=BOB.key)
    challenge = await store.create_challenge(
        MAIN, "console:zed", None, "shogi", "random", None, clock.now(), clock.now() + 60
    )
    await store.close_challenge(challenge.id, ChallengeStatus.CANCELLED)
    await store.save_user(UserRow("console:zed", "console", "zed", "Zed"))
    await store.put_state("console", "card", "k", "v")
    await store.get_state("console", "card", "k")
    await store.delete_state("console", "card", "k")
    await store.prune_state("console", "card", time.time())
    notice = NewNotice("x", MAIN, "{}", "k1", clock.now())
    await store.queue_notices([notice])
    for claimed in await store.claim_notices(["console"], clock.now(), "me", clock.now() + 30):
        await store.renew_notice(claimed.id, "me", clock.now() + 60)
        await store.retry_notice(claimed.id, "me", clock.now(), "boom")
        await store.finish_notice(claimed.id, NoticeState.DELIVERED, clock.now())
    await store.next_notice_due(["console", "discord"])
    await store.prune_notices(clock.now() + 1)
    await store.next_due()
    await store.due_timers(clock.now())


COARSE = {"fired_at", "state", "status"}
"""Columns that alone pick every live row (every pending timer, every active game)."""


def _scans(con: sqlite3.Connection, sql: str, *, live: bool = False) -> list[str]:
    """The plan lines of ``sql`` that read a whole table or a whole index of one (an index
    that holds only live rows, a partial one, is allowed), or every live row of one through
    an index searched on nothing but its state (``fired_at IS NULL``: every pending timer),
    unless ``live`` (reading the live rows is the point)."""
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    partial = {
        r[0]
        for r in con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index'")
        if r[1] and " WHERE " in r[1].upper()
    }
    bad = []
    for row in con.execute("EXPLAIN QUERY PLAN " + sql):
        detail = str(row[3])
        m = re.match(r"SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?", detail)
        if m and m.group(1) in tables and m.group(2) not in partial:
            bad.append(detail)
        m = re.match(r"SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \((\w+)=\?\)$", detail)
        if m and m.group(1) in tables and m.group(2) in COARSE and not live:
            bad.append(detail)
    return bad


async def test_every_query_on_a_request_or_timer_path_uses_an_index(tmp_path: Path) -> None:
    clock = FakeClock()
    engine = RecordingEngine()  # the bot answers in this process: the queries are the point
    h = await Harness(tmp_path / "komabot.sqlite3", clock, Config(), engine=engine).open()
    try:
        seen = await _record(h.store)
        await _flow(h, clock)
        await h.store._db.set_trace_callback(None)  # type: ignore[arg-type]
    finally:
        await h.close()
    statements = {
        s.strip()
        for s in seen
        if s.lstrip().split(" ", 1)[0].upper() in {"SELECT", "UPDATE", "DELETE", "WITH"}
    }
    assert len(statements) > 30, statements  # the flow did reach the store
    con = sqlite3.connect(tmp_path / "komabot.sqlite3")
    try:
        found = {s: _scans(con, s) for s in sorted(statements)}
    finally:
        con.close()
    assert {s: b for s, b in found.items() if b} == {}


def test_a_large_file_reads_only_live_rows_at_start(tmp_path: Path) -> None:
    """What start-up reads of a file past FULL_CHECK_BYTES goes through indexes of live rows
    (front-end state and ratings: a bounded sample, see LIVE_STATE_ROWS)."""
    import asyncio

    asyncio.run(SqliteStore.open(tmp_path / "k.sqlite3")).__class__  # noqa: B018 - create it
    con = sqlite3.connect(tmp_path / "k.sqlite3")
    try:
        for table, (columns, live, _, _) in sqlite_store._ROW_CHECKS.items():
            if table in {"frontend_state", "ratings", "rating_changes"}:
                assert "LIMIT" in live
                continue
            assert _scans(con, f"SELECT {columns} FROM {live}", live=True) == [], table
    finally:
        con.close()


async def _count(store: SqliteStore, sql: str) -> int:
    row = await (await store._db.execute(sql)).fetchone()
    assert row is not None
    return int(row[0])


async def test_timers_are_deleted_when_fired_or_cancelled(tmp_path: Path) -> None:
    """The timers table holds the pending timers only: its size follows the active games and
    open challenges, not the number of moves ever played."""
    clock = FakeClock()
    h = await Harness(tmp_path / "komabot.sqlite3", clock, Config()).open()
    try:
        await h.say(CAROL, "challenge", "shogi")
        await h.say(CAROL, "cancel")
        game = await h.start_game(time="1d")
        after_start = await _count(h.store, "SELECT count(*) FROM timers")
        await h.play(game, "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e")
        assert await _count(h.store, "SELECT count(*) FROM timers") == after_start
        assert len(await h.store.pending_timers(game.id)) == after_start
        await clock.advance(20 * 3600)  # the reminders fire
        await h.service.fire_due()
        await clock.advance(8 * 3600)  # and the deadline
        await h.service.fire_due()
        assert (await h.game(game.id)).status.value != "active"
        assert await _count(h.store, "SELECT count(*) FROM timers") == 0
    finally:
        await h.close()


async def test_notices_are_pruned_in_bounded_transactions(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    try:
        notices = [NewNotice("x", MAIN, "{}", f"k{i}", 100.0) for i in range(25)]
        await store.queue_notices(notices)
        await store._db.execute(
            "UPDATE outbox SET state = 'delivered', done_at = 100 WHERE id <= 20"
        )
        seen = await _record(store)
        assert await store.prune_notices(150.0, batch=7) == 25
        deletes = [s for s in seen if s.startswith("DELETE")]
        assert len(deletes) == 3 + 1  # 7 + 7 + 6 settled, then 5 pending
        assert await store.notices() == []
    finally:
        await store.close()


def _damage_history(path: Path) -> None:
    """Overwrite a page of the finished games' index (history, no live row on it)."""
    con = sqlite3.connect(path)
    try:
        pages = [
            r[0]
            for r in con.execute(
                "SELECT pageno FROM dbstat WHERE name = 'games_by_sente' AND pagetype = 'leaf'"
            )
        ]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    finally:
        con.close()
    assert len(pages) > 2
    with path.open("r+b") as fh:
        fh.seek((pages[len(pages) // 2] - 1) * size)
        fh.write(b"\x0d\xff\xff\xff" * (size // 4))


async def _history(path: Path, games: int) -> None:
    store = await SqliteStore.open(path)
    try:
        rows = [
            (
                "console",
                "main",
                "shogi",
                "sfen",
                "7g7f " * 200,
                9,
                f"console:p{i}",
                "console:q",
                1.0,
            )
            for i in range(games)
        ]
        await store._db.executemany(
            "INSERT INTO games (platform, chat_id, variant, start_sfen, moves, version, sente, "
            "gote, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'finished', "
            "?, 1)",
            rows,
        )
    finally:
        await store.close()


async def test_a_large_damaged_file_opens_then_refuses_writes_loudly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Past FULL_CHECK_BYTES, start-up does not run quick_check; the background check finds
    the damage, logs it as an error and the store takes no more writes (reads go on)."""
    path = tmp_path / "komabot.sqlite3"
    await _history(path, 3000)
    _damage_history(path)
    monkeypatch.setattr(sqlite_store, "FULL_CHECK_BYTES", 1024)
    caplog.set_level(logging.ERROR)
    store = await SqliteStore.open(path)
    try:
        found = await store.background_check()
        assert found and store.damaged
        assert "DATABASE DAMAGED" in caplog.text
        assert await store.get_settings(MAIN) is not None  # reads still answer
        with pytest.raises(ReadOnlyStore, match="damaged"):
            await store.put_state("console", "card", "k", "v")
    finally:
        await store.close()


async def test_a_large_whole_file_passes_its_background_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "komabot.sqlite3"
    await _history(path, 300)
    monkeypatch.setattr(sqlite_store, "FULL_CHECK_BYTES", 1024)
    store = await SqliteStore.open(path)
    try:
        assert await store.background_check() is None
        await store.put_state("console", "card", "k", "v")
    finally:
        await store.close()


async def test_migration_8_drops_the_timers_older_versions_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """And the one-off upgrade is said in the log, before (it may take a while on a large
    file: bench/store.py times it) and after."""
    path = tmp_path / "komabot.sqlite3"
    store = await SqliteStore.open(path, target_version=7)
    await store._db.execute(
        "INSERT INTO timers (kind, due_at, fired_at) VALUES ('reminder', 1, -1), "
        "('reminder', 2, 5), ('reminder', 3, NULL)"
    )
    await store.close()
    with caplog.at_level(logging.INFO, logger="bot.store.sqlite"):
        store = await SqliteStore.open(path)
    try:
        assert await _count(store, "SELECT count(*) FROM timers") == 1
        assert await store.next_due() == 3.0
    finally:
        await store.close()
    said = [r.getMessage() for r in caplog.records]
    upgrade = f"is at schema 7: checking it, then upgrading it to {LATEST}"
    assert any(upgrade in m for m in said), said
    assert any("upgraded in" in m for m in said), said
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.store.sqlite"):
        await (await SqliteStore.open(path)).close()
    assert not any("upgrad" in r.getMessage() for r in caplog.records)


async def test_a_large_file_due_a_migration_is_checked_in_full_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration writes into the file: a large one is quick-checked first, and a damaged one
    refused in one line, untouched."""
    path = tmp_path / "komabot.sqlite3"
    await _history(path, 3000)
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version=7")
    con.close()
    _damage_history(path)
    before = path.read_bytes()
    monkeypatch.setattr(sqlite_store, "FULL_CHECK_BYTES", 1024)
    with pytest.raises(StoreOpenError, match="damaged") as caught:
        await SqliteStore.open(path)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == before
