"""The SQLite store under stress: racing writers, processes starting together, foreign files
with a hot journal or WAL, randomly damaged files."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.config import Config
from bot.core.api import Reply
from bot.core.clock import FakeClock
from bot.core.positions import DamagedRecordError
from bot.store import ChallengeStatus, ChatKey, SqliteStore, StoreOpenError
from bot.store.migrations import LATEST
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, Harness, person
from tests.bot.store.conftest import OpenStore

ROOT = Path(__file__).resolve().parents[3]
CHAT = ChatKey("console", "main")


# --- one open challenge per challenger per chat ------------------------------------------


async def test_fifty_racing_creates_on_two_connections_make_one_challenge(
    open_store: OpenStore,
) -> None:
    from bot.store import ChallengeAlreadyOpen

    one, two = await open_store(), await open_store()
    try:
        results = await asyncio.gather(
            *(
                (one if i % 2 else two).create_challenge(
                    CHAT, "console:a", None, "shogi", "random", None, 1.0, 9e9
                )
                for i in range(50)
            ),
            return_exceptions=True,
        )
        made = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, ChallengeAlreadyOpen)]
        assert len(made) == 1 and len(refused) == 49
        assert {r.challenge_id for r in refused} == {made[0].id}
        # Others, and the same person in another chat, are not held back.
        await one.create_challenge(CHAT, "console:b", None, "wa", "random", None, 1.0, 9e9)
        other_chat = ChatKey("console", "side")
        await one.create_challenge(other_chat, "console:a", None, "wa", "random", None, 1, 9e9)
        # Once closed, a new one may open.
        await one.close_challenge(made[0].id, ChallengeStatus.CANCELLED)
        await two.create_challenge(CHAT, "console:a", None, "shogi", "random", None, 1.0, 9e9)
    finally:
        await one.close()
        await two.close()


async def test_migration_6_leaves_one_open_challenge_per_challenger(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path, target_version=5)
    ids = []
    for chat in (CHAT, CHAT, CHAT, ChatKey("console", "side")):
        ch = await store.create_challenge(chat, "console:a", None, "shogi", "random", None, 1, 9e9)
        ids.append(ch.id)
    other = await store.create_challenge(CHAT, "console:b", None, "wa", "random", None, 1, 9e9)
    await store.close()
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == LATEST
        open_here = await store.open_challenges(CHAT)
        assert [c.id for c in open_here] == [ids[2], other.id]  # the newest of Alice's stays
        assert [c.id for c in await store.open_challenges(ChatKey("console", "side"))] == [ids[3]]
        due = {t.challenge_id for t in await store.due_timers(10**10, limit=100)}
        assert due == {ids[2], ids[3], other.id}  # the cancelled ones' expiry is gone
    finally:
        await store.close()


# --- processes starting together ---------------------------------------------------------

WORKER = """
import asyncio, json, sys, time
from bot.store import SqliteStore

async def main():
    out = []
    for path, at in json.loads(sys.argv[1]):
        await asyncio.sleep(max(0.0, at - time.time()))
        try:
            store = await SqliteStore.open(path, sync="normal")
            out.append(await store.schema_version())
            await store.close()
        except Exception as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    print(json.dumps(out))

asyncio.run(main())
"""


def start_together(trials: list[Path], processes: int = 3) -> list[list[object]]:
    """Open every file of ``trials`` from ``processes`` processes at the same moment (one
    file after the other); each process's results, file by file."""
    begin = time.time() + 3.0  # time for the interpreters to start
    plan = json.dumps([(str(p), begin + i * 0.15) for i, p in enumerate(trials)])
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, plan],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        results.append(json.loads(out))
    return results


async def test_processes_starting_together_create_and_upgrade_once(tmp_path: Path) -> None:
    new = [tmp_path / f"new{i}.sqlite3" for i in range(12)]
    old = [tmp_path / f"old{i}.sqlite3" for i in range(12)]
    for i, path in enumerate(old):
        store = await SqliteStore.open(path, target_version=2 + i % 4)
        await store.create_challenge(CHAT, "console:a", None, "shogi", "random", None, 1, 9e9)
        await store.create_challenge(CHAT, "console:a", None, "wa", "random", None, 1, 9e9)
        await store.close()
    results = await asyncio.to_thread(start_together, new + old)
    for outcome in results:
        assert outcome == [LATEST] * len(new + old), outcome
    for path in old:
        store = await SqliteStore.open(path)
        try:
            assert len(await store.open_challenges(CHAT)) == 1
        finally:
            await store.close()


