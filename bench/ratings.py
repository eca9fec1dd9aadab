"""/leaderboard of a community with many rated players, against a reference in the same run.

A database holds ``--players`` settled ratings (and as many provisional ones, not on the board)
in one community (a Discord server) and ``--others`` in other communities, with the players'
names.  Timed, ``--runs`` times each, p50 and p99:

- ``/leaderboard shogi`` through ``GameService.handle`` as the console asks it (text), by a
  player in the middle of the board (their place is counted);
- the same with the page drawn as an image, as Discord and Telegram get it;
- the store's three queries alone (the page, the board's size, the asker's place);
- the reference: the same page read without the index (``NOT INDEXED``: a scan of the table
  sorted in a temporary tree), what the query would cost without ``ratings_board``.

    .venv/bin/python bench/ratings.py [--players 10000] [--others 50000] [--runs 300]

Target: the leaderboard answers in under 50 ms (p99) with 10,000 rated players.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.config import Config  # noqa: E402
from bot.core.api import ChatKey, Request, User  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from bot.store.sql import _BOARD  # noqa: E402
from bot.store.sql import RATING_COLUMNS as _RATING_COLUMNS  # noqa: E402

SERVER = "424242"
CHAT = ChatKey("discord", "1001", community=SERVER)


def fill(path: Path, players: int, others: int) -> None:
    """The ratings and users of the benchmark, in one transaction."""
    rng = random.Random(5)
    con = sqlite3.connect(path)
    with con:
        rows, users = [], []
        for i in range(players + others):
            key = f"discord:{i}"
            community = SERVER if i < players else str(i % 97)
            users.append((key, "discord", str(i), f"Player {i}", f"player {i}"))
            settled = rng.uniform(45, 109)
            rows.append(("discord", community, key, "shogi", rng.gauss(1500, 300), settled))
            rows.append(("discord", community, f"discord:new{i}", "shogi", 1900.0, 250.0))
        con.executemany(
            "INSERT INTO users (key, platform, user_id, name, name_lower) VALUES (?, ?, ?, ?, ?)",
            users,
        )
        con.executemany(
            f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0.06, 30, 15, 14, "
            "1, 1700000000)",
            rows,
        )
    con.execute("ANALYZE")
    con.close()


async def timed(runs: int, fn: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """p50 and p99 of ``fn`` in milliseconds, after a few warm-up calls."""
    for _ in range(5):
        await fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - start) * 1000)
    cuts = statistics.quantiles(times, n=100)
    return statistics.median(times), cuts[98]


def middle_player(path: Path, players: int) -> User:
    """The player at the middle place of the board (their place is the slowest to count)."""
    con = sqlite3.connect(path)
    try:
        (key,) = con.execute(
            f"SELECT player FROM ratings WHERE {_BOARD} ORDER BY rating DESC LIMIT 1 OFFSET ?",
            ("discord", SERVER, "shogi", players // 2),
        ).fetchone()
    finally:
        con.close()
    return User("discord", key.partition(":")[2], "Asker")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ratings.sqlite3"
        await (await SqliteStore.open(path)).close()
        fill(path, args.players, args.others)
        asker = middle_player(path, args.players)
        store = await SqliteStore.open(path)
        text = GameService(store, Config(), render_images=False)
        drawn = GameService(store, Config(), render_images=True)
        request = Request(CHAT, asker, "leaderboard", ("shogi",))
        reply = await text.handle(request)
        assert "Your place:" in reply.text and "1." in reply.text, reply.text
        assert (await drawn.handle(request)).image is not None
        mine = await store.rating("discord", SERVER, asker.key, "shogi")
        assert mine is not None

        async def queries() -> None:
            await store.leaderboard("discord", SERVER, "shogi")
            await store.leaderboard_size("discord", SERVER, "shogi")
            await store.leaderboard_place("discord", SERVER, mine)

        async def reference() -> None:
            await store._all(
                f"SELECT {_RATING_COLUMNS} FROM ratings NOT INDEXED WHERE {_BOARD} "
                "ORDER BY rating DESC, player LIMIT 10",
                ("discord", SERVER, "shogi"),
            )

        total = args.players * 2 + args.others * 2
        print(f"{args.players} settled players in the server, {total} rating rows in all")
        for label, fn in (
            ("/leaderboard via GameService.handle (text)", lambda: text.handle(request)),
            ("/leaderboard via GameService.handle (image)", lambda: drawn.handle(request)),
            ("store queries alone (page, size, place)", queries),
            ("reference: the page without the index", reference),
        ):
            p50, p99 = await timed(args.runs, fn)
            print(f"{label:48} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms")
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
