"""Store at scale: how the file grows with games and moves, and how long a large file takes to
open.  Both against a reference measured in the same run.

growth: ``--games`` games of ``--plies`` moves each played through ``SqliteStore`` alone (no
service): a challenge, its acceptance, then one ``update_game`` per move replacing the game's
deadline and reminders as the service does (three timers), the last one finishing the game.
Played twice, on two files: this store (a timer row is deleted when it fires or is replaced)
and a reference that keeps every replaced timer, as versions before migration 8 did (a trigger
copies each deleted timer row into a table with the same columns and indexes).  Prints bytes
per game and per move, and both projected to 1,000,000 moves.

setup: ``--setup`` games challenged and accepted and left running (the pending timers pile up,
as with many games at once), against the same without the index migration 8 added for a
challenge's timers (``--setup 0`` skips it).

startup: a database of about ``--size-mb`` MB of finished games (long move lists, one
``executemany`` in one transaction) with ``--active`` active games, their timers, players and
chat settings beside them; times ``SqliteStore.open`` on it against the open of a small file
holding the same active games, warm and cold (the file dropped from the OS page cache first,
as after a reboot), and ``PRAGMA quick_check`` on it (what start-up ran on a large file
before), then how long the background check takes.

migration: the one-off upgrade of a file of the same size at schema 7 holding the fired timers
of ``--migrate-moves`` moves (older versions kept them; migration 8 deletes them), cold.

    .venv/bin/python bench/store.py [--setup 3000] [--games 200] [--plies 80]
                                     [--size-mb 1024] [--active 1000]
                                     [--migrate-moves 1000000] [--skip-growth]
                                     [--skip-startup] [--skip-migration]

Targets: start-up under 1 s on a 1 GB file; the file grows per game, not per move (timers
leave nothing behind).  The big file is written to a temporary folder and removed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.store import (  # noqa: E402
    ChatKey,
    GameRow,
    GameStatus,
    NewTimer,
    SqliteStore,
    TimerKind,
)

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
DAY = 86400
REMINDERS = (6 * 3600, 3600)
MOVES = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d")

KEEP_TIMERS = """
CREATE TABLE kept_timers AS SELECT * FROM timers WHERE 0;
CREATE INDEX kept_pending ON kept_timers (fired_at, due_at);
CREATE INDEX kept_by_game ON kept_timers (game_id, fired_at);
CREATE INDEX kept_by_challenge ON kept_timers (challenge_id, fired_at);
CREATE TRIGGER keep_timers AFTER DELETE ON timers BEGIN
    INSERT INTO kept_timers VALUES (OLD.id, OLD.kind, OLD.due_at, OLD.game_id,
        OLD.challenge_id, OLD.game_version, OLD.offset_s, -1, OLD.attempts,
        OLD.next_attempt_at);