# --- a refused file is left as it was ----------------------------------------------------


def digest(path: Path) -> dict[str, str]:
    """Hashes of the database and its journal and WAL (absent files as such)."""
    out = {}
    for suffix in ("", "-journal", "-wal"):
        f = path.with_name(path.name + suffix)
        out[suffix] = hashlib.sha256(f.read_bytes()).hexdigest() if f.exists() else "absent"
    return out


def foreign_with_hot_journal(folder: Path) -> Path:
    """Another program's database caught mid-transaction: pages already written to the file,
    the journal that would roll them back beside it (a crash, as the copy sees it)."""
    src = folder / "src.db"
    con = sqlite3.connect(src, isolation_level=None)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("CREATE TABLE measurements (id INTEGER PRIMARY KEY, data BLOB)")
    con.execute("PRAGMA cache_size=2")  # spill changed pages into the file before commit
    con.execute("BEGIN")
    for _ in range(300):
        con.execute("INSERT INTO measurements (data) VALUES (randomblob(4000))")
    dest = folder / "theirs.db"
    shutil.copyfile(src, dest)
    shutil.copyfile(folder / "src.db-journal", folder / "theirs.db-journal")
    con.execute("ROLLBACK")
    con.close()
    assert (folder / "theirs.db-journal").stat().st_size > 0
    assert dest.stat().st_size > 100_000
    return dest


def foreign_with_wal(folder: Path, checkpointed_first: bool) -> Path:
    """Another program's WAL database whose last writes were never checkpointed (a crash)."""
    src = folder / "src.db"
    con = sqlite3.connect(src, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    if checkpointed_first:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT)")
    for i in range(200):
        con.execute("INSERT INTO notes (body) VALUES (?)", (f"note {i} " * 20,))
    dest = folder / "theirs.db"
    shutil.copyfile(src, dest)
    shutil.copyfile(folder / "src.db-wal", folder / "theirs.db-wal")
    con.close()
    assert (folder / "theirs.db-wal").stat().st_size > 0
    return dest


@pytest.mark.parametrize("kind", ["hot journal", "wal only", "wal after checkpoint"])
async def test_a_refused_foreign_database_keeps_its_bytes(tmp_path: Path, kind: str) -> None:
    if kind == "hot journal":
        path = foreign_with_hot_journal(tmp_path)
    else:
        path = foreign_with_wal(tmp_path, checkpointed_first=kind == "wal after checkpoint")
    before = digest(path)
    names = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreOpenError, match="another program") as caught:
        await SqliteStore.open(path)
    assert "\n" not in str(caught.value)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == names  # no -shm, nothing new


