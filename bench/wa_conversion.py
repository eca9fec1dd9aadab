"""Wa: does the side ahead convert?  Won endgames played out by Komabot against itself, or
against HaChu defending.

Issue 27 wants fewer than 1 Wa game in 10 to reach the 400-ply cap: a side well ahead must
mate, not shuffle.  This bench measures exactly that, independently of the machine's load:

- ``pick`` reads games (``bench/match.py --log`` files, or any JSON lines with ``variant``
  and USI ``moves``) and takes from each Wa game the first position where one side leads by
  at least ``--lead`` centipawns of material (the piece values derived from the moves, no
  square terms: a yardstick that tuning the engine's values does not move),
  the material has not changed for the last ``QUIET_PLIES`` plies (no exchange in progress)
  and the side to move is not in check.  Games that reached the ply cap come first (the
  leads that were not converted), then the others in their order.  The positions go to a
  data file as the game's moves up to there, so that the players get the game's history.
  ``--selfplay N`` first plays N games of level 8 against itself (``bench/match.py``'s
  refereed games at ``--nodes``) and picks from those: the whole set from one command.
  ``--capped-from PLY`` picks instead, from each game of Komabot against another engine that
  reached the cap, the first position from that ply on where Komabot, to move and not in
  check, leads by ``--lead`` by its engine's own values (the set
  ``data/bench/wa_conversion_capped.jsonl``: the HaChu logs kept before engine (o)'s, as in
  the command below, ``--lead 1500 --capped-from 100``).
- ``play`` plays each position out, level 8 against itself at ``--nodes`` a move (fixed
  nodes: the load changes nothing but the wall time), for at most ``--plies`` plies, with
  this checkout's engine (or ``--candidate DIR``) and, in the same run, ``--base DIR`` (for
  example ``git archive main | tar -x -C /tmp/base``) as the reference.  It prints, from the
  leading side's view: converted (a win), drawn at the cap, drawn otherwise, lost, and the
  plies the conversions took.  Neither side resigns unless ``--resign`` is given: a win is
  a mate, whatever scale an engine's scores have (an engine whose evaluation scores a won
  ending higher would otherwise resign sooner against itself, which is no conversion).
- ``play --defender-depth N`` lets HaChu (Debian's ``hachu``, searching to depth ``N``,
  untimed) defend instead: Komabot against itself converts against a defender that plays
  as Komabot does, which is not how HaChu defends (two games against HaChu still undecided
  at the 400-ply cap, Komabot far ahead: from their last positions Komabot mated itself in
  23 plies).  HaChu's illegal moves (it sometimes leaves its king in check) abort the game,
  counted apart; HaChu may resign (a conversion, not counted as a mate).

    .venv/bin/python bench/wa_conversion.py pick /tmp/ab.jsonl --count 12
    .venv/bin/python bench/wa_conversion.py pick data/bench/hachu/2026-11-26*.jsonl \
        data/bench/hachu/2026-11-30/*.jsonl \
        data/bench/hachu/2026-12-07/{engine-n,king-advance,ride-mobility}-*.jsonl \
        --lead 1500 --capped-from 100 --data data/bench/wa_conversion_capped.jsonl
    .venv/bin/python bench/wa_conversion.py pick --selfplay 24 --nodes 2000 --count 12
    .venv/bin/python bench/wa_conversion.py play --base /tmp/base --nodes 3000 --workers 2
    .venv/bin/python bench/wa_conversion.py play --defender-depth 5 --nodes 12000 --workers 2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.match import (  # noqa: E402
    GameRecord,
    PlayerSpec,
    lead_ply,
    opening_of,
    pair_jobs,
    play_each,
    play_game,
    run_jobs,
)
from bench.match_log import LoggedGame, append_game, read_games  # noqa: E402
from bench.match_players import Player  # noqa: E402
from bench.wa_suite import material, material_line  # noqa: E402
from engine.evaluation import Evaluator  # noqa: E402
from engine.resign import two_strongest_pieces  # noqa: E402
from engine.values import values_for  # noqa: E402
from rules import Position, load_variant  # noqa: E402
from rules.variant import data_dir  # noqa: E402

VARIANT = "wa"
DATA = data_dir() / "bench" / "wa_conversion.jsonl"
LEAD_CP = 700  # the least lead of a picked position
QUIET_PLIES = 4  # the material has not changed for this many plies
FIRST_PLY = 40  # no position from the opening
PLIES = 200  # plies played from each position before the game counts as drawn at the cap


@dataclass(frozen=True)
class Start:
    """One position to convert: the game's moves up to it, and who leads by how much."""

    moves: tuple[str, ...]
    leader: str  # "sente" or "gote"
    lead: int  # centipawns of material
    source: str  # where the game came from