END
"""


def mb(n: float) -> str:
    return f"{n / 1e6:,.1f} MB"


def timers_for(game: GameRow, now: float) -> list[NewTimer]:
    deadline = now + DAY
    timers = [NewTimer(TimerKind.DEADLINE, deadline, game.id, None, game.version + 1)]
    for offset in REMINDERS:
        timers.append(
            NewTimer(TimerKind.REMINDER, deadline - offset, game.id, None, game.version + 1, offset)
        )
    return timers


async def play(path: Path, games: int, plies: int, keep: bool) -> tuple[int, int, float]:
    """Play the games; return the file size, its bytes in use and the seconds taken."""
    store = await SqliteStore.open(path, sync="normal")
    if keep:
        await store._db.executescript(KEEP_TIMERS)
    chat = ChatKey("console", "bench")
    now = 1_750_000_000.0
    started = time.perf_counter()
    for g in range(games):
        sente, gote = f"console:s{g}", f"console:g{g}"
        ch = await store.create_challenge(
            chat, sente, gote, "shogi", "sente", DAY, now, now + 3 * DAY
        )
        game = GameRow(
            id=0, chat=chat, variant="shogi", start_sfen=START, moves=(), version=1,
            sente=sente, gote=gote, status=GameStatus.ACTIVE, termination=None, winner=None,
            time_per_move=DAY, deadline=now + DAY, draw_offer=None, takeback_offer=None,
            created_at=now, updated_at=now, challenge_id=ch.id,
        )  # fmt: skip
        game = await store.accept_challenge(ch.id, game, timers_for(game, now))
        for ply in range(plies):
            now += 60
            last = ply == plies - 1
            moved = replace(
                game,
                moves=(*game.moves, MOVES[ply % len(MOVES)]),
                deadline=None if last else now + DAY,
                updated_at=now,
                status=GameStatus.FINISHED if last else GameStatus.ACTIVE,
                termination="resign" if last else None,
                winner=0 if last else None,
                finished_at=now if last else None,
            )
            game = await store.update_game(moved, [] if last else timers_for(game, now))
    seconds = time.perf_counter() - started
    db = store._db
    await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = (await (await db.execute("PRAGMA page_size")).fetchone())[0]  # type: ignore[index]
    free = (await (await db.execute("PRAGMA freelist_count")).fetchone())[0]  # type: ignore[index]
    await store.close()
    size = path.stat().st_size
    return size, size - free * page, seconds


async def growth(args: argparse.Namespace, folder: Path) -> None:
    """Each store at ``--plies`` and at twice as many moves per game: the difference is what a
    move costs, the rest what a game costs."""
    games, plies = args.games, args.plies
    print(f"growth: {games} games of {plies} and of {2 * plies} moves through SqliteStore")
    fits = {}
    for label, keep in (("timers kept (reference)", True), ("this store", False)):
        used = {}
        speed = 0.0
        _, empty, _ = await play(folder / f"g-{keep}-empty.sqlite3", 0, 0, keep)
        for n in (plies, 2 * plies):
            _, used[n], seconds = await play(folder / f"g-{keep}-{n}.sqlite3", games, n, keep)
            speed = games * n / seconds
        per_move = (used[2 * plies] - used[plies]) / (games * plies)
        per_game = (used[plies] - empty) / games  # the schema apart
        million = 1e6 / plies * per_game  # games of --plies moves
        fits[keep] = million
        print(
            f"  {label:<24} {per_game:>8,.0f} B per game of {plies};  {per_move:>6,.1f} B per "
            f"further move;  1M moves ({1e6 / plies:,.0f} games): {mb(million):>9};  "
            f"{speed:,.0f} moves/s"
        )
    print(f"  this store / reference at 1M moves: {fits[False] / fits[True]:.2f}")


async def setup(args: argparse.Namespace, folder: Path) -> None:
    """``--setup`` games challenged and accepted, all left running (so the pending timers pile
    up), with and without the index that finds a challenge's timers (migration 8)."""
    n = args.setup
    print(f"setup: {n:,} games challenged and accepted, all left running")
    took = {}
    for label, drop in (("no timers_by_challenge (reference)", True), ("this store", False)):
        store = await SqliteStore.open(folder / f"setup-{drop}.sqlite3", sync="normal")
        if drop:
            await store._db.execute("DROP INDEX timers_by_challenge")
        now = 1_750_000_000.0
        chat = ChatKey("console", "bench")
        started = time.perf_counter()
        tenth = []
        for g in range(n):
            sente, gote = f"console:s{g}", f"console:g{g}"
            ch = await store.create_challenge(
                ChatKey("console", f"c{g}"), sente, gote, "shogi", "sente", DAY, now, now + DAY
            )
            game = GameRow(
                id=0, chat=chat, variant="shogi", start_sfen=START, moves=(), version=1,
                sente=sente, gote=gote, status=GameStatus.ACTIVE, termination=None,
                winner=None, time_per_move=DAY, deadline=now + DAY, draw_offer=None,
                takeback_offer=None, created_at=now, updated_at=now, challenge_id=ch.id,
            )  # fmt: skip
            await store.accept_challenge(ch.id, replace(game, chat=ch.chat), timers_for(game, now))
            if g % max(1, n // 10) == 0:
                tenth.append(time.perf_counter())
        took[drop] = time.perf_counter() - started
        await store.close()
        first, last = tenth[1] - tenth[0], tenth[-1] - tenth[-2]
        print(
            f"  {label:<36} {took[drop]:6.1f} s  {n / took[drop]:6,.0f} games/s  "
            f"(last tenth {last / first:.1f}x the first)"
        )
    print(f"  this store / reference: {took[False] / took[True]:.2f} of the time")


def build_large(path: Path, size_mb: int, active: int) -> int:
    """Fill ``path`` (already Komabot's, at the latest version) with finished games to about
    ``size_mb`` MB, and ``active`` active games with their timers, players and settings."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA synchronous=OFF")
    record = " ".join(MOVES[i % len(MOVES)] for i in range(800))  # ~4 KB of moves
    per_row = len(record) + 200
    count = size_mb * 1_000_000 // per_row
    now = 1_750_000_000.0
    con.execute("BEGIN")
    con.executemany(
        "INSERT INTO games (platform, chat_id, variant, start_sfen, moves, version, sente, "
        "gote, status, termination, winner, created_at, updated_at, finished_at) VALUES "
        "('console', ?, 'shogi', ?, ?, 801, ?, ?, 'finished', 'resign', 0, ?, ?, ?)",
        (
            (f"chat{i % 5000}", START, record, f"console:u{i % 20000}",
             f"console:u{(i + 7) % 20000}", now, now, now)
            for i in range(count)
        ),
    )  # fmt: skip
    for g in range(active):
        sente, gote, chat = f"console:a{g}", f"console:b{g}", f"live{g % 500}"
        cur = con.execute(
            "INSERT INTO games (platform, chat_id, variant, start_sfen, moves, version, sente, "
            "gote, status, time_per_move, deadline, created_at, updated_at) VALUES "
            "('console', ?, 'shogi', ?, ?, 41, ?, ?, 'active', ?, ?, ?, ?)",
            (chat, START, record[:200], sente, gote, DAY, now + DAY, now, now),
        )
        gid = cur.lastrowid
        con.executemany(
            "INSERT INTO timers (kind, due_at, game_id, game_version, offset_s) "
            "VALUES (?, ?, ?, 41, ?)",
            [("deadline", now + DAY, gid, 0)]
            + [("reminder", now + DAY - o, gid, o) for o in REMINDERS],
        )
        con.executemany(
            "INSERT OR IGNORE INTO users (key, platform, user_id, name, name_lower) "
            "VALUES (?, 'console', ?, ?, ?)",
            [(k, k[8:], k[8:], k[8:]) for k in (sente, gote)],
        )
        con.execute(
            "INSERT OR IGNORE INTO chat_settings (platform, chat_id, notation, piece_style, "
            "perspective) VALUES ('console', ?, 'western', 'kanji', 'mover')",
            (chat,),
        )
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return count


def evict(path: Path) -> bool:
    """Drop the file (and its ``-wal``/``-shm``) from the OS page cache, as after a reboot:
    ``posix_fadvise(DONTNEED)`` after an fsync, which needs no privileges.  False where the
    platform cannot (then the "cold" figure is a warm one, and says so)."""
    if not hasattr(os, "posix_fadvise"):
        return False
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.exists():
            fd = os.open(file, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)
    return True


async def time_open(path: Path, runs: int = 3, *, cold: bool = False) -> float:
    """Median seconds of ``SqliteStore.open`` (and close); ``cold`` evicts the file first."""
    times = []
    for _ in range(runs):
        if cold:
            evict(path)
        started = time.perf_counter()
        store = await SqliteStore.open(path)
        times.append(time.perf_counter() - started)
        await store.close()
    return statistics.median(times)


async def startup(args: argparse.Namespace, folder: Path) -> None:
    big, small = folder / "big.sqlite3", folder / "small.sqlite3"
    for path in (big, small):
        await (await SqliteStore.open(path)).close()
    started = time.perf_counter()
    count = build_large(big, args.size_mb, args.active)
    built = time.perf_counter() - started
    build_large(small, 0, args.active)
    size = big.stat().st_size
    print(
        f"startup: {mb(size)} file ({count:,} finished games, {args.active} active) built in "
        f"{built:.1f} s; small file {mb(small.stat().st_size)}"
    )
    ref = await time_open(small)
    new = await time_open(big)
    cold = await time_open(big, cold=True)
    cold_ref = await time_open(small, cold=True)
    con = sqlite3.connect(big)
    started = time.perf_counter()
    con.execute("PRAGMA quick_check").fetchall()
    quick = time.perf_counter() - started
    con.close()
    started = time.perf_counter()
    store = await SqliteStore.open(big)
    opened = time.perf_counter() - started
    found = await store.background_check()
    checked = time.perf_counter() - started
    await store.close()
    print(f"  open, small file (reference)   {ref * 1000:8.0f} ms")
    print(f"  open, {mb(size):>10} file        {new * 1000:8.0f} ms   ({new / ref:.1f}x the small)")
    how = "page cache dropped" if evict(small) else "could not drop the page cache: warm"
    print(
        f"  open, cold ({how})  {cold * 1000:5.0f} ms   (small file cold: {cold_ref * 1000:.0f} ms)"
    )
    print(f"  PRAGMA quick_check alone       {quick * 1000:8.0f} ms   (on start-up's path before)")
    print(
        f"  background check done after    {checked * 1000:8.0f} ms   (open took "
        f"{opened * 1000:.0f} ms; found: {found or 'nothing wrong'})"
    )


async def migration(args: argparse.Namespace, folder: Path) -> None:
    """The one-off upgrade to schema 8 of a file written by an older version: about
    ``--size-mb`` MB of games plus the fired timers of ``--migrate-moves`` moves (three per
    move, as older versions kept them), which migration 8 deletes before adding its indexes."""
    path = folder / "old.sqlite3"
    await (await SqliteStore.open(path, target_version=7)).close()
    build_large(path, args.size_mb, args.active)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA synchronous=OFF")
    now = 1_700_000_000.0
    con.execute("BEGIN")
    con.executemany(
        "INSERT INTO timers (kind, due_at, game_id, game_version, offset_s, fired_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            (kind, now + i, 1 + i // 80, i % 80, offset, now + i)
            for i in range(args.migrate_moves)
            for kind, offset in (("deadline", 0), ("reminder", 21600), ("reminder", 3600))
        ),
    )
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    size = path.stat().st_size
    evict(path)
    started = time.perf_counter()
    store = await SqliteStore.open(path)
    took = time.perf_counter() - started
    version = await store.schema_version()
    await store.close()
    print(
        f"migration to 8: {mb(size)} file at schema 7 with the fired timers of "
        f"{args.migrate_moves:,} moves, cold: open and upgrade (to {version}) took "
        f"{took:.1f} s once; the next open {await time_open(path) * 1000:.0f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--active", type=int, default=1000)
    parser.add_argument("--setup", type=int, default=3000)
    parser.add_argument("--skip-growth", action="store_true")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--migrate-moves", type=int, default=1_000_000)
    parser.add_argument("--skip-migration", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="komabot-bench-store-") as name:
        folder = Path(name)
        if args.setup:
            await setup(args, folder)
        if not args.skip_growth:
            await growth(args, folder)
        if not args.skip_startup:
            await startup(args, folder)
        if not args.skip_migration:
            await migration(args, folder)


if __name__ == "__main__":
    asyncio.run(main())