async def test_komabot_database_left_by_a_crash_opens_with_its_data(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    ch = await store.create_challenge(CHAT, "console:a", None, "shogi", "random", None, 1, 9e9)
    crashed = tmp_path / "crashed.sqlite3"  # the files as a crash leaves them: WAL not merged
    shutil.copyfile(path, crashed)
    shutil.copyfile(tmp_path / "k.sqlite3-wal", tmp_path / "crashed.sqlite3-wal")
    await store.close()
    again = await SqliteStore.open(crashed)
    try:
        assert await again.get_challenge(ch.id) is not None
    finally:
        await again.close()


# --- damaged files -----------------------------------------------------------------------


async def build_real_database(path: Path) -> None:
    h = await Harness(path, FakeClock(), Config()).open()
    try:
        game = await h.start_game()
        await h.play(game, "7g7f", "3c3d", "2g2f")
        await h.start_game(CAROL, DAVE, "wa")
        for i in range(12):
            a, b = person(f"p{i}a"), person(f"p{i}b")
            await h.say(a, "challenge", "shogi", "sente", "1d", target=b)
            await h.say(b, "accept")
            if i % 3 == 0:
                await h.say(a, "resign")
        for i in range(6):
            await h.say(person(f"q{i}"), "challenge", "wa")
        await h.say(person("fred"), "settings", "notation", "japanese")
        await h.say(ALICE, "settings", "reminders", "dm")
    finally:
        await h.close()


ORDINARY = [
    (ALICE, "help", ()),
    (ALICE, "games", ()),
    (ALICE, "board", ()),
    (CAROL, "board", ()),
    (BOB, "move", ("8c8d",)),
    (DAVE, "games", ()),
    (person("gina"), "accept", ()),
    (person("q1"), "cancel", ()),
    (person("hal"), "challenge", ()),
    (person("fred"), "settings", ()),
    (ALICE, "export", ()),
]


async def serves_ordinary_requests(path: Path) -> list[str]:
    """Problems met answering ordinary requests on the database at ``path`` (none: fine)."""
    h = await Harness(path, FakeClock(), Config()).open()
    problems = []
    try:
        for user, command, args in ORDINARY:
            reply: Reply = await h.say(user, command, *args)
            if reply.text.startswith("Something went wrong"):
                problems.append(f"/{command} failed")
        await h.clock.advance(10 * 86400)
        await h.service.fire_due()
    except Exception as exc:  # fire_due may raise; requests never do
        problems.append(f"{type(exc).__name__}: {exc}")
    finally:
        await h.close()
    return problems


async def test_randomly_damaged_databases_open_and_serve_or_are_refused_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    base = tmp_path / "base.sqlite3"
    await build_real_database(base)
    data = base.read_bytes()
    failures = []
    refused = 0
    for seed in range(200):
        rng = random.Random(seed)
        damaged = bytearray(data)
        offset = rng.randrange(len(damaged))
        damaged[offset] = (damaged[offset] + rng.randrange(1, 256)) % 256
        path = tmp_path / f"d{seed}.sqlite3"
        path.write_bytes(bytes(damaged))
        caplog.clear()
        try:
            store = await SqliteStore.open(path)
        except StoreOpenError as exc:
            refused += 1
            if "\n" in str(exc):
                failures.append(f"seed {seed} @{offset}: refusal of several lines")
            continue
        except Exception as exc:
            failures.append(f"seed {seed} @{offset}: open raised {type(exc).__name__}: {exc}")
            continue
        await store.close()
        with caplog.at_level(logging.ERROR):
            problems = await serves_ordinary_requests(path)
        problems += [  # a damaged game record gets its own answer: not a failure here
            r.getMessage()
            for r in caplog.records
            if r.exc_info and not isinstance(r.exc_info[1], DamagedRecordError)
        ]
        if problems:
            failures.append(f"seed {seed} @{offset}: {problems[:2]}")
        for f in tmp_path.glob(f"d{seed}.sqlite3*"):
            f.unlink()
    assert not failures, "\n".join(failures)
    assert refused > 0  # the test does damage what matters


async def test_a_damaged_database_is_refused_pointing_at_backups(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    await build_real_database(path)
    con = sqlite3.connect(path)
    con.execute("UPDATE games SET status = 'activ' WHERE id = 1")  # as a flipped byte does
    con.commit()
    con.close()
    with pytest.raises(StoreOpenError) as caught:
        await SqliteStore.open(path)
    message = str(caught.value)
    assert "damaged" in message and ".recover" in message and "backup" in message
    assert "\n" not in message


async def test_a_damaged_notice_is_refused_at_start_too(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    await build_real_database(path)
    con = sqlite3.connect(path)
    con.execute(
        "INSERT INTO outbox (kind, platform, chat_id, payload, dedupe_key, created_at, state, "
        "next_attempt_at) VALUES ('reminder', 'console', 'main', '{}', 'k', 1.0, 'pendinf', 1.0)"
    )  # a state no version of Komabot writes, as a flipped byte leaves it
    con.commit()
    con.close()
    with pytest.raises(StoreOpenError) as caught:
        await SqliteStore.open(path)
    assert "outbox.state" in str(caught.value) and ".recover" in str(caught.value)
