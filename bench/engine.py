"""Engine speed and strength, per variant.

- Speed: nodes per second and time to reach depth 4 on middle-game positions (made by seeded
  games of a weak level), against the speed of the rules core's own move generation on the
  same positions (perft 2 with make/pop, measured in the same run).
- Strength ladder: each level against the level below, both colours, at a fast budget per
  move; score, Elo difference and its 95% error bar.  Long games are adjudicated when both
  engines agree one side is lost by more than the resign threshold for a few moves.
- The top level against a random mover: it must win every game.

    .venv/bin/python bench/engine.py [--quick] [--variants shogi,wa] [--games 40]
        [--movetime 100] [--random-games 10] [--workers 2] [--profile N]
        [--speed-only] [--baseline REV]

``--baseline REV`` also searches the speed positions with the engine of git revision ``REV``
(exported to a temporary directory: pure Python, as an export has no compiled build) or of
the checkout in directory ``REV`` as it is (compiled when its build is current), in fresh
processes taking turns with this checkout's,
and prints the ratio of CPU time: how much a change made the search faster, measured in one
run.  Equal node counts show that both searched the same tree.

Full settings take an hour or more on two cores; ``--quick`` a couple of minutes.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named like the package it measures: look for ``engine`` at the top of the
# repository, not here.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import cProfile  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import multiprocessing  # noqa: E402
import os  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import subprocess  # noqa: E402
import tarfile  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from engine.api import Engine  # noqa: E402
from engine.levels import HIGHEST, LOWEST  # noqa: E402
from engine.search import Limits  # noqa: E402
from rules import Position, load_variant, native  # noqa: E402
from rules.perft import perft  # noqa: E402

VARIANTS = ("shogi", "wa", "wa-drops")
MAX_PLIES = 400
ADJUDICATE_AFTER = 4  # consecutive agreeing reports of each side


def middle_game(variant_id: str, seed: int, plies: int) -> Position:
    """A position after ``plies`` moves of a seeded level-2 game (sensible, varied)."""
    variant = load_variant(variant_id)
    engine = Engine(variant, hash_mb=4)
    pos = Position.start(variant)
    for ply in range(plies):
        if pos.outcome() is not None:
            break
        result = engine.think(pos, level=2, limits=Limits(depth=1), seed=seed * 1000 + ply)
        assert result.best_move is not None
        pos.push_usi(result.best_move)
    return pos


@dataclass(frozen=True)
class Speed:
    variant: str
    positions: int
    nodes: int
    seconds: float
    perft_nps: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds

    @property
    def depth4_ms(self) -> float:
        return self.seconds / self.positions * 1000


def speed_positions(variant_id: str, count: int) -> list[Position]:
    """The positions of the speed searches: middle games of seeded level-2 games."""
    return [middle_game(variant_id, seed, 40 + 4 * seed) for seed in range(count)]


def depth_four_searches(positions: list[Position]) -> tuple[int, float]:
    """Nodes and seconds of a depth-4 search of each position, each with a fresh engine."""
    nodes = 0
    seconds = 0.0
    for pos in positions:
        engine = Engine(pos.variant, hash_mb=16)
        start = time.perf_counter()
        result = engine.think(pos, limits=Limits(depth=4))
        seconds += time.perf_counter() - start
        nodes += result.nodes
    return nodes, seconds


def bench_speed(variant_id: str, count: int) -> Speed:
    positions = speed_positions(variant_id, count)
    nodes, seconds = depth_four_searches(positions)
    start = time.perf_counter()
    leaves = sum(perft(pos.copy(), 2, bulk=False) for pos in positions)
    perft_seconds = time.perf_counter() - start
    return Speed(variant_id, count, nodes, seconds, leaves / perft_seconds)


# Run in a fresh process with a checkout's root as argv[1]: depth-4 searches of the positions
# (USI moves from the start) read from stdin, then perft 2 of each (make/pop to every leaf);
# prints [nodes, CPU seconds, perft leaves, perft CPU seconds].
_SEARCH_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from engine.api import Engine
from engine.search import Limits
from rules import Position, load_variant
from rules.perft import perft
variant = load_variant(sys.argv[2])
Engine(variant).think(Position.start(variant), limits=Limits(depth=1))  # tables built
nodes, seconds, leaves, perft_seconds = 0, 0.0, 0, 0.0
for moves in json.loads(sys.stdin.read()):
    pos = Position.start(variant)
    for move in moves:
        pos.push_usi(move)
    engine = Engine(variant, hash_mb=16)
    start = time.process_time()
    nodes += engine.think(pos, limits=Limits(depth=4)).nodes
    seconds += time.process_time() - start
    start = time.process_time()
    leaves += perft(pos, 2, bulk=False)
    perft_seconds += time.process_time() - start
print(json.dumps([nodes, seconds, leaves, perft_seconds]))
"""


