"""``komabot db copy``: a real SQLite database into PostgreSQL and back, every table with its
counts; a target that is not empty is refused untouched."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import Config
from bot.core.api import ChatKey
from bot.core.clock import FakeClock
from bot.store.copy import TABLES, count
from bot.store.models import AnalysisRequest, NewNotice
from bot.store.postgres import PostgresStore
from bot.store.sql import SqlStore
from bot.store.sqlite import SqliteStore
from tests.bot.core.harness import ALICE, BOB, Harness
from tests.bot.store.test_hardening import build_real_database
from tests.postgres_server import PostgresServer


async def sqlite_with_everything(path: Path) -> None:
    """A database with a row in every table: games, challenges, timers, settings, ratings,
    front-end state, queued messages, a claim on the bot's turn and puzzles."""
    await build_real_database(path)
    h = await Harness(path, FakeClock(), Config()).open()
    try:
        rated = ChatKey("console", "rated")
        game = await h.start_game(ALICE, BOB, chat=rated)
        await h.play(game, "7g7f", "3c3d", "2g2f", "8c8d")
        await h.say(ALICE, "resign", "yes", chat=rated)
        await h.store.put_state("telegram", "username", "bob_b", '{"id": "2"}')
        await h.store.claim_engine_turn(game.id, game.version, "a process", 1.0, 2.0)
        await h.store.queue_notices([NewNotice("x", ChatKey("console", "main"), "{}", "k", 1.0)])
        await h.say(ALICE, "analyse", str(game.id), chat=rated)  # kept: a row in analyses
        await h.service.analyses.settle()
        request = AnalysisRequest(ChatKey("console", "waits", "t"), game.id, "analysis:1", 1.0)
        await h.store.claim_analysis_request(request, "a process", 2.0)
        await h.say(BOB, "puzzle")  # a puzzle given up (a result, both ratings), then another
        await h.say(BOB, "puzzle", "solution")
        await h.say(BOB, "puzzle")
        main = ChatKey("console", "main")  # a daily puzzle: the setting, a post, a solver
        await h.store.set_daily_puzzle(main, 16 * 60, h.clock.now())
        await h.service.timers.daily_posts.fire_due(h.clock.now())
        post = await h.store.daily_post(main)
        assert post is not None
        await h.store.record_daily_solve(main, post[0], "2000-01-01", BOB.key, h.clock.now())
    finally:
        await h.close()


async def contents(store: SqlStore) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order."""
    tables = {}
    for table in TABLES:
        columns = await store._columns(table)
        rows = await store._all(f"SELECT {', '.join(columns)} FROM {table}")
        tables[table] = sorted((tuple(r) for r in rows), key=repr)
    return tables


def test_sqlite_to_postgresql_and_back_keeps_every_row(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "k.sqlite3"
    asyncio.run(sqlite_with_everything(source))
    url = asyncio.run(postgres_server.new_database())
    assert main(["db", "copy", "--from", f"sqlite:///{source}", "--to", url]) == 0
    out = capsys.readouterr().out
    assert "the counts match" in out and "\ngames " in out

    async def compare() -> None:
        lite, pg = await SqliteStore.open(source), await PostgresStore.open(url)
        try:
            expected = await contents(lite)
            assert all(expected[t] for t in TABLES), {t: len(r) for t, r in expected.items()}
            assert await contents(pg) == expected
            # New rows get new ids on PostgreSQL after the copied ones.
            newest = max(r[0] for r in expected["challenges"])
            made = await pg.create_challenge(
                ChatKey("console", "new"), "console:z", None, "wa", "random", None, 1.0, 2.0
            )
            assert made.id == newest + 1
        finally:
            await lite.close()
            await pg.close()

    asyncio.run(compare())
    back = tmp_path / "back.sqlite3"
    assert main(["db", "copy", "--from", url, "--to", str(back)]) == 0

    async def round_trip() -> None:
        pg, again = await PostgresStore.open(url), await SqliteStore.open(back)
        try:
            assert await contents(again) == await contents(pg)
        finally:
            await pg.close()
            await again.close()

    asyncio.run(round_trip())


def test_a_target_that_is_not_empty_is_refused_untouched(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "k.sqlite3"
    asyncio.run(build_real_database(source))
    url = asyncio.run(postgres_server.new_database())
    assert main(["db", "copy", "--from", str(source), "--to", url]) == 0
    capsys.readouterr()

    async def games() -> int:
        pg = await PostgresStore.open(url)
        try:
            return await count(pg, "games")
        finally:
            await pg.close()

    before = asyncio.run(games())
    assert main(["db", "copy", "--from", str(source), "--to", url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("komabot db copy: the target database is not empty (")
    assert err.count("\n") == 1
    assert asyncio.run(games()) == before


def test_bad_names_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "copy", "--from", "mysql://x/y", "--to", str(tmp_path / "k")]) == 2
    assert capsys.readouterr().err.startswith("komabot db copy: --from/--to: ")
    same = str(tmp_path / "k.sqlite3")
    assert main(["db", "copy", "--from", same, "--to", f"sqlite:///{same}"]) == 2
    assert "same database" in capsys.readouterr().err
