"""Komabot against other engines, and its levels against each other, every move refereed.

Opponents (Debian packages, see README): Fairy-Stockfish (USI, Standard Shogi, ``Skill
Level``), HaChu (xboard, ``wa-shogi``: Wa without drops) and CrazyWa (xboard, ``crazywa``:
Wa with drops); ``--opponent-command PATH`` plays another build of one of them instead (the
developers' guide: CrazyWa built again with its bug on 11x11 mended).  Komabot plays as
``komabot usi`` in its own process.

- Colours alternate; each pair of games starts from the same few seeded random plies.
- Every move is checked by the rules core.  An opponent's illegal move (HaChu sometimes
  leaves its own king in check) aborts the game: it counts neither way.  An illegal move by
  Komabot is counted and loses.
- An xboard engine that dies or stops answering (CrazyWa's Debian build crashes in most
  searches of Wa) is treated as if its time had run out then: it plays the first move of the
  last principal variation it printed, when that is legal, and is started afresh for its next
  move.  When it printed none, it is started again, given the game so far and asked again with
  its depth capped below where it failed.  Crashes, moves cut short and depth-capped moves are
  counted; the game counts whatever the number of crashes (each move is still the engine's
  own choice), but more than ``MAX_RESTARTS`` crashes on one move abort it.
- A game still going at the ply cap (400) is a draw by the cap, shown apart.

    .venv/bin/python bench/match.py hachu --level 8 --movetime 500 --games 20
    .venv/bin/python bench/match.py hachu --nodes 48000 --opponent-depth 7 --games 10
    .venv/bin/python bench/match.py hachu --play-on h.jsonl --workers 2
    .venv/bin/python bench/match.py hachu --convert h1.jsonl h2.jsonl --lead 1500
    .venv/bin/python bench/match.py crazywa --games 10
    .venv/bin/python bench/match.py crazywa --opponent-command /opt/crazywa/crazywa --games 20
    .venv/bin/python bench/match.py fairy --skill 6 --movetime 1000 --opponent-movetime 100
    .venv/bin/python bench/match.py levels --variant wa --levels 1-8 --games 4 --movetime 200
    .venv/bin/python bench/match.py levels --variant shogi --span 2 --nodes 16000 --log s.jsonl
    .venv/bin/python bench/match.py rate s.jsonl
    .venv/bin/python bench/match.py ab --base /tmp/base --variant wa --nodes 3000 --games 20

``ab`` plays this checkout's Komabot against another checkout's (``--base``: a directory
holding that version's ``bot/``, ``engine/`` and ``rules/``, for example ``git archive main |
tar -x -C /tmp/base``) at the same level and budget: an A/B test of an engine change.
``--candidate DIR`` (any mode but ``levels``) plays another checkout's Komabot in place of
this one's, for example a snapshot of this one, which may change while the match runs.

``--play-on LOG`` answers whether Komabot's resignations cost points: the games of the
logs that Komabot resigned are played on from the resignation, Komabot with ``AllowResign``
off, against the opponent and at the budgets given (the same as the logged games', for a
fair answer), to the mate or the ply cap.

``--convert LOG...`` answers whether Komabot now wins the endings it once led and left at
the cap: the games of the logs that reached the cap after Komabot led by ``--lead``
centipawns of material (by this checkout's piece and square values: two checkouts with
other values start from other positions) are played on from the first position where it
did, Komabot to move, to the same cap.

``levels`` plays every pair of the given levels (``--span K``: only pairs at most K levels
apart) and prints a rating per level fitted to all the games (``bench/level_ratings.py``);
``rate`` prints the same table from the ``--log`` files of earlier runs (a partial run, or
several runs together).

``--workers N`` plays N games at once (each game takes about one core).
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.level_ratings import (  # noqa: E402
    SearchStats,
    add_game,
    add_search,
    games_between,
    levels_played,
    ratings_table,
    results_from_logs,
    search_from_logs,
    search_table,
)
from bench.match_log import append_game, read_games  # noqa: E402
from bench.match_players import (  # noqa: E402
    MAX_RESTARTS,
    EngineCrash,
    Player,
    UsiPlayer,
    XboardPlayer,
    demoted_twins,
)
from engine.evaluation import Evaluator  # noqa: E402
from rules import GOTE, SENTE, Move, Position, RulesError, Variant, load_variant  # noqa: E402
from rules.outcome import impasse_report  # noqa: E402

MAX_PLIES = 400
HACHU = "/usr/games/hachu"
HACHU_OPTIONS = (("Promote on entry", "0"), ("Allow repeats", "1"))  # as in Wa's rules
# HaChu ignores "st" and thinks about 1/104 of its clock on average: a clock of 52 s gave it 506
# ms a move at 500 ms, where Komabot took 481 (measured 2026-11-28; 120 gave it 575 ms)
HACHU_CLOCK_FACTOR = 104
CRAZYWA = "/usr/games/crazywa"
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
OPPONENT_VARIANTS = {"hachu": "wa", "crazywa": "wa-drops", "fairy": "shogi"}  # what each plays
KOMABOT_MAIN = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"  # komabot


# --- players ---------------------------------------------------------------------------------


def hachu_player(
    name: str, command: Sequence[str], movetime_ms: int, depth: int = 0
) -> XboardPlayer:
    """HaChu playing Wa with the options of Wa's rules: ``movetime_ms`` a move (its clock
    ``HACHU_CLOCK_FACTOR`` times that), or with ``depth`` to that depth, untimed."""
    return XboardPlayer(
        name,
        command,
        "wa-shogi",
        HACHU_OPTIONS,
        movetime_ms,
        clock_factor=HACHU_CLOCK_FACTOR,
        depth_limit=depth,
    )


@dataclass(frozen=True)
class PlayerSpec:
    """How to make a player (picklable, for worker processes)."""

    kind: str  # komabot, fairy, hachu, crazywa, usi, xboard
    variant: str
    movetime_ms: int
    level: int = 8
    nodes: int = 0  # Komabot: "go nodes" instead of the move time
    depth: int = 0  # HaChu: "sd" with an untimed clock instead of the move time
    skill: int = 6
    command: tuple[str, ...] = ()
    xboard_variant: str = ""
    root: str = ""  # Komabot: another checkout to run instead of this one (A/B tests)
    resign: bool = True  # Komabot: AllowResign (off: it plays on to the mate or the cap)

    @property
    def label(self) -> str:
        if self.kind == "komabot":
            return f"Komabot L{self.level}" + (f" ({Path(self.root).name})" if self.root else "")
        if self.kind == "fairy":
            return f"Fairy-Stockfish skill {self.skill}"
        return {"hachu": "HaChu", "crazywa": "CrazyWa"}.get(self.kind, self.kind)

    def make(self) -> Player:
        ms = self.movetime_ms
        if self.kind == "komabot":
            # another checkout goes first on the import path (this one is installed editable)
            main = f"import sys; sys.path.insert(0, {self.root!r}); {KOMABOT_MAIN}"
            code = main if self.root else KOMABOT_MAIN
            command = (sys.executable, "-c", code, "usi", "--variant", self.variant)
            options: tuple[tuple[str, str], ...] = (
                ("Level", str(self.level)),
                ("MoveOverhead", "20"),
                ("USI_Hash", "64"),
            )
            if not self.resign:
                options += (("AllowResign", "false"),)
            return UsiPlayer(self.label, command, options, ms, self.nodes)
        if self.kind == "fairy":
            options = (("Skill Level", str(self.skill)), ("Threads", "1"), ("USI_Hash", "16"))
            return UsiPlayer(self.label, self.command or (FAIRY_STOCKFISH,), options, ms)
        if self.kind == "hachu":
            return hachu_player(self.label, self.command or (HACHU,), ms, self.depth)
        if self.kind == "crazywa":
            # CrazyWa's own drop rule differs: a captured Swallow's Wings, Treacherous Fox,
            # Violent Wolf, Violent Stag, Flying Falcon or Cloud Eagle goes to the hand as the
            # piece that promotes to it (Flying Goose, Running Rabbit, Blind Dog, Climbing
            # Monkey, Strutting Crow, Swooping Owl), and it crashes when it holds one of them.
            # So it gets the refereed position each move with those hand pieces written as
            # their twins, and its drop of a twin is read as the piece really held.
            twins = demoted_twins(load_variant(self.variant))
            # It reads "st 0.5" as "st 0" (fixed time a move) and then thinks at most its clock
            # ("time") less 30 ms: the clock is the move time plus 30 ms.
            return XboardPlayer(
                self.label,
                self.command or (CRAZYWA,),
                "crazywa",
                (),
                ms,
                by_setboard=True,
                hand_as=twins,
                clock_margin_ms=30,
            )
        if self.kind == "usi":
            return UsiPlayer(self.label, self.command, (), ms)
        if self.kind == "xboard":
            return XboardPlayer(self.label, self.command, self.xboard_variant, (), ms)
        raise ValueError(f"unknown player kind {self.kind!r}")


# --- one game --------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """One game from the first player's (``a``'s) view."""

    a_sente: bool
    result: float | None  # 1, 0.5, 0 for a; None: aborted
    reason: str
    plies: int
    moves: list[str] = field(default_factory=list)
    crashes: int = 0
    capped_moves: int = 0
    cut_moves: int = 0
    a_illegal: bool = False
    depths: dict[str, list[int]] = field(default_factory=lambda: {"a": [], "b": []})
    nodes: dict[str, list[int]] = field(default_factory=lambda: {"a": [], "b": []})
    ms: dict[str, list[int]] = field(default_factory=lambda: {"a": [], "b": []})

    @property
    def decided_on_board(self) -> bool:
        return self.result is not None and self.reason != "ply cap"


def random_opening(variant: Variant, seed: int, plies: int) -> list[Move]:
    """``plies`` random legal moves that take nothing and do not give check (seeded)."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    out: list[Move] = []
    for _ in range(plies):
        quiet = []
        for m in pos.legal_moves():
            if m.drop or pos.board[m.to_sq]:
                continue
            pos.make_unchecked(m)
            check = pos.is_check()
            pos.pop()
            if not check:
                quiet.append(m)
        if not quiet:
            break
        move = rng.choice(quiet)
        pos.make_unchecked(move)
        out.append(move)
    return out