def first_lead(
    moves: Sequence[str], lead: int = LEAD_CP, quiet: int = QUIET_PLIES, first: int = FIRST_PLY
) -> tuple[int, int] | None:
    """The first ply (after ``first``) of a Wa game where one side leads by ``lead`` or more,
    the material unchanged for ``quiet`` plies and the side to move not in check, with the
    lead from sente's view; None when there is none."""
    values = values_for(VARIANT)
    pos = Position.start(load_variant(VARIANT))
    history = [material(pos, values.derived, values.hand)]
    for ply, text in enumerate(moves, start=1):
        pos.push_usi(text)
        history.append(material(pos, values.derived, values.hand))
        now = history[-1]
        steady = len(history) > quiet and all(m == now for m in history[-quiet - 1 :])
        if ply >= first and abs(now) >= lead and steady and not pos.is_check():
            return ply, now
    return None


def pick(games: Sequence[LoggedGame], count: int, lead: int) -> list[Start]:
    """Up to ``count`` positions from the Wa games, one a game (none twice), the games that
    reached the ply cap first."""
    ordered = sorted(
        (game for game in games if game.variant == VARIANT and game.moves),
        key=lambda game: game.reason != "ply cap",
    )
    out: list[Start] = []
    for game in ordered:
        source, moves = game.source, game.moves
        found = first_lead(moves, lead)
        if found is None:
            continue
        ply, now = found
        if any(s.moves == tuple(moves[:ply]) for s in out):
            continue  # the same game so far (the same opening and engines)
        leader = "sente" if now > 0 else "gote"
        out.append(Start(tuple(moves[:ply]), leader, abs(now), source))
        if len(out) == count:
            break
    return out


def pick_capped(games: Sequence[LoggedGame], lead: int, first: int) -> list[Start]:
    """From each Wa game of Komabot against another engine that reached the ply cap (none
    twice), the first position from ply ``first`` on where Komabot is to move, not in
    check, and leads by ``lead`` or more by the engine's own material (its piece and square
    values): the leads that were not converted, played on by the leader as it stood."""
    evaluator = Evaluator(load_variant(VARIANT))
    out: list[Start] = []
    seen: set[tuple[str, ...]] = set()
    for game in games:
        sente = game.komabot_sente()
        if game.variant != VARIANT or game.reason != "ply cap" or sente is None:
            continue
        if game.moves in seen:
            continue
        seen.add(game.moves)
        found = lead_ply(evaluator, game.moves, sente, lead, first, out_of_check=True)
        if found is None:
            continue
        ply, ahead = found
        leader = "sente" if sente else "gote"
        out.append(Start(game.moves[:ply], leader, ahead, f"{game.source}:{ply}"))
    return out


