"""The store: optimistic updates, timers, settings and front-end state on both backends (the
``store`` and ``open_store`` fixtures); opening, migrating and refusing foreign or damaged files
on SQLite (the tests that open :class:`SqliteStore` themselves: they read or write its file)."""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.store import (
    ChallengeStatus,
    ChatKey,
    ChatSettings,
    GameRow,
    GameStatus,
    NewTimer,
    SqliteStore,
    StoreOpenError,
    TimerKind,
    UserRow,
    VersionConflict,
)
from bot.store.migrations import APPLICATION_ID, LATEST, MIGRATIONS
from bot.store.models import ReminderRoute
from bot.store.sql import WRITTEN_GAME_COLUMNS, SqlStore
from bot.store.sqlite import INDEXED_GAME_COLUMNS
from tests.bot.store.conftest import OpenStore

CHAT = ChatKey("console", "main")


def new_game(sente: str = "console:a", gote: str = "console:b") -> GameRow:
    return GameRow(
        id=0,
        chat=CHAT,
        variant="shogi",
        start_sfen="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        moves=(),
        version=1,
        sente=sente,
        gote=gote,
        status=GameStatus.ACTIVE,
        termination=None,
        winner=None,
        time_per_move=86400,
        deadline=1000.0 + 86400,
        draw_offer=None,
        takeback_offer=None,
        created_at=1000.0,
        updated_at=1000.0,
    )


async def add_game(store: SqlStore, sente: str = "console:a", gote: str = "console:b") -> GameRow:
    ch = await store.create_challenge(CHAT, sente, gote, "shogi", "sente", 86400, 1000.0, 2000.0)
    game = new_game(sente, gote)
    timers = [NewTimer(TimerKind.DEADLINE, game.deadline or 0, 0, None, 1)]
    return await store.accept_challenge(ch.id, game, timers)


async def test_new_database_is_marked_and_migrated(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == LATEST
    finally:
        await store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


@pytest.mark.parametrize("old", range(1, LATEST))
async def test_migrates_from_every_older_version(tmp_path: Path, old: int) -> None:
    path = tmp_path / "old.sqlite3"
    store = await SqliteStore.open(path, target_version=old)
    assert await store.schema_version() == old
    # Data written at the old version survives the upgrade.
    await store.save_user(UserRow("console:a", "console", "a", "Ann"))
    ch = (
        await store.create_challenge(CHAT, "console:a", None, "wa", "random", None, 1.0, 2.0)
        if (old >= 2)
        else None
    )
    await store.close()
    if old < 2:
        con = sqlite3.connect(path)
        con.execute(
            "INSERT INTO games (platform, chat_id, variant, start_sfen, moves, version, sente, "
            "gote, status, created_at, updated_at) VALUES ('console', 'main', 'shogi', "
            "'startpos', '7g7f 3c3d', 3, 'console:a', 'console:b', 'active', 1, 1)"
        )
        con.commit()
        con.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == LATEST
        assert (await store.get_user("console:a")) == UserRow("console:a", "console", "a", "Ann")
        if ch is not None:
            again = await store.get_challenge(ch.id)
            assert again is not None and again.variant == "wa"
        else:
            game = await store.get_game(1)
            assert game is not None and game.moves == ("7g7f", "3c3d") and game.version == 3
        assert await store.get_settings(CHAT) == ChatSettings()
        # The front-end state table arrived with the upgrade and works.
        await store.put_state("telegram", "username", "bob_b", '{"id": "2002"}')
        assert await store.get_state("telegram", "username", "bob_b") == '{"id": "2002"}'
    finally:
        await store.close()


@pytest.mark.parametrize("old", range(1, 4))
async def test_front_end_state_arrives_with_version_4(tmp_path: Path, old: int) -> None:
    path = tmp_path / "old.sqlite3"
    store = await SqliteStore.open(path, target_version=old)
    await store.close()
    con = sqlite3.connect(path)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    con.close()
    assert "frontend_state" not in tables
    store = await SqliteStore.open(path, target_version=4)
    try:
        assert await store.schema_version() == 4
        assert await store.get_state("discord", "card", "x") is None
        await store.put_state("discord", "card", "x", "1 2")
        assert await store.get_state("discord", "card", "x") == "1 2"
    finally:
        await store.close()


async def test_front_end_state_is_kept_by_platform_and_kind(open_store: OpenStore) -> None:
    store = await open_store()
    try:
        await store.put_state("telegram", "card", "telegram:-1 challenge:3", "-1 10 0")
        await store.put_state("telegram", "card", "telegram:-1 challenge:3", "-1 11 1")
        await store.put_state("discord", "card", "telegram:-1 challenge:3", "other")
        await store.put_state("telegram", "username", "telegram:-1 challenge:3", "someone")
        assert await store.get_state("telegram", "card", "telegram:-1 challenge:3") == "-1 11 1"
        assert await store.get_state("discord", "card", "telegram:-1 challenge:3") == "other"
        await store.delete_state("telegram", "card", "telegram:-1 challenge:3")
        await store.delete_state("telegram", "card", "never written")  # no error
        assert await store.get_state("telegram", "card", "telegram:-1 challenge:3") is None
        assert await store.get_state("telegram", "username", "telegram:-1 challenge:3")
    finally:
        await store.close()
    store = await open_store()  # kept across a restart
    try:
        assert await store.get_state("discord", "card", "telegram:-1 challenge:3") == "other"
    finally:
        await store.close()


async def test_pruning_front_end_state_removes_only_old_entries_of_one_kind(
    open_store: OpenStore,
) -> None:
    store = await open_store()
    try:
        await store.put_state("telegram", "card", "old", "1")
        await store.put_state("telegram", "username", "bob", "2")
        await store.put_state("discord", "card", "old", "3")
        assert await store.prune_state("telegram", "card", time.time() - 60) == 0
        assert await store.prune_state("telegram", "card", time.time() + 60) == 1
        assert await store.get_state("telegram", "card", "old") is None
        assert await store.get_state("telegram", "username", "bob") == "2"
        assert await store.get_state("discord", "card", "old") == "3"
    finally:
        await store.close()


def test_every_migration_is_numbered_in_order() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST + 1))