def opening_of(variant: Variant, moves: Sequence[str]) -> list[Move]:
    """The moves (USI) of a game from the start, each checked, as the ``opening`` of
    :func:`play_game`: to play on from a logged position."""
    pos = Position.start(variant)
    for text in moves:
        pos.push_usi(text)
    return pos.move_stack


def play_game(
    variant: Variant,
    a: Player,
    b: Player,
    a_sente: bool,
    opening: Sequence[Move],
    max_plies: int = MAX_PLIES,
) -> GameRecord:
    """One refereed game between ``a`` and ``b`` after ``opening``."""
    pos = Position.start(variant)
    for move in opening:
        pos.push(move)
    record = GameRecord(a_sente, None, "", 0)
    a_side = 0 if a_sente else 1

    def finish(result: float | None, reason: str) -> GameRecord:
        record.result = result
        record.reason = reason
        record.plies = pos.ply
        record.moves = [pos.usi(m) for m in pos.move_stack]
        return record

    for player in (a, b):
        try:
            player.new_game()
        except EngineCrash as exc:  # did not start (e.g. too slow on a loaded machine)
            return finish(None, f"{player.name} did not start: {exc}")

    while True:
        done = pos.outcome()
        if done is not None:
            if done.winner is None:
                return finish(0.5, done.termination.value)
            return finish(1.0 if done.winner == a_side else 0.0, done.termination.value)
        if pos.ply >= max_plies:
            return finish(0.5, "ply cap")
        mover_is_a = pos.side == a_side
        player, key = (a, "a") if mover_is_a else (b, "b")
        lose = 0.0 if mover_is_a else 1.0
        asked = time.monotonic()
        try:
            reply = player.play(pos)
        except EngineCrash as exc:
            if mover_is_a:
                record.a_illegal = True
                return finish(lose, f"{player.name} failed: {exc}")
            return finish(None, f"{player.name} failed: {exc}")
        record.crashes += reply.restarts
        record.capped_moves += reply.capped
        record.cut_moves += reply.cut
        if not reply.restarts:
            record.ms[key].append(round((time.monotonic() - asked) * 1000))
        if reply.depth is not None:
            record.depths[key].append(reply.depth)
        if reply.nodes is not None:
            record.nodes[key].append(reply.nodes)
        if reply.text == "crash":
            return finish(None, f"{player.name} crashed more than {MAX_RESTARTS} times")
        if reply.text == "resign":
            return finish(lose, "resignation")
        if reply.text == "win":
            if not impasse_report(pos).unmet:
                return finish(1.0 - lose, "impasse")
            return finish(lose, "false impasse declaration")
        if reply.text.startswith("claim"):
            return finish(None, f"{player.name} claimed a result the referee does not see")
        try:
            move = player.parse(pos, reply.text)
        except RulesError as exc:
            if mover_is_a:
                record.a_illegal = True
                return finish(lose, f"illegal move by {player.name}: {exc}")
            return finish(None, f"illegal move by {player.name}: {exc}")
        pos.make_unchecked(move)


