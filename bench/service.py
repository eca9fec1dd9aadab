"""Game service speed: moves through the full path, against the bare rules core, same run.

``--games`` games (half Standard Shogi, half Wa Shogi) in one SQLite database, ``--active`` of
them in progress (the rest finished), each with ``--plies`` moves already played, built by one
bulk insert in one transaction.  Then ``--rounds`` moves per active game go through
``GameService.handle`` -- read the move (USI or Western text), check it, commit it, draw the
board PNG (in a worker thread), build the reply -- with ``--concurrency`` requests in flight
for different games, the games played in turn (so with more active games than the position
cache holds, every move is a cache miss), as in a bot serving many chats.  The service starts
cold: the first move of every game rebuilds its position from the stored moves.  Prints moves
per second, per-move p50/p99 latency, and the rules core alone (``parse_usi`` + ``push`` +
``outcome``) on the very same moves, with rendering on and off (each on a fresh copy of the
database and a fresh service) unless ``--no-render`` or ``--render-only`` picks one.

    .venv/bin/python bench/service.py [--games 1000] [--active N] [--plies 80] [--rounds 4]
                                       [--sync full|normal] [--concurrency 2]
                                       [--no-render | --render-only]
                                       [--db postgresql://...]  (then bench/scale.py)

Targets on the 2-core build machine (1,000 active games, two requests in flight): at least
250 moves per second and p99 under 15 ms; at 100,000 games (10,000 active) no worse than half.
They were set when the reference did 10,000 moves/s; the machine's speed varies from day to
day, so the last line also gives the figures scaled to that speed (see ``ISSUE_REFERENCE``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and bench/render.py would hide the
# render package: look in the repository root instead.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.app import settle_heap  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.core.api import ChatKey, Request, User  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from bot.store.database import open_store  # noqa: E402
from render import warm as warm_render  # noqa: E402
from rules import Position, load_variant  # noqa: E402
from rules.notation import format_move  # noqa: E402

TEMPLATES = 64
"""Distinct random games per variant; the games of the database take them in turn."""


class Line:
    """One random game: ``plies`` moves of history, then ``rounds`` moves to play, typed."""

    def __init__(self, variant: str, plies: int, rounds: int, rng: random.Random) -> None:
        self.variant = variant
        while True:
            pos = Position.start(load_variant(variant))
            usis: list[str] = []
            typed: list[str] = []
            while len(usis) < plies + rounds:
                move = rng.choice(pos.legal_moves())
                usi = pos.usi(move)
                style = "western" if rng.random() < 0.5 else "usi"
                typed.append(usi if style == "usi" else format_move(pos, move, style))
                usis.append(usi)
                pos.push(move)
                if pos.outcome() is not None:
                    break  # the game ended: draw another
            else:
                break
        self.history = tuple(usis[:plies])
        self.to_play = usis[plies:]
        self.typed = typed[plies:]
        self.start = Position.start(load_variant(variant))
        for usi in self.history:  # the reference starts where the games stand
            self.start.make_unchecked(self.start.parse_usi(usi))


def plan(plies: int, rounds: int) -> list[Line]:
    rng = random.Random(2026)
    return [Line(v, plies, rounds, rng) for _ in range(TEMPLATES) for v in ("shogi", "wa")]


def build_database(path: Path, n_games: int, n_active: int, lines: list[Line]) -> None:
    """Create the schema through the store, then every user and game in one transaction."""

    async def create() -> None:
        await (await SqliteStore.open(path, sync="normal")).close()

    asyncio.run(create())
    now = time.time()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    users = []
    games = []
    for i in range(n_games):
        line = lines[i % len(lines)]
        a, b = f"console:a{i}", f"console:b{i}"
        users += [
            (a, "console", f"a{i}", f"A{i}", f"a{i}"),
            (b, "console", f"b{i}", f"B{i}", f"b{i}"),
        ]
        active = i < n_active
        games.append(
            (
                "console",
                f"room{i}",
                None,
                line.variant,
                load_variant(line.variant).start_sfen,
                " ".join(line.history),
                len(line.history) + 1,
                a if len(line.history) % 2 == 0 else b,  # whoever moves next is a{i}
                b if len(line.history) % 2 == 0 else a,
                "active" if active else "finished",
                None if active else "resignation",
                None if active else 0,
                86400,
                now + 86400 if active else None,
                None,
                None,
                now,
                now,
                None if active else now,
                None,
            )
        )
    db.executemany(
        "INSERT INTO users (key, platform, user_id, name, name_lower) VALUES (?, ?, ?, ?, ?)", users
    )
    db.executemany(
        "INSERT INTO games (platform, chat_id, thread_id, variant, start_sfen, moves, version, "
        "sente, gote, status, termination, winner, time_per_move, deadline, draw_offer, "
        "takeback_offer, created_at, updated_at, finished_at, challenge_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        games,
    )
    db.execute("COMMIT")
    db.close()


def reference(lines: list[Line], n_active: int, rounds: int) -> float:
    """Seconds the rules core alone needs for the same moves (parse, validate, push, outcome)."""
    positions = [
        (lines[i % len(lines)].start.copy(), lines[i % len(lines)]) for i in range(n_active)
    ]
    start = time.perf_counter()
    for r in range(rounds):
        for pos, line in positions:
            pos.push(pos.parse_usi(line.to_play[r]))
            pos.outcome()
    return time.perf_counter() - start


async def play(
    db: Path | str,
    args: argparse.Namespace,
    lines: list[Line],
    render: bool,
    *,
    share: tuple[int, int] = (0, 1),
    start_at: float = 0.0,
) -> tuple[list[float], float, int]:
    """Every active game's next ``rounds`` moves; (latencies, seconds, moves refused).
    ``db``: a SQLite file or a PostgreSQL URL; ``share`` (k, n): only the games i with
    i % n == k (one of n processes, see bench/scale.py), starting at wall time ``start_at``."""
    config = Config(database_url=str(db), db_sync=args.sync)
    store = await open_store(config)
    service = GameService(store, config, rng=random.Random(1), render_images=render)
    settle_heap()  # as ``komabot run`` does at start
    if render:  # as ``komabot run`` does in the background in its first seconds
        warm_render()
    assert await store.count_active_games() == args.active
    latencies: list[float] = []
    refused = 0

    async def worker(k: int) -> None:
        """Plays the moves of every ``concurrency``-th game, in order, one at a time."""
        nonlocal refused
        part, parts = share
        mine = range(part + k * parts, args.active, args.concurrency * parts)
        for r in range(args.rounds):
            user = "a" if r % 2 == 0 else "b"
            for i in mine:
                chat = ChatKey("console", f"room{i}")
                who = User("console", f"{user}{i}", f"{user.upper()}{i}")
                text = lines[i % len(lines)].typed[r]
                start = time.perf_counter()
                reply = await service.handle(Request(chat, who, "move", (text,)))
                latencies.append(time.perf_counter() - start)
                if " played " not in reply.text:
                    refused += 1

    await asyncio.sleep(max(0.0, start_at - time.time()))
    t0 = time.perf_counter()
    await asyncio.gather(*(worker(k) for k in range(args.concurrency)))
    total = time.perf_counter() - t0
    await service.drain()
    await store.close()
    return latencies, total, refused


def run(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    lines = plan(args.plies, args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template.sqlite3"
        build_database(template, args.games, args.active, lines)
        setup = time.perf_counter() - t0
        print(
            f"setup: {args.games} games ({args.active} active, {args.plies} plies played each) "
            f"in {setup:.1f}s; sync={args.sync}, {args.concurrency} requests in flight"
        )
        modes = [True, False]
        if args.no_render:
            modes = [False]
        elif args.render_only:
            modes = [True]
        ref = reference(lines, args.active, args.rounds)
        ref_per_move = ref / (args.active * args.rounds)
        print(
            f"reference (rules core alone, same moves): {1 / ref_per_move:.0f} moves/s, "
            f"{ref_per_move * 1e6:.0f} us per move"
        )
        met = True
        scaled = ""
        for render in modes:
            db = Path(tmp) / f"run-{int(render)}.sqlite3"
            shutil.copy(template, db)
            latencies, total, refused = asyncio.run(play(db, args, lines, render))
            moves = len(latencies)
            q = statistics.quantiles(latencies, n=100)
            print(
                f"service, rendering {'on ' if render else 'off'}: {moves} moves in {total:.2f}s "
                f"= {moves / total:.0f} moves/s; per move p50 {q[49] * 1000:.1f} ms, "
                f"p99 {q[98] * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms; "
                f"refused {refused}; {total / moves / ref_per_move:.1f}x the rules core"
            )
            met = met and refused == 0
            if render:
                met = met and q[98] < 0.015 and moves / total >= 250
                scaled = _at_issue_speed(moves / total, q[98], 1 / ref_per_move)
        if args.db:  # the same moves on PostgreSQL, by one and by three processes
            from bench.scale import compare_postgres

            compare_postgres(args, template)
    print(
        "target (rendering on: p99 < 15 ms, >= 250 moves/s; none refused): "
        f"{'met' if met else 'NOT met'}"
    )
    if scaled:
        print(scaled)


ISSUE_REFERENCE = 10_000
"""Moves per second of the rules core alone (this benchmark's reference) on the day the targets
were set.  The 2-core build machine is a shared virtual machine whose speed varies from day to
day (the same reference has measured 4,600-7,700 moves/s since), so the figures are also given
as they would be at that speed."""


def _at_issue_speed(rate: float, p99: float, reference: float) -> str:
    """The measured rate and p99 scaled to a machine whose rules core does ``ISSUE_REFERENCE``
    moves/s (the work is CPU-bound: both scale with the reference), and whether they meet the
    targets there."""
    k = ISSUE_REFERENCE / reference
    rate, p99 = rate * k, p99 / k
    met = p99 < 0.015 and rate >= 250
    return (
        f"scaled to the speed the targets were set at (reference {ISSUE_REFERENCE} moves/s, "
        f"x{k:.2f}): {rate:.0f} moves/s, p99 {p99 * 1000:.1f} ms: {'met' if met else 'NOT met'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games in the database")
    parser.add_argument(
        "--active", type=int, default=None, help="games in progress (all, at most 10,000)"
    )
    parser.add_argument("--plies", type=int, default=80, help="moves each game has already")
    parser.add_argument("--rounds", type=int, default=4, help="moves per active game")
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--no-render", action="store_true", help="leave out the board image")
    group.add_argument("--render-only", action="store_true", help="only with the board image")
    parser.add_argument(
        "--concurrency", type=int, default=2, help="requests in flight (different games)"
    )
    parser.add_argument("--db", help="postgresql://...: the same moves there, by 1 and 3 processes")
    args = parser.parse_args()
    if args.active is None:
        args.active = min(args.games, 10_000)
    args.active = min(args.active, args.games)
    run(args)


if __name__ == "__main__":
    main()