@dataclass(frozen=True)
class Searched:
    """What one child process measured: search nodes and perft leaves, in CPU seconds."""

    nodes: int
    seconds: float
    leaves: int
    perft_seconds: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds

    @property
    def perft_nps(self) -> float:
        return self.leaves / self.perft_seconds


def _searched_by(
    root: Path, variant_id: str, games: list[list[str]], compiled: bool = True
) -> Searched:
    """The speed of ``root``'s engine in a fresh process; ``compiled=False``: pure Python even
    where its compiled modules are built (KOMABOT_NATIVE=0)."""
    env = {**os.environ, native.ENV_VARIABLE: "1" if compiled else "0"}
    out = subprocess.run(
        [sys.executable, "-c", _SEARCH_CHILD, str(root), variant_id],
        input=json.dumps(games),
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    nodes, seconds, leaves, perft_seconds = json.loads(out)
    return Searched(int(nodes), float(seconds), int(leaves), float(perft_seconds))


def _speed_games(variant: str, count: int) -> list[list[str]]:
    positions = [middle_game(variant, seed, 40 + 4 * seed) for seed in range(count)]
    return [[pos.usi(m) for m in pos.move_stack] for pos in positions]


def _best_of(runs: dict[str, list[Searched]]) -> dict[str, Searched]:
    return {name: min(found, key=lambda s: s.seconds) for name, found in runs.items()}


def compare_native(variants: list[str], count: int, rounds: int = 2) -> None:
    """Nodes per CPU second pure Python and compiled (build/native/) on the same positions,
    each the best of ``rounds`` fresh processes taking turns; perft 2 of them likewise."""
    here = _HERE.parent
    print(f"\nCompiled against pure Python: depth 4 and perft 2, CPU time, best of {rounds} each")
    print(
        f"{'variant':<9} {'nodes':>14} {'pure n/s':>9} {'compiled':>9} {'ratio':>6} "
        f"{'perft pure':>11} {'compiled':>10} {'ratio':>6}"
    )
    for variant in variants:
        games = _speed_games(variant, count)
        runs: dict[str, list[Searched]] = {"pure": [], "compiled": []}
        for _ in range(rounds):
            for name in runs:
                runs[name].append(_searched_by(here, variant, games, compiled=name == "compiled"))
        best = _best_of(runs)
        pure, compiled = best["pure"], best["compiled"]
        same = "same" if pure.nodes == compiled.nodes else f"{pure.nodes}->{compiled.nodes}"
        print(
            f"{variant:<9} {same:>14} {pure.nps:>9,.0f} {compiled.nps:>9,.0f} "
            f"{compiled.nps / pure.nps:>5.2f}x {pure.perft_nps:>11,.0f} "
            f"{compiled.perft_nps:>10,.0f} {compiled.perft_nps / pure.perft_nps:>5.2f}x"
        )


def compare_speed(variants: list[str], count: int, revision: str, rounds: int = 2) -> None:
    """Nodes per CPU second of this checkout's search and of ``revision``'s on the same
    positions, each the best of ``rounds`` fresh processes taking turns."""
    here = _HERE.parent
    with tempfile.TemporaryDirectory(prefix="komabot-baseline-") as tmp:
        baseline = Path(tmp)
        if Path(revision).is_dir():  # a checkout as it is, with its compiled build if any
            baseline = Path(revision).resolve()
        else:
            archive = subprocess.run(
                ["git", "-C", str(here), "archive", "--format=tar", revision],
                capture_output=True,
                check=True,
            ).stdout
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(tmp, filter="data")
        print(f"\nSpeed against {revision}: depth 4, CPU time, best of {rounds} turns each")
        print(f"{'variant':<9} {'nodes':>14} {'baseline n/s':>13} {'this n/s':>9} {'speed-up':>8}")
        for variant in variants:
            games = _speed_games(variant, count)
            runs: dict[str, list[Searched]] = {"baseline": [], "this": []}
            for _ in range(rounds):
                for name, root in (("baseline", baseline), ("this", here)):
                    runs[name].append(_searched_by(root, variant, games))
            best = _best_of(runs)
            old, new = best["baseline"], best["this"]
            same = "same" if old.nodes == new.nodes else f"{old.nodes}->{new.nodes}"
            print(
                f"{variant:<9} {same:>14} {old.nps:>13,.0f} {new.nps:>9,.0f} "
                f"{new.nps / old.nps:>7.2f}x"
            )


def profile_speed(variants: list[str], count: int, top: int) -> None:
    """Where the searches of :func:`bench_speed` spend their time, by own time (the level-2
    games that make the positions, and the perft, are left out)."""
    positions = {variant: speed_positions(variant, count) for variant in variants}
    profiler = cProfile.Profile()
    profiler.enable()
    for variant in variants:
        depth_four_searches(positions[variant])
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


# --- games -------------------------------------------------------------------------------

RANDOM = 0  # the "level" of the random mover


@dataclass(frozen=True)
class Game:
    variant: str
    sente: int  # level, or RANDOM
    gote: int
    movetime_ms: int
    seed: int


@dataclass(frozen=True)
class GameResult:
    game: Game
    sente_points: float  # 1 win, 0.5 draw, 0 loss
    plies: int
    how: str


def play(game: Game) -> GameResult:
    variant = load_variant(game.variant)
    pos = Position.start(variant)
    rng = random.Random(game.seed)
    players = (game.sente, game.gote)
    engines = [Engine(variant, hash_mb=8), Engine(variant, hash_mb=8)]
    scores: list[list[int]] = [[], []]
    threshold = engines[0].resign_cp
    for ply in range(MAX_PLIES):
        outcome = pos.outcome()
        if outcome is not None:
            points = 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)
            return GameResult(game, points, ply, outcome.termination.value)
        side = pos.side
        level = players[side]
        if level == RANDOM:
            move = pos.usi(rng.choice(pos.legal_moves()))
        else:
            result = engines[side].think(
                pos,
                level=level,
                limits=Limits(movetime_ms=game.movetime_ms),
                seed=rng.randrange(1 << 30),
                past_scores=scores[side],
            )
            assert result.best_move is not None
            if result.resign:
                return GameResult(game, 0.0 if side == 0 else 1.0, ply, "resignation")
            scores[side].append(result.score)
            move = result.best_move
            if _agreed_lost(scores, side, threshold):
                return GameResult(game, 0.0 if side == 0 else 1.0, ply, "adjudicated")
        pos.push_usi(move)
    return GameResult(game, 0.5, MAX_PLIES, "move limit")


