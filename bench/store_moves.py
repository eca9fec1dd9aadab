"""A move's store calls alone, as the service makes them, by the two ways SQLite may write them.

The games of ``bench/service.py`` (``bench/service_games.py``) in one SQLite file; then each
active game's next ``--rounds`` moves, ``--concurrency`` requests in flight for different games,
each move the store calls the service makes for it: ``get_settings``, ``active_game``, then
``update_game`` with the mover's deadline timer (no rules, no replies, no images).  Played twice
on fresh copies of the file, in the same run:

- ``statements``: the write transaction statement by statement through aiosqlite (each a trip
  to its thread and a wake-up of the event loop), one commit per move, as before;
- ``group commit``: the whole transaction in one trip to that thread, moves waiting together
  in one commit (``bot/store/group_commit.py``).

The reference is the floor for one commit per move: plain ``sqlite3`` in this thread doing the
same reads and writes, one transaction per move, no event loop.  Prints moves/s, p50/p99, the
CPU time a move of this process (all its threads), moves per commit, and the ratios to the
reference.  CPU times hold on a loaded machine; wall-clock figures do not.

    .venv/bin/python bench/store_moves.py [--games 1000] [--rounds 4] [--concurrency 1 2 4 8]
                                          [--sync full|normal]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.service_games import build_database, plan  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from bot.store.models import ChatKey, NewTimer, TimerKind  # noqa: E402
from bot.store.sql import GAME_COLUMNS  # noqa: E402

COLUMNS = GAME_COLUMNS.split(", ")
UPDATE = (
    f"UPDATE games SET {', '.join(f'{c} = ?' for c in COLUMNS[1:])} WHERE id = ? AND version = ?"
)
"""The whole row written, as ``update_game`` does."""


@dataclass(frozen=True)
class Run:
    moves: int
    seconds: float
    cpu: float
    latencies: list[float]
    commits: int


async def play(db: Path, args: argparse.Namespace, concurrency: int, *, thread: bool) -> Run:
    store = await SqliteStore.open(db, sync=args.sync)
    writer = store.writer
    assert writer is not None
    if not thread:
        store.writer = None  # update_game goes statement by statement through aiosqlite
    latencies: list[float] = []

    async def worker(k: int) -> None:
        for r in range(args.rounds):
            who = "a" if r % 2 == 0 else "b"
            for i in range(k, args.active, concurrency):
                start = time.perf_counter()
                chat = ChatKey("console", f"room{i}")
                await store.get_settings(chat)
                game = await store.active_game(chat, f"console:{who}{i}")
                assert game is not None
                now = time.time()
                new = replace(
                    game, moves=(*game.moves, "7g7f"), updated_at=now, deadline=now + 86400
                )
                timer = NewTimer(TimerKind.DEADLINE, now + 86400, game.id, None, game.version + 1)
                await store.update_game(new, [timer])
                latencies.append(time.perf_counter() - start)

    before = writer.transactions
    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker(k) for k in range(concurrency)))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    commits = writer.transactions - before if thread else len(latencies)
    store.writer = writer
    await store.close()
    return Run(len(latencies), seconds, cpu, latencies, commits)


def reference(db: Path, args: argparse.Namespace) -> Run:
    """The same reads and writes by plain sqlite3, one transaction per move."""
    con = sqlite3.connect(db, isolation_level=None)
    con.execute(f"PRAGMA synchronous={'FULL' if args.sync == 'full' else 'NORMAL'}")
    latencies: list[float] = []
    cpu0, t0 = time.process_time(), time.perf_counter()
    for r in range(args.rounds):
        who = "a" if r % 2 == 0 else "b"
        for i in range(args.active):
            start = time.perf_counter()
            con.execute(
                "SELECT notation, piece_style, perspective, language, bare_moves, threads, "
                "notation_chosen FROM chat_settings WHERE platform = ? AND chat_id = ?",
                ("console", f"room{i}"),
            ).fetchone()
            row = con.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE platform = ? AND chat_id = ? "
                "AND status = 'active' AND (sente = ? OR gote = ?) ORDER BY id DESC LIMIT 1",
                ("console", f"room{i}", f"console:{who}{i}", f"console:{who}{i}"),
            ).fetchone()
            now = time.time()
            con.execute("BEGIN IMMEDIATE")
            values = dict(zip(COLUMNS, row, strict=True))
            values.update(moves=row[6] + " 7g7f", version=row[7] + 1, updated_at=now)
            values.update(deadline=now + 86400)
            con.execute(UPDATE, (*list(values.values())[1:], row[0], row[7]))
            con.execute("DELETE FROM timers WHERE game_id = ?", (row[0],))
            con.execute(
                "INSERT INTO timers (kind, due_at, game_id, challenge_id, game_version, offset_s) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                ("deadline", now + 86400, row[0], None, row[7] + 1, 0),
            )
            con.execute("COMMIT")
            latencies.append(time.perf_counter() - start)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    con.close()
    return Run(len(latencies), seconds, cpu, latencies, len(latencies))


def report(name: str, run: Run, ref: Run) -> str:
    q = statistics.quantiles(run.latencies, n=100)
    rate, ref_rate = run.moves / run.seconds, ref.moves / ref.seconds
    cpu, ref_cpu = run.cpu / run.moves, ref.cpu / ref.moves
    return (
        f"{name}: {rate:.0f} moves/s ({rate / ref_rate:.2f} of the reference), p50 "
        f"{q[49] * 1000:.2f} ms, p99 {q[98] * 1000:.2f} ms; CPU a move {cpu * 1e6:.0f} us "
        f"({cpu / ref_cpu:.1f}x the reference's); "
        f"{run.moves / max(1, run.commits):.2f} moves a commit"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games in the database")
    parser.add_argument("--active", type=int, default=None, help="games in progress (all)")
    parser.add_argument("--rounds", type=int, default=4, help="moves per active game")
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 4, 8])
    args = parser.parse_args()
    args.active = min(args.active or args.games, args.games)
    games = plan(args.active, args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template.sqlite3"
        build_database(template, args.games, games)
        copy = Path(tmp) / "run.sqlite3"
        shutil.copy(template, copy)
        ref = reference(copy, args)
        print(
            f"{args.games} games ({args.active} active), {args.rounds} moves each, "
            f"sync={args.sync}; reference (plain sqlite3, one commit a move): "
            f"{ref.moves / ref.seconds:.0f} moves/s, CPU a move {ref.cpu / ref.moves * 1e6:.0f} us"
        )
        for concurrency in args.concurrency:
            for thread in (False, True):
                copy.unlink()
                for side in ("-wal", "-shm"):
                    copy.with_name(copy.name + side).unlink(missing_ok=True)
                shutil.copy(template, copy)
                run = asyncio.run(play(copy, args, concurrency, thread=thread))
                name = "group commit" if thread else "statements  "
                print(f"{concurrency} in flight, {name} " + report("", run, ref).lstrip(": "))


if __name__ == "__main__":
    main()