def write_starts(path: Path, starts: Sequence[Start]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for s in starts:
            entry = {"leader": s.leader, "lead": s.lead, "source": s.source, "moves": s.moves}
            out.write(json.dumps(entry) + "\n")


def read_starts(path: Path) -> list[Start]:
    starts = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            e = json.loads(line)
            starts.append(Start(tuple(e["moves"]), e["leader"], e["lead"], e["source"]))
    return starts


# --- playing out -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayJob:
    player: PlayerSpec
    start: Start
    plies: int
    resign: bool = False  # may the players resign (otherwise a game ends by mate or the cap)
    defender: PlayerSpec | None = None  # another engine defends (None: the player itself)


def player_for(job: PlayJob) -> Player:
    return dataclasses.replace(job.player, resign=job.resign).make()


def play_out(job: PlayJob) -> GameRecord:
    """The position played out by the player on the leading side (``a``) against itself or
    the job's defender."""
    variant = load_variant(VARIANT)
    opening = opening_of(variant, job.start.moves)
    leader = player_for(job)
    defender = job.defender.make() if job.defender is not None else player_for(job)
    try:
        cap = len(opening) + job.plies
        return play_game(variant, leader, defender, job.start.leader == "sente", opening, cap)
    finally:
        leader.close()
        defender.close()


def final_lead(start: Start, moves: Sequence[str]) -> int:
    """The leading side's material lead after ``moves`` (the whole game)."""
    lead = material_line(load_variant(VARIANT), moves)[-1]
    return lead if start.leader == "sente" else -lead


@dataclass(frozen=True)
class Tally:
    converted: int
    mates: int  # of the conversions, by checkmate (the others: the defender resigned)
    capped: int
    capped_far_ahead: int  # of those at the cap, with a material lead worth resigning over
    drawn: int
    lost: int
    aborted: int
    plies_to_convert: tuple[int, ...]


def tally(records: Sequence[GameRecord], starts: Sequence[Start]) -> Tally:
    """The outcomes from the leading side's view (``a`` in each record).  A game at the cap
    is "far ahead" when the leader's material lead at its end is at least twice the strongest
    piece (the resign threshold of a game with drops): material won, but no mate."""
    threshold = two_strongest_pieces(load_variant(VARIANT), values_for(VARIANT))
    pairs = list(zip(records, starts, strict=True))
    capped = [(r, s) for r, s in pairs if r.result == 0.5 and r.reason == "ply cap"]
    won = [r.plies - len(s.moves) for r, s in zip(records, starts, strict=True) if r.result == 1]
    return Tally(
        converted=len(won),
        mates=sum(1 for r in records if r.result == 1 and r.reason == "checkmate"),
        capped=len(capped),
        capped_far_ahead=sum(1 for r, s in capped if final_lead(s, r.moves) >= threshold),
        drawn=sum(1 for r in records if r.result == 0.5 and r.reason != "ply cap"),
        lost=sum(1 for r in records if r.result == 0.0),
        aborted=sum(1 for r in records if r.result is None),
        plies_to_convert=tuple(won),
    )


def table(rows: Sequence[tuple[str, Tally]], positions: int, plies: int) -> str:
    lines = [
        f"| engine | positions | converted (mates) | drawn at the cap ({plies} plies; of them "
        "far ahead) | drawn otherwise | lost | aborted | plies to convert (mean, median) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, t in rows:
        done = sorted(t.plies_to_convert)
        mean = f"{sum(done) / len(done):.0f}" if done else "-"
        median = f"{done[len(done) // 2]}" if done else "-"
        share = 100 * t.converted / max(1, positions)
        lines.append(
            f"| {label} | {positions} | {t.converted} ({share:.0f}%; {t.mates})"
            f" | {t.capped}; {t.capped_far_ahead} | {t.drawn} | {t.lost} | {t.aborted}"
            f" | {mean}, {median} |"
        )
    return "\n".join(lines)


def _run(jobs: Sequence[PlayJob], workers: int, log: Path | None) -> list[GameRecord]:
    def show(job: PlayJob, rec: GameRecord) -> None:
        if log is not None:
            label, source = job.player.label, job.start.source
            other = job.defender.label if job.defender is not None else label
            append_game(log, label, other, VARIANT, dataclasses.asdict(rec), source=source)
        outcome = {1.0: "converted", 0.5: "drawn", 0.0: "lost"}.get(rec.result or 0.0, "lost")
        if rec.result is None:
            outcome = "aborted"
        print(
            f"  {job.player.label}: {job.start.source} ({job.start.leader} +{job.start.lead}): "
            f"{outcome} after {rec.plies - len(job.start.moves)} plies ({rec.reason}; "
            f"material lead at the end {final_lead(job.start, rec.moves):+})",
            flush=True,
        )

    return play_each(play_out, jobs, workers, show)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("mode", choices=("pick", "play"))
    p.add_argument("logs", nargs="*", type=Path, help="pick: JSON-lines game logs")
    p.add_argument("--data", type=Path, default=DATA, help=f"the positions ({DATA.name})")
    p.add_argument("--count", type=int, default=12, help="pick: positions (12)")
    p.add_argument("--lead", type=int, default=LEAD_CP, help=f"pick: least lead ({LEAD_CP})")
    p.add_argument(
        "--capped-from",
        type=int,
        metavar="PLY",
        help="pick: from each game against another engine that reached the cap, the first "
        "position from this ply on where Komabot, to move, leads by --lead (its own values); "
        "--count is not used",
    )
    p.add_argument("--selfplay", type=int, default=0, help="pick: play this many games first")
    p.add_argument("--seed", type=int, default=27, help="pick: the self-play openings' seed")
    p.add_argument("--nodes", type=int, default=3000, help="nodes a move (3000)")
    p.add_argument("--plies", type=int, default=PLIES, help=f"play: plies a position ({PLIES})")
    p.add_argument("--base", type=Path, help="play: the reference checkout")
    p.add_argument("--candidate", type=Path, help="play: a checkout to play instead of this one")
    p.add_argument("--first", type=int, default=0, help="play: only the first N positions")
    p.add_argument(
        "--resign", action="store_true", help="play: let the players resign (default: mate)"
    )
    p.add_argument(
        "--defender-depth",
        type=int,
        default=0,
        help="play: HaChu defends, searching to this depth (default: Komabot defends itself)",
    )
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--log", type=Path, help="play: write each game (moves, result) as a JSON line")
    args = p.parse_args(argv)
    started = time.monotonic()
    player = PlayerSpec("komabot", VARIANT, 0, level=8, nodes=args.nodes)
    if args.mode == "pick":
        logs = list(args.logs)
        with tempfile.TemporaryDirectory() as tmp:
            if args.selfplay:
                log = Path(tmp) / "selfplay.jsonl"
                # one game a pair of openings: both sides are the same engine at fixed nodes,
                # so the colours-swapped game of a pair would be the same game
                pairs = pair_jobs(VARIANT, player, player, 2 * args.selfplay, args.seed, 4, 400)
                games = pairs[::2]
                run_jobs(games, args.workers, log=log)
                logs.append(log)
            if args.capped_from is not None:
                starts = pick_capped(read_games(logs), args.lead, args.capped_from)
            else:
                starts = pick(read_games(logs), args.count, args.lead)
        write_starts(args.data, starts)
        print(f"{len(starts)} positions written to {args.data}")
        return 0 if starts else 1
    starts = read_starts(args.data)
    if args.first:
        starts = starts[: args.first]
    players = [replace(player, root=str(args.candidate.resolve())) if args.candidate else player]
    if args.base is not None:
        players.append(replace(player, root=str(args.base.resolve())))
    defender = None
    if args.defender_depth:
        defender = PlayerSpec("hachu", VARIANT, 0, depth=args.defender_depth)
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    against = f", HaChu defending at depth {args.defender_depth}" if defender else ""
    print(
        f"# {now}, {len(starts)} positions, {args.nodes} nodes a move{against}, "
        f"workers {args.workers}"
    )
    jobs = [PlayJob(pl, s, args.plies, args.resign, defender) for s in starts for pl in players]
    records = _run(jobs, args.workers, args.log)
    rows = []
    for index, pl in enumerate(players):
        own = records[index :: len(players)]
        rows.append((pl.label, tally(own, starts)))
    print(table(rows, len(starts), args.plies))
    print(f"# {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
