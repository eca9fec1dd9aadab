"""Game service speed: moves through the full path, against the bare rules core, same run.

1,000 active games (half Standard Shogi, half Wa Shogi) in one SQLite database; thousands of
moves replayed through ``GameService.handle`` — read the move (USI or Western text), check it,
commit it, draw the board PNG (in a worker thread), build the reply — with a few requests in
flight for different games, as in a bot serving many chats.  Prints moves per
second, per-move p50/p99 latency, and the ratio to the reference: the rules core alone
(``parse_usi`` + ``push`` + ``outcome``) on the very same moves.

    .venv/bin/python bench/service.py [--games 1000] [--rounds 4] [--sync full|normal]
                                       [--concurrency 2] [--no-render]

Target on the 2-core build machine: p99 under 50 ms and at least 100 moves per second with
rendering included.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and bench/render.py would hide the
# render package: look in the repository root instead.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.config import Config  # noqa: E402
from bot.core.api import ChatRef, Request, User  # noqa: E402
from bot.core.service import GameService  # noqa: E402
from bot.store import SqliteStore  # noqa: E402
from rules import Position, load_variant  # noqa: E402
from rules.notation import format_move  # noqa: E402

Script = list[tuple[int, str, str]]  # (game id, user key, move text) in play order


def plan_games(
    n_games: int, rounds: int, rng: random.Random
) -> tuple[list[tuple[str, list[str]]], list[list[tuple[str, str]]]]:
    """Per game: its variant and USI moves; and per game the move texts as typed (USI/Western)."""
    games = []
    typed = []
    for i in range(n_games):
        variant = "shogi" if i % 2 == 0 else "wa"
        pos = Position.start(load_variant(variant))
        usis: list[str] = []
        texts: list[tuple[str, str]] = []
        while len(usis) < rounds:
            legal = pos.legal_moves()
            move = rng.choice(legal)
            style = "western" if rng.random() < 0.5 else "usi"
            texts.append((pos.usi(move), format_move(pos, move, style)))
            usis.append(pos.usi(move))
            pos.push(move)
            if pos.outcome() is not None:  # very rare: start this game's plan again
                pos = Position.start(load_variant(variant))
                usis, texts = [], []
        games.append((variant, usis))
        typed.append(texts)
    return games, typed


def reference(games: list[tuple[str, list[str]]]) -> float:
    """Seconds the rules core alone needs for the same moves (parse, validate, push, outcome)."""
    positions = [Position.start(load_variant(v)) for v, _ in games]
    start = time.perf_counter()
    rounds = max(len(m) for _, m in games)
    for r in range(rounds):
        for pos, (_, moves) in zip(positions, games, strict=True):
            if r < len(moves):
                move = pos.parse_usi(moves[r])
                pos.push(move)
                pos.outcome()
    return time.perf_counter() - start


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(2026)
    games_plan, typed = plan_games(args.games, args.rounds, rng)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        store = await SqliteStore.open(db, sync=args.sync)
        service = GameService(
            store, Config(db_path=db), rng=random.Random(1), render_images=not args.no_render
        )
        t0 = time.perf_counter()
        ids = []
        for i, (variant, _) in enumerate(games_plan):
            chat = ChatRef("console", f"room{i}")
            a, b = User("console", f"a{i}", f"Player A{i}"), User("console", f"b{i}", f"B{i}")
            await service.handle(Request(chat, a, "challenge", (variant, "sente"), target=b))
            await service.handle(Request(chat, b, "accept"))
            ids.append((chat, a, b))
        setup = time.perf_counter() - t0
        assert await store.count_active_games() == args.games
        latencies: list[float] = []
        refused = 0

        async def worker(k: int) -> None:
            """Plays the moves of every ``concurrency``-th game, in order, one at a time."""
            nonlocal refused
            mine = list(zip(ids, typed, strict=True))[k :: args.concurrency]
            for r in range(args.rounds):
                for (chat, a, b), texts in mine:
                    user = a if r % 2 == 0 else b
                    start = time.perf_counter()
                    reply = await service.handle(Request(chat, user, "move", (texts[r][1],)))
                    latencies.append(time.perf_counter() - start)
                    if " played " not in reply.text:
                        refused += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(worker(k) for k in range(args.concurrency)))
        total = time.perf_counter() - t0
        await store.close()
    moves = len(latencies)
    ref = reference(games_plan)
    q = statistics.quantiles(latencies, n=100)
    per_move = total / moves
    print(
        f"setup: {args.games} games created in {setup:.1f}s (challenge + accept each); "
        f"sync={args.sync}, rendering {'off' if args.no_render else 'on'}, "
        f"{args.concurrency} requests in flight"
    )
    print(
        f"service: {moves} moves in {total:.2f}s = {moves / total:.0f} moves/s; "
        f"per move p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, "
        f"max {max(latencies) * 1000:.1f} ms; refused {refused}"
    )
    print(
        f"reference (rules core alone, same moves): {moves / ref:.0f} moves/s, "
        f"{ref / moves * 1e6:.0f} us per move"
    )
    print(f"ratio: the full path costs {per_move / (ref / moves):.1f}x the rules core per move")
    ok = q[98] < 0.050 and moves / total >= 100 and refused == 0
    print(f"target (p99 < 50 ms, >= 100 moves/s, none refused): {'met' if ok else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=4, help="moves per game")
    parser.add_argument("--sync", choices=("full", "normal"), default="full")
    parser.add_argument("--no-render", action="store_true", help="leave out the board image")
    parser.add_argument(
        "--concurrency", type=int, default=2, help="requests in flight (different games)"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