async def test_refuses_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    content = b"these are my notes, not a database\n" * 200
    path.write_bytes(content)
    with pytest.raises(StoreOpenError, match="not an SQLite database"):
        await SqliteStore.open(path)
    assert path.read_bytes() == content
    assert not (tmp_path / "notes.sqlite3-wal").exists()


async def test_refuses_a_corrupt_database(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    for i in range(30):
        await add_game(store, f"console:s{i}", f"console:g{i}")
    await store.close()
    data = bytearray(path.read_bytes())
    data[4096 + 100 : 4096 * 3] = b"\xff" * (4096 * 3 - 4096 - 100)  # trash the first pages
    path.write_bytes(bytes(data))
    with pytest.raises(StoreOpenError):
        await SqliteStore.open(path)
    assert path.read_bytes() == bytes(data)


async def test_refuses_another_programs_database(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    con.execute("INSERT INTO invoices (amount) VALUES (12.5)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreOpenError, match="another program"):
        await SqliteStore.open(path)
    assert path.read_bytes() == before


async def test_refuses_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    await store.close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={LATEST + 1}")
    con.commit()
    con.close()
    with pytest.raises(StoreOpenError, match="newer"):
        await SqliteStore.open(path)


async def test_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(StoreOpenError, match="does not exist"):
        await SqliteStore.open(tmp_path / "nope" / "k.sqlite3")
    with pytest.raises(StoreOpenError, match="folder"):
        await SqliteStore.open(tmp_path)


async def test_settings_keep_whether_the_notation_was_chosen(store: SqlStore) -> None:
    assert not (await store.get_settings(CHAT)).notation_chosen
    chosen = replace(await store.get_settings(CHAT), notation="usi", notation_chosen=True)
    await store.save_settings(CHAT, chosen)
    assert await store.get_settings(CHAT) == chosen
    await store.save_settings(CHAT, replace(chosen, notation_chosen=False))
    assert not (await store.get_settings(CHAT)).notation_chosen


async def test_update_checks_the_version(store: SqlStore) -> None:
    game = await add_game(store)
    moved = await store.update_game(replace(game, moves=("7g7f",)))
    assert moved.version == game.version + 1
    with pytest.raises(VersionConflict):
        await store.update_game(replace(game, moves=("2g2f",)))
    assert (await store.get_game(game.id)) == moved


async def test_update_writes_every_column_indexed_or_not(store: SqlStore) -> None:
    game = await add_game(store)
    moved = await store.update_game(replace(game, moves=("7g7f",), deadline=5000.0))
    assert await store.get_game(game.id) == moved
    changed = replace(
        moved,
        chat=ChatKey("console", "other", "thread", community="guild"),
        sente="console:c",
        gote="console:d",
        status=GameStatus.FINISHED,
        termination="resignation",
        winner=1,
        finished_at=6000.0,
        engine_level=3,
        start_sfen="4k4/9/9/9/9/9/9/9/4K4 b G 1",
    )
    saved = await store.update_game(changed)
    assert await store.get_game(game.id) == saved


async def test_the_indexed_game_columns_are_those_of_the_schema(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    await store.close()
    con = sqlite3.connect(tmp_path / "k.sqlite3")
    try:
        schema = " ".join(
            sql for (sql,) in con.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' "
                "AND sql IS NOT NULL"
            )
        )  # fmt: skip
    finally:
        con.close()
    read = {c for c in WRITTEN_GAME_COLUMNS if re.search(rf"\b{c}\b", schema)}
    assert read == set(INDEXED_GAME_COLUMNS)


async def test_accept_keeps_one_active_game_per_player_per_chat(store: SqlStore) -> None:
    await add_game(store, "console:a", "console:b")
    ch = await store.create_challenge(CHAT, "console:c", "console:a", "shogi", "sente", None, 1, 2)
    with pytest.raises(VersionConflict):
        await store.accept_challenge(ch.id, new_game("console:c", "console:a"), [])
    assert (await store.get_challenge(ch.id)).status is ChallengeStatus.OPEN  # type: ignore[union-attr]
    assert await store.count_active_games() == 1


async def test_timers_are_claimed_once(open_store: OpenStore) -> None:
    store = await open_store()
    other = await open_store()
    try:
        game = await add_game(store)
        due = await store.due_timers(10**9)
        ids = [t.id for t in due if t.game_id == game.id]
        assert len(ids) == 1
        assert await store.mark_fired(ids, 5.0) == ids
        assert await other.mark_fired(ids, 6.0) == []
        assert [t.id for t in await other.due_timers(10**9) if t.game_id == game.id] == []
    finally:
        await store.close()
        await other.close()


async def test_finishing_a_game_cancels_its_timers(store: SqlStore) -> None:
    game = await add_game(store)
    assert len(await store.pending_timers(game.id)) == 1
    await store.update_game(replace(game, status=GameStatus.FINISHED), timers=[])
    assert await store.pending_timers(game.id) == []
    assert await store.next_due() is None  # the challenge's expiry ended with its acceptance


@pytest.mark.parametrize("old", range(1, 5))
async def test_chat_switches_and_reminder_routes_arrive_with_version_5(
    tmp_path: Path, old: int
) -> None:
    path = tmp_path / "old.sqlite3"
    store = await SqliteStore.open(path, target_version=old)
    await store.save_user(UserRow("discord:1", "discord", "1", "Ann"))
    await store.close()
    if old >= 3:
        con = sqlite3.connect(path)
        con.execute(
            "INSERT INTO chat_settings (platform, chat_id, notation, piece_style, perspective) "
            "VALUES (?, ?, 'usi', 'kanji', 'mover')",
            (CHAT.platform, CHAT.chat_id),
        )
        con.commit()
        con.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == LATEST
        settings = await store.get_settings(CHAT)
        assert not settings.bare_moves and not settings.threads
        assert settings.notation == ("usi" if old >= 3 else "western")
        assert settings.notation_chosen == (old >= 3)  # USI in English was chosen; Western not
        assert await store.get_reminder_route("discord:1") is ReminderRoute.CHAT
        await store.save_settings(CHAT, replace(settings, bare_moves=True, threads=True))
        again = await store.get_settings(CHAT)
        assert again.bare_moves and again.threads and again.notation == settings.notation
        await store.set_reminder_route("discord:1", ReminderRoute.DM)
        assert await store.get_reminder_route("discord:1") is ReminderRoute.DM
        assert (await store.get_user("discord:1")) == UserRow("discord:1", "discord", "1", "Ann")
        # A user never seen before gets a row of their own, with the choice kept.
        await store.set_reminder_route("telegram:7", ReminderRoute.DM)
        assert await store.get_reminder_route("telegram:7") is ReminderRoute.DM
        assert await store.get_reminder_route("telegram:8") is ReminderRoute.CHAT
    finally:
        await store.close()