# --- matches ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameJob:
    variant: str
    a: PlayerSpec
    b: PlayerSpec
    a_sente: bool
    opening_seed: int
    opening_plies: int
    max_plies: int
    moves: tuple[str, ...] = ()  # USI: the game so far, played from there (no random plies)


def run_job(job: GameJob) -> GameRecord:
    variant = load_variant(job.variant)
    a, b = job.a.make(), job.b.make()
    try:
        if job.moves:
            opening = opening_of(variant, job.moves)
        else:
            opening = random_opening(variant, job.opening_seed, job.opening_plies)
        return play_game(variant, a, b, job.a_sente, opening, job.max_plies)
    finally:
        a.close()
        b.close()


def pair_jobs(
    variant: str, a: PlayerSpec, b: PlayerSpec, games: int, seed: int, plies: int, cap: int
) -> list[GameJob]:
    """``games`` games, colours alternating, one seeded opening per pair."""
    return [
        GameJob(variant, a, b, i % 2 == 0, seed * 10_000 + i // 2, plies, cap) for i in range(games)
    ]


def play_on_jobs(logs: Sequence[Path], a: PlayerSpec, b: PlayerSpec, cap: int) -> list[GameJob]:
    """The games of ``logs`` that Komabot resigned, each to be played on from its resignation
    by ``a`` (Komabot, who should not resign) against ``b``, Komabot on its side of the game."""
    jobs = []
    for game in read_games(logs):
        sente = game.komabot_sente()
        if game.variant != a.variant or game.reason != "resignation" or sente is None:
            continue
        if game.komabot_result() == 0.0:
            jobs.append(GameJob(game.variant, a, b, sente, 0, 0, cap, game.moves))
    return jobs


def convert_jobs(
    logs: Sequence[Path], a: PlayerSpec, b: PlayerSpec, cap: int, lead: int
) -> list[GameJob]:
    """The games of ``logs`` that reached the ply cap after Komabot led by at least ``lead``
    centipawns of material (this checkout's piece and square values), each to be played on
    from the first position where it led so with Komabot to move, by ``a`` (Komabot) against
    ``b``, to the same cap: does Komabot now convert its won endings?"""
    evaluator = Evaluator(load_variant(a.variant))
    jobs = []
    for game in read_games(logs):
        sente = game.komabot_sente()
        if game.variant != a.variant or game.reason != "ply cap" or sente is None:
            continue
        found = lead_ply(evaluator, game.moves, sente, lead)
        if found is not None:
            start, _ = found
            jobs.append(GameJob(game.variant, a, b, sente, 0, 0, cap, game.moves[:start]))
    return jobs


def lead_ply(
    evaluator: Evaluator,
    moves: Sequence[str],
    sente: bool,
    lead: int,
    first: int = 0,
    out_of_check: bool = False,
) -> tuple[int, int] | None:
    """The first ply (from ``first`` on) before which the side (``sente`` or gote) is to move
    (not in check, if ``out_of_check``) and ahead by at least ``lead`` in material
    (``evaluator``'s piece and square values), and its lead there; None when it never is."""
    pos = Position.start(evaluator.variant)
    side = SENTE if sente else GOTE
    for ply, text in enumerate(moves):
        if pos.side == side and ply >= first:
            material = evaluator.material(pos)
            ahead = material if sente else -material
            if ahead >= lead and not (out_of_check and pos.is_check()):
                return ply, ahead
        pos.push_usi(text)
    return None


def run_jobs(
    jobs: list[GameJob], workers: int, verbose: bool = True, log: Path | None = None
) -> list[GameRecord]:
    def show(job: GameJob, rec: GameRecord) -> None:
        if log is not None:
            append_game(log, job.a.label, job.b.label, job.variant, dataclasses.asdict(rec))
        if verbose:
            side = "sente" if rec.a_sente else "gote"
            print(
                f"  {job.a.label} ({side}) vs {job.b.label}: {_result_text(rec.result)} "
                f"after {rec.plies} plies ({rec.reason}); crashes {rec.crashes}",
                flush=True,
            )

    return play_each(run_job, jobs, workers, show)


Job = TypeVar("Job")


def play_each(
    play: Callable[[Job], GameRecord],
    jobs: Sequence[Job],
    workers: int,
    show: Callable[[Job, GameRecord], None],
) -> list[GameRecord]:
    """``play`` each job, in this process or in ``workers`` spawned ones (``play`` then a
    module-level function), in order, ``show``-ing each record as it comes."""
    if workers <= 1:
        out = []
        for job in jobs:
            rec = play(job)
            show(job, rec)
            out.append(rec)
        return out
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        records = []
        for job, rec in zip(jobs, pool.imap(play, jobs), strict=True):
            show(job, rec)
            records.append(rec)
        return records


def _result_text(result: float | None) -> str:
    return (
        {1.0: "won", 0.5: "drawn", 0.0: "lost"}.get(result, "aborted")
        if result is not None
        else "aborted"
    )


def _mean(values: list[int]) -> str:
    return f"{sum(values) / len(values):.1f}" if values else "-"


def summary(a_label: str, b_label: str, records: list[GameRecord]) -> str:
    """The results table of one match, from ``a``'s view."""
    played = [r for r in records if r.result is not None]
    wins = sum(1 for r in played if r.result == 1.0)
    draws = sum(1 for r in played if r.result == 0.5)
    losses = sum(1 for r in played if r.result == 0.0)
    capped = sum(1 for r in played if r.reason == "ply cap")
    on_board = [r for r in played if r.decided_on_board]
    board_points = sum(r.result or 0.0 for r in on_board)
    points = sum(r.result or 0.0 for r in played)
    aborted = [r for r in records if r.result is None]
    depth_a = [d for r in records for d in r.depths["a"]]
    depth_b = [d for r in records for d in r.depths["b"]]
    nodes_a = [n for r in records for n in r.nodes["a"]]
    nodes_b = [n for r in records for n in r.nodes["b"]]
    ms_a = [n for r in records for n in r.ms["a"]]
    ms_b = [n for r in records for n in r.ms["b"]]
    lines = [
        f"| {a_label} vs {b_label} | games | W | D | L | score | on the board | "
        f"at {MAX_PLIES} plies | aborted | crashes | illegal by {a_label} |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        f"| | {len(records)} | {wins} | {draws} | {losses} | "
        f"{points:g}/{len(played)} ({100 * points / max(1, len(played)):.0f}%) | "
        f"{board_points:g}/{len(on_board)} ({100 * board_points / max(1, len(on_board)):.0f}%) | "
        f"{capped} | {len(aborted)} | {sum(r.crashes for r in records)} | "
        f"{sum(r.a_illegal for r in records)} |",
        "",
        f"opponent moves cut short by a crash (its best move so far): "
        f"{sum(r.cut_moves for r in records)}, searched again with a depth cap after a crash: "
        f"{sum(r.capped_moves for r in records)}; "
        f"average depth {a_label} {_mean(depth_a)}, {b_label} {_mean(depth_b)}; "
        f"average nodes a move {a_label} {_mean(nodes_a)}, {b_label} {_mean(nodes_b)}; "
        f"average ms a move (wall clock) {a_label} {_mean(ms_a)}, {b_label} {_mean(ms_b)}",
    ]
    reasons: dict[str, int] = {}
    for r in aborted:
        reasons[r.reason.split(":")[0]] = reasons.get(r.reason.split(":")[0], 0) + 1
    for reason, n in sorted(reasons.items()):
        lines.append(f"aborted: {n} x {reason}")
    return "\n".join(lines)


# --- round robin ---------------------------------------------------------------------------


def parse_levels(text: str) -> list[int]:
    if "-" in text:
        low, high = text.split("-", 1)
        return list(range(int(low), int(high) + 1))
    return [int(t) for t in text.split(",")]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("opponent", choices=(*OPPONENT_VARIANTS, "levels", "rate", "ab"))
    p.add_argument("--variant", help="levels and ab modes: shogi, wa or wa-drops (default wa)")
    p.add_argument("--base", type=Path, help="ab mode: the other checkout's directory")
    p.add_argument("--candidate", type=Path, help="ab mode: a checkout to play instead of this one")
    p.add_argument("--level", type=int, default=8, help="Komabot's level (default 8)")
    p.add_argument("--levels", default="1-8", help="levels mode: 1-8 or 1,4,8")
    p.add_argument(
        "--span",
        type=int,
        default=0,
        help="levels mode: only pairs at most this many levels apart (0: every pair)",
    )
    p.add_argument("--movetime", type=int, default=500, help="Komabot's ms a move (500)")
    p.add_argument(
        "--nodes", type=int, default=0, help="Komabot: nodes a move instead of a time (levels)"
    )
    p.add_argument("--opponent-movetime", type=int, help="the opponent's ms a move (same)")
    p.add_argument(
        "--opponent-depth",
        type=int,
        default=0,
        help="hachu: its depth a move (xboard sd, untimed) instead of a time",
    )
    p.add_argument(
        "--opponent-command",
        metavar="PATH",
        help="hachu, crazywa, fairy: the engine's program instead of the Debian package's",
    )
    p.add_argument("--skill", type=int, default=6, help="Fairy-Stockfish Skill Level (6)")
    p.add_argument("--games", type=int, default=10, help="games (levels mode: per pair)")
    p.add_argument("--opening-plies", type=int, default=4, help="random plies a pair (4)")
    p.add_argument("--max-plies", type=int, default=MAX_PLIES)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--log", type=Path, help="write each game (moves, result) as a JSON line")
    p.add_argument(
        "--play-on",
        type=Path,
        nargs="+",
        metavar="LOG",
        help="hachu, crazywa, fairy: instead of new games, the games of these --log files that "
        "Komabot resigned, played on from there with resigning off",
    )
    p.add_argument(
        "--convert",
        type=Path,
        nargs="+",
        metavar="LOG",
        help="hachu, crazywa, fairy: instead of new games, the games of these --log files that "
        "reached the ply cap after Komabot led by --lead, played on from where it first did",
    )
    p.add_argument(
        "--lead",
        type=int,
        default=1500,
        help="--convert: Komabot's lead in material, centipawns (1500)",
    )
    p.add_argument("logs", nargs="*", type=Path, help="rate mode: --log files of levels games")
    args = p.parse_args(argv)
    if args.opponent_command and args.opponent not in OPPONENT_VARIANTS:
        p.error("--opponent-command is for hachu, crazywa and fairy")
    if args.opponent == "rate":
        variants, results = results_from_logs(args.logs)
        levels = levels_played(parse_levels(args.levels), results)
        if not levels:
            print(f"no games between two of the levels {args.levels} in the logs given")
            return 1
        rated = games_between(levels, results)
        print(f"{', '.join(sorted(variants))}: {rated} games between the levels rated")
        print(ratings_table(levels, results))
        print()
        print(search_table(levels, search_from_logs(args.logs)))
        return 0
    started = time.monotonic()
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"# {now}, {multiprocessing.cpu_count()} CPUs, workers {args.workers}")
    if args.opponent == "levels":
        variant = args.variant or "wa"
        levels = parse_levels(args.levels)
        jobs = []
        for x_index, x in enumerate(levels):
            for y in levels[x_index + 1 :]:
                if args.span and abs(y - x) > args.span:
                    continue
                a = PlayerSpec("komabot", variant, args.movetime, level=x, nodes=args.nodes)
                b = PlayerSpec("komabot", variant, args.movetime, level=y, nodes=args.nodes)
                jobs += pair_jobs(
                    variant,
                    a,
                    b,
                    args.games,
                    args.seed + x * 100 + y,
                    args.opening_plies,
                    args.max_plies,
                )
        records = run_jobs(jobs, args.workers, log=args.log)
        results: dict[tuple[int, int], tuple[float, int]] = {}
        searched: SearchStats = {}
        for job, rec in zip(jobs, records, strict=True):
            add_search(searched, job.a.level, rec.depths["a"], rec.nodes["a"])
            add_search(searched, job.b.level, rec.depths["b"], rec.nodes["b"])
            if rec.result is None:
                continue
            add_game(results, job.a.level, job.b.level, rec.result)
        budget = f"{args.nodes} nodes" if args.nodes else f"{args.movetime} ms"
        span = f"levels at most {args.span} apart" if args.span else "every pair"
        print(
            f"\n{variant}, {budget} a move (each level uses its share), {args.games} games a "
            f"pair, {span}, {args.opening_plies} random plies a pair"
        )
        print(ratings_table(levels, results))
        print()
        print(search_table(levels, searched))
    else:
        if args.opponent == "ab":
            if args.base is None or not (args.base / "engine" / "search.py").is_file():
                p.error("ab needs --base: a directory holding another checkout's engine/")
            variant = args.variant or "wa"
            a = PlayerSpec("komabot", variant, args.movetime, level=args.level, nodes=args.nodes)
            b = dataclasses.replace(a, root=str(args.base.resolve()))
        else:
            variant = OPPONENT_VARIANTS[args.opponent]
            a = PlayerSpec("komabot", variant, args.movetime, level=args.level, nodes=args.nodes)
            if args.opponent_depth and args.opponent != "hachu":
                p.error("--opponent-depth is for hachu")
            b = PlayerSpec(
                args.opponent,
                variant,
                args.opponent_movetime or args.movetime,
                skill=args.skill,
                depth=args.opponent_depth,
                command=(args.opponent_command,) if args.opponent_command else (),
            )
        if args.candidate is not None:
            a = dataclasses.replace(a, root=str(args.candidate.resolve()))
        if args.play_on and args.convert:
            p.error("--play-on and --convert are different matches: give one")
        if args.convert:
            if args.opponent == "ab":
                p.error("--convert is for hachu, crazywa and fairy")
            jobs = convert_jobs(args.convert, a, b, args.max_plies, args.lead)
            print(
                f"{len(jobs)} games at the cap that Komabot led by {args.lead} or more, "
                "played on from where it first did"
            )
        elif args.play_on:
            if args.opponent == "ab":
                p.error("--play-on is for hachu, crazywa and fairy")
            a = dataclasses.replace(a, resign=False)
            jobs = play_on_jobs(args.play_on, a, b, args.max_plies)
            print(f"{len(jobs)} games that Komabot resigned, played on without resigning")
        else:
            jobs = pair_jobs(
                variant, a, b, args.games, args.seed, args.opening_plies, args.max_plies
            )
        records = run_jobs(jobs, args.workers, log=args.log)
        budget_a = f"{a.nodes} nodes" if a.nodes else f"{a.movetime_ms} ms"
        budget_b = (
            f"{b.nodes} nodes"
            if b.nodes
            else f"depth {b.depth} (untimed)"
            if b.depth
            else f"{b.movetime_ms} ms"
        )
        start = (
            f"from where Komabot first led by {args.lead} in games that reached the cap"
            if args.convert
            else "from where Komabot resigned, not resigning"
            if args.play_on
            else f"{args.opening_plies} random plies a pair"
        )
        print(
            f"\n{variant}: {a.label} at {budget_a} a move vs {b.label} at {budget_b} a move, "
            f"{start}"
        )
        print(summary(a.label, b.label, records))
    print(f"# {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