def _agreed_lost(scores: list[list[int]], side: int, threshold: int) -> bool:
    """Both engines' latest reports say ``side`` is lost by more than ``threshold``."""
    mine, theirs = scores[side][-ADJUDICATE_AFTER:], scores[side ^ 1][-ADJUDICATE_AFTER:]
    return (
        len(mine) == ADJUDICATE_AFTER
        and len(theirs) == ADJUDICATE_AFTER
        and all(s <= -threshold for s in mine)
        and all(s >= threshold for s in theirs)
    )


def elo(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


@dataclass(frozen=True)
class Match:
    """Results of ``level`` against ``other`` from ``level``'s side."""

    variant: str
    level: int
    other: int
    points: list[float]
    plies: list[int]
    hows: list[str]

    @property
    def score(self) -> float:
        return sum(self.points) / len(self.points)

    def elo_text(self) -> str:
        """Elo difference and its 95% interval (normal approximation of the score); when
        every game was won (lost), the exact binomial bound with the other end open."""
        n = len(self.points)
        s = self.score
        if s in (0.0, 1.0):
            bound = round(elo(0.025 ** (1 / n)))
            if s == 1.0:
                return f">{bound:+d} [{bound:+d}, inf]"
            return f"<{-bound:+d} [-inf, {-bound:+d}]"
        mean_sq = sum(p * p for p in self.points) / n
        se = math.sqrt(max(0.0, mean_sq - s * s) / n)
        edge = 1 / (2 * n)
        low = min(1 - edge, max(edge, s - 1.96 * se))
        high = min(1 - edge, max(edge, s + 1.96 * se))
        point, lo, hi = (round(elo(x)) for x in (s, low, high))
        return f"{point:+d} [{lo:+d}, {hi:+d}]"


def run_matches(games: list[Game], workers: int) -> list[GameResult]:
    if workers <= 1:
        return [play(g) for g in games]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return list(pool.imap_unordered(play, games))


def matches_from(
    results: list[GameResult], variant: str, pairs: list[tuple[int, int]]
) -> list[Match]:
    out = []
    for level, other in pairs:
        points, plies, hows = [], [], []
        for r in results:
            g = r.game
            if g.variant != variant:
                continue
            if (g.sente, g.gote) == (level, other):
                points.append(r.sente_points)
            elif (g.sente, g.gote) == (other, level):
                points.append(1 - r.sente_points)
            else:
                continue
            plies.append(r.plies)
            hows.append(r.how)
        out.append(Match(variant, level, other, points, plies, hows))
    return out


def describe(hows: list[str]) -> str:
    counts: dict[str, int] = {}
    for how in hows:
        counts[how] = counts.get(how, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a couple of minutes in all")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, help="games per pair of levels (default 40)")
    parser.add_argument("--movetime", type=int, help="ms per move (default 100)")
    parser.add_argument("--random-games", type=int, help="top level vs random (default 10)")
    parser.add_argument("--positions", type=int, help="speed positions per variant (default 6)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--speed-only", action="store_true", help="skip the games")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also measure the search of git revision REV (or of the checkout in directory REV) "
        "on the same positions (speed-up)",
    )
    parser.add_argument(
        "--profile",
        type=int,
        metavar="N",
        help="only profile the speed searches (cProfile) and print the N costliest functions",
    )
    args = parser.parse_args()
    quick = args.quick
    games = args.games or (4 if quick else 40)
    movetime = args.movetime or (20 if quick else 100)
    random_games = args.random_games if args.random_games is not None else (2 if quick else 10)
    count = args.positions or (2 if quick else 6)
    variants = [v for v in args.variants.split(",") if v]

    if args.profile:
        profile_speed(variants, count, args.profile)
        return
    compiled = native.install()
    print(f"Engine modules: {'compiled' if compiled.active else 'pure Python'} ({compiled.reason})")
    print(f"Speed: search to depth 4 from {count} middle-game positions per variant")
    print(f"{'variant':<9} {'nodes/s':>9} {'depth 4':>9} {'perft nodes/s':>14} {'ratio':>6}")
    for variant in variants:
        s = bench_speed(variant, count)
        print(
            f"{variant:<9} {s.nps:>9,.0f} {s.depth4_ms:>7,.0f}ms {s.perft_nps:>14,.0f} "
            f"{s.nps / s.perft_nps:>6.3f}"
        )
    if compiled.active:
        compare_native(variants, count)
    if args.baseline:
        compare_speed(variants, count, args.baseline)
    if args.speed_only:
        return

    pairs = [(level, level - 1) for level in range(LOWEST + 1, HIGHEST + 1)]
    plan: list[Game] = []
    seed = 0
    for variant in variants:
        for level, other in pairs:
            for n in range(games):
                seed += 1
                sente, gote = (level, other) if n % 2 == 0 else (other, level)
                plan.append(Game(variant, sente, gote, movetime, seed))
        for n in range(random_games):
            seed += 1
            sente, gote = (HIGHEST, RANDOM) if n % 2 == 0 else (RANDOM, HIGHEST)
            plan.append(Game(variant, sente, gote, movetime, seed))
    start = time.perf_counter()
    results = run_matches(plan, args.workers)
    took = time.perf_counter() - start
    print(
        f"\nLadder: each level against the one below, {games} games a pair (half as sente), "
        f"{movetime} ms a move (a level uses its share of it); {len(plan)} games in {took:.0f} s"
    )
    print(f"{'variant':<9} {'pair':<7} {'score':>6} {'Elo (95%)':>22}  {'plies':>5}  endings")
    for variant in variants:
        for m in matches_from(results, variant, [*pairs, (HIGHEST, RANDOM)]):
            if not m.points:
                continue
            name = f"{m.level}-{m.other}" if m.other != RANDOM else f"{m.level}-rnd"
            print(
                f"{variant:<9} {name:<7} {m.score:>6.1%} {m.elo_text():>22}  "
                f"{sum(m.plies) / len(m.plies):>5.0f}  {describe(m.hows)}"
            )
        top = matches_from(results, variant, [(HIGHEST, RANDOM)])[0]
        if top.points and top.score < 1:
            print(f"{variant}: level {HIGHEST} lost points to the random mover!")


if __name__ == "__main__":
    main()
