"""The games the service benchmark plays (``bench/service.py``, and ``bench/scale.py``'s worker
processes): planned, written to a SQLite template, replayed by the rules core alone (the
reference), and played through ``GameService.handle``.

Every game stands in a position of its own at every measured round, as the games of a bot
serving many chats do: half Standard Shogi, half Wa Shogi, each the first 40-80 plies of one
shared line of its variant (an opening everyone plays) then ``OWN_PLIES`` random plies of its
own, then the moves to play, typed in USI, Western or Japanese notation at random.  A game
whose random plies would meet another game's position at a measured round (or end the game)
draws them again, so no board of the run can come from another game's image.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pickle
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.service_breakdown import Breakdown
from bot.app import settle_heap
from bot.config import Config
from bot.core.api import ChatKey, Request, User
from bot.core.service import GameService
from bot.store import SqliteStore
from bot.store.database import open_store
from render import warm as warm_render
from render.board import render_counts
from render.board_job import BoardJob
from rules import Position, load_variant
from rules.native import ENV_VARIABLE
from rules.notation import format_move

ROOT = Path(__file__).resolve().parents[1]

VARIANTS = ("shogi", "wa")
SHARED_PLIES = (40, 80)
"""Each game starts with this many plies (inclusive range, drawn per game) of its variant's
shared line."""
OWN_PLIES = 6
"""Random plies each game then plays on its own, before the measured moves."""
STYLES = ("usi", "western", "japanese")
BOARD_PROCESSES_READY = 180
"""Seconds the board processes get to start and warm their caches (a few on a quiet machine;
under a load average of 25-30 on 2 cores, 60 was once too few)."""


@dataclass(frozen=True)
class Played:
    """What ``play`` measured: each move's seconds, the whole run's, the moves refused, what
    drawing the boards took from the render caches (``render_counts`` over the run, in this
    process and the board processes), and the CPU seconds of this process (``main_cpu``, all
    its threads; ``loop_cpu`` its event loop's thread alone) and of the board processes
    (``drawer_cpu``, each) over the run, and the board processes' peak resident memory and how
    often each gave freed memory back over the run."""

    latencies: list[float]
    seconds: float
    refused: int
    drawn: dict[str, int]
    main_cpu: float
    loop_cpu: float
    drawer_cpu: list[float]
    drawer_peak_mib: list[float]
    drawer_trims: list[int]


@dataclass(frozen=True)
class Game:
    """One game: ``history`` (USI) already played, ``typed`` the moves to play as a player
    types them, ``usis`` the same moves in USI (for the reference)."""

    variant: str
    history: tuple[str, ...]
    typed: tuple[str, ...]
    usis: tuple[str, ...]


Line = tuple[list[Position], list[str]]
"""The positions along a line (from the start) and its moves in USI."""


def _shared_line(variant: str, plies: int, rng: random.Random) -> Line:
    """A random line of ``plies`` plies that does not end the game."""
    while True:
        pos = Position.start(load_variant(variant))
        positions, usis = [pos.copy()], []
        while len(usis) < plies and pos.outcome() is None:
            move = rng.choice(pos.legal_moves())
            usis.append(pos.usi(move))
            pos.push(move)
            positions.append(pos.copy())
        if len(usis) == plies and pos.outcome() is None:
            return positions, usis


def plan(n_games: int, rounds: int, seed: int = 2026) -> list[Game]:
    """``n_games`` games (alternately Standard Shogi and Wa), each with ``rounds`` moves to
    play, no two of them in the same position after any measured move."""
    rng = random.Random(seed)
    lines = {v: _shared_line(v, SHARED_PLIES[1], rng) for v in VARIANTS}
    seen: set[tuple[str, str]] = set()
    games = []
    for i in range(n_games):
        variant = VARIANTS[i % len(VARIANTS)]
        while True:
            game, reached = _own_game(variant, lines[variant], rounds, rng)
            if game is not None and not (reached & seen):
                seen |= reached
                games.append(game)
                break
    return games


def _own_game(
    variant: str, line: Line, rounds: int, rng: random.Random
) -> tuple[Game | None, set[tuple[str, str]]]:
    """A game from a random point of ``line``: its own plies, its moves to play typed, and
    the positions it reaches after each move to play (None if it ends on the way)."""
    shared = rng.randint(*SHARED_PLIES)
    pos = line[0][shared].copy()
    history = line[1][:shared]
    typed: list[str] = []
    usis: list[str] = []
    reached: set[tuple[str, str]] = set()
    for ply in range(OWN_PLIES + rounds):
        move = rng.choice(pos.legal_moves())
        usi = pos.usi(move)
        if ply < OWN_PLIES:
            history.append(usi)
        else:
            usis.append(usi)
            typed.append(format_move(pos, move, rng.choice(STYLES)))
        pos.push(move)
        if pos.outcome() is not None:
            return None, reached
        if ply >= OWN_PLIES:
            reached.add((variant, pos.sfen(with_move_number=False)))
    return Game(variant, tuple(history), tuple(typed), tuple(usis)), reached


def build_database(path: Path, n_games: int, games: Sequence[Game]) -> None:
    """Create the schema through the store, then every user and game in one transaction:
    the first ``len(games)`` games active (at their planned history), the rest finished
    (with the history of an active one)."""

    async def create() -> None:
        await (await SqliteStore.open(path, sync="normal")).close()

    asyncio.run(create())
    now = time.time()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    users = []
    rows = []
    for i in range(n_games):
        game = games[i % len(games)]
        a, b = f"console:a{i}", f"console:b{i}"
        users += [
            (a, "console", f"a{i}", f"A{i}", f"a{i}"),
            (b, "console", f"b{i}", f"B{i}", f"b{i}"),
        ]
        active = i < len(games)
        a_moves = len(game.history) % 2 == 0  # whoever moves next is a{i}
        rows.append(
            (
                "console",
                f"room{i}",
                None,
                game.variant,
                load_variant(game.variant).start_sfen,
                " ".join(game.history),
                len(game.history) + 1,
                a if a_moves else b,
                b if a_moves else a,
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
        rows,
    )
    db.execute("COMMIT")
    db.close()


def reference(games: Sequence[Game], rounds: int) -> tuple[float, float]:
    """Seconds (wall clock, and CPU) the rules core alone needs for the same moves, game after
    game in turn as the service plays them (parse the USI, validate, push, outcome)."""
    positions = []
    for game in games:
        pos = Position.start(load_variant(game.variant))
        for usi in game.history:
            pos.make_unchecked(pos.parse_usi(usi))
        positions.append((pos, game))
    start, cpu = time.perf_counter(), time.process_time()
    for r in range(rounds):
        for pos, game in positions:
            pos.push(pos.parse_usi(game.usis[r]))
            pos.outcome()
    return time.perf_counter() - start, time.process_time() - cpu


def pure_reference(games: Sequence[Game], rounds: int, folder: Path) -> tuple[float, float]:
    """``reference`` in a fresh process running the rules core as pure Python
    (``KOMABOT_NATIVE=0``), whether or not this process runs the compiled modules: the core
    issue 26's targets were set against (about 10,000 moves/s on the 2-core machine then)."""
    games_file = folder / "reference-games.pickle"
    games_file.write_bytes(pickle.dumps(list(games)))
    code = (
        "import pickle, sys; from pathlib import Path; "
        "from bench.service_games import reference; from rules import native; "
        "assert not native.install().active; "
        f"games = pickle.loads(Path({str(games_file)!r}).read_bytes()); "
        f"print(*reference(games, {rounds}))"
    )
    env = {**os.environ, ENV_VARIABLE: "0"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), float(out[1])


async def play(
    db: Path | str,
    args: argparse.Namespace,
    typed: Sequence[Sequence[str]],
    render: bool,
    *,
    share: tuple[int, int] = (0, 1),
    start_at: float = 0.0,
    profile: Path | None = None,
    breakdown: Breakdown | None = None,
    journal: list[tuple[int, int, BoardJob]] | None = None,
) -> Played:
    """Every active game's next ``args.rounds`` moves (``typed[i]`` those of game i).
    ``db``: a SQLite file or a PostgreSQL URL; ``share`` (k, n): only the games i with
    i % n == k (one of n processes, see bench/scale.py), starting at wall time ``start_at``;
    ``profile``: a file for cProfile's statistics of the moves (this thread only);
    ``breakdown``: records where each move's time goes (``bench/service_breakdown.py``);
    ``journal``: gets the board jobs sent to the board processes during the moves, in order
    (see ``BoardProcesses.journal``)."""
    config = Config(database_url=str(db), db_sync=args.sync)
    store = await open_store(config)
    service = GameService(store, config, rng=random.Random(1), render_images=render)
    settle_heap()  # as ``komabot run`` does at start
    if render:  # as ``komabot run`` does in the background in its first seconds
        warm_render()
        if args.board_processes:
            service.pictures.start(args.board_processes)
            processes = service.pictures.processes
            assert processes is not None
            if not await processes.wait_ready(BOARD_PROCESSES_READY):
                await store.close()  # else its database thread keeps this process alive
                raise SystemExit(
                    f"the board processes were not ready within {BOARD_PROCESSES_READY} s "
                    "(a loaded machine?): nothing measured"
                )
    assert await store.count_active_games() == len(typed)
    latencies: list[float] = []
    refused = 0

    async def worker(k: int) -> None:
        """Plays the moves of every ``concurrency``-th game, in order, one at a time."""
        nonlocal refused
        part, parts = share
        mine = range(part + k * parts, len(typed), args.concurrency * parts)
        for r in range(args.rounds):
            user = "a" if r % 2 == 0 else "b"
            for i in mine:
                chat = ChatKey("console", f"room{i}")
                who = User("console", f"{user}{i}", f"{user.upper()}{i}")
                start = time.perf_counter()
                handling = service.handle(Request(chat, who, "move", (typed[i][r],)))
                reply = await (breakdown.move(handling) if breakdown else handling)
                latencies.append(time.perf_counter() - start)
                if " played " not in reply.text:
                    refused += 1

    await asyncio.sleep(max(0.0, start_at - time.time()))
    before, drawers_before = render_counts(), await _drawers(service)
    if breakdown:
        breakdown.attach(service)
    if journal is not None and service.pictures.processes is not None:
        service.pictures.processes.journal = journal
    profiler = cProfile.Profile(time.thread_time) if profile else None  # CPU, not waits
    cpu0, loop0, t0 = time.process_time(), time.thread_time(), time.perf_counter()
    if profiler:
        profiler.enable()
    await asyncio.gather(*(worker(k) for k in range(args.concurrency)))
    if profiler:
        profiler.disable()
    total, main_cpu = time.perf_counter() - t0, time.process_time() - cpu0
    loop_cpu = time.thread_time() - loop0
    if breakdown:
        breakdown.detach()
    if profiler and profile:
        profiler.dump_stats(profile)
    after, drawers_after = render_counts(), await _drawers(service)
    await service.drain()
    await store.close()
    drawn = {key: after[key] - before[key] for key in after}
    drawer_cpu = []
    for was, now in zip(drawers_before, drawers_after, strict=True):
        drawer_cpu.append(now["cpu"] - was["cpu"])
        for key in drawn:
            drawn[key] += int(now[key] - was[key])
    peaks = [now["peak_mib"] for now in drawers_after]
    trims = [
        int(now.get("trims", 0) - was.get("trims", 0))
        for was, now in zip(drawers_before, drawers_after, strict=True)
    ]
    return Played(latencies, total, refused, drawn, main_cpu, loop_cpu, drawer_cpu, peaks, trims)


async def _drawers(service: GameService) -> list[dict[str, float]]:
    """The board processes' CPU seconds and render counts, if boards are drawn there."""
    processes = service.pictures.processes
    return [] if processes is None else await processes.stats()
