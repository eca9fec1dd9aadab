"""``komabot puzzles build`` and ``komabot puzzles check``: the mate problem collections."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from puzzles.settings import MiningSettings
from rules import available_variants

if TYPE_CHECKING:
    from puzzles.puzzle import Puzzle
    from rules.records import GameRecord

ORDER = 60


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("puzzles", help="build or check the mate problem collections")
    sub = p.add_subparsers(dest="puzzles_command", metavar="ACTION", required=True)
    defaults = MiningSettings()

    b = sub.add_parser(
        "build",
        help="mine proven mate problems from engine self-play (and records); the same "
        "arguments give the same file",
    )
    b.add_argument("--variant", required=True, help="variant id (see: komabot variants)")
    b.add_argument("--count", type=int, required=True, help="how many puzzles (1 or more)")
    b.add_argument("--seed", type=int, required=True, help="seed of the self-play games")
    b.add_argument("--out", type=Path, required=True, help="the JSON-lines file to write")
    b.add_argument("--records", nargs="*", type=Path, default=[], help="game records to mine first")
    b.add_argument(
        "--max-mate",
        type=int,
        default=defaults.max_plies,
        help=f"longest mate in plies, odd (default {defaults.max_plies})",
    )
    b.add_argument(
        "--node-limit",
        type=int,
        default=defaults.node_limit,
        help=f"prover nodes per position (default {defaults.node_limit})",
    )
    b.add_argument(
        "--level",
        type=int,
        default=defaults.level,
        help=f"self-play engine level 1-8 (default {defaults.level})",
    )
    b.add_argument(
        "--engine-nodes",
        type=int,
        default=defaults.engine_nodes,
        help=f"self-play engine nodes per move (default {defaults.engine_nodes})",
    )
    b.add_argument(
        "--tail-plies",
        type=int,
        default=defaults.tail_plies,
        help=f"a game's last plies searched for the winner's mates (default {defaults.tail_plies})",
    )
    b.add_argument(
        "--per-game",
        type=int,
        default=defaults.per_game,
        help=f"most puzzles kept from one game (default {defaults.per_game})",
    )
    b.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="worker processes playing the self-play games (the file does not depend on it)",
    )
    b.add_argument(
        "--max-games", type=int, default=100_000, help="stop after this many self-play games"
    )
    b.add_argument(
        "--log",
        type=Path,
        help="append each puzzle to this file as it is found (the first K lines, sorted, "
        "are what --count K gives)",
    )
    b.add_argument(
        "--resume",
        type=Path,
        help="the --log of an interrupted run with the same arguments: go on from there "
        "(self-play only; the file is the same as without the interruption)",
    )
    b.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    b.set_defaults(func=cmd_build)

    c = sub.add_parser("check", help="prove every puzzle of a file again")
    c.add_argument("file", type=Path)
    c.set_defaults(func=cmd_check)


def _fail(message: str) -> int:
    print(f"komabot puzzles: {message}", file=sys.stderr)
    return 2


def _records(paths: list[Path], variant_id: str) -> Iterator[tuple[str, GameRecord]]:
    from rules.records import RecordError, import_record

    for path in paths:
        record = import_record(path.read_bytes(), path.name)
        if record.variant != variant_id:
            raise RecordError(
                f"{path.name} is a {record.variant} game, not {variant_id}",
                code="record_variant",
            )
        yield path.name, record


def mining_settings(args: argparse.Namespace) -> MiningSettings:
    """The miner's settings a ``puzzles build`` command line gives."""
    return MiningSettings(
        max_plies=args.max_mate,
        node_limit=args.node_limit,
        level=args.level,
        engine_nodes=args.engine_nodes,
        tail_plies=args.tail_plies,
        per_game=args.per_game,
    )


def cmd_build(args: argparse.Namespace) -> int:
    # imported here: the other komabot commands start without the miner and its engine
    from puzzles.collection import CollectionError, dump, load
    from puzzles.miner import mine
    from rules.records import RecordError

    if args.variant not in available_variants():
        return _fail(f"unknown variant {args.variant!r} (one of {', '.join(available_variants())})")
    if args.count < 1:
        return _fail("--count must be 1 or more")
    if args.max_mate < 1 or args.max_mate % 2 == 0:
        return _fail("--max-mate must be an odd number of plies (1, 3, 5...)")
    if min(args.node_limit, args.engine_nodes, args.tail_plies, args.per_game, args.jobs) < 1:
        return _fail(
            "--node-limit, --engine-nodes, --tail-plies, --per-game and --jobs must be 1 or more"
        )
    if not 1 <= args.level <= 8:
        return _fail("--level must be 1 to 8")
    for path in args.records:
        if not path.is_file():
            return _fail(f"no record file {path}")
    settings = mining_settings(args)
    resume: list[Puzzle] = []
    if args.resume is not None:
        if args.records:
            return _fail("--resume goes on with self-play only: give no --records")
        try:
            resume = load(args.resume)
        except CollectionError as exc:
            return _fail(str(exc))
    log = args.log.open("a" if args.resume is None else "w", encoding="utf-8") if args.log else None

    def progress(source: str, found: int) -> None:
        if not args.quiet:
            print(f"{source}: {found}/{args.count} puzzles", file=sys.stderr, flush=True)

    try:
        puzzles = mine(
            args.variant,
            args.count,
            args.seed,
            settings,
            _records(args.records, args.variant),
            on_game=progress,
            max_games=args.max_games,
            jobs=args.jobs,
            resume=resume,
            on_puzzle=(lambda p: (log.write(p.to_json() + "\n"), log.flush())) if log else None,
        )
    except (RecordError, OSError, ValueError) as exc:
        return _fail(str(exc))
    finally:
        if log is not None:
            log.close()
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(dump(puzzles), encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror or exc}")
    lengths: dict[int, int] = {}
    for p in puzzles:
        lengths[p.mate_in] = lengths.get(p.mate_in, 0) + 1
    summary = ", ".join(f"{n} mate in {k}" for k, n in sorted(lengths.items()))
    print(f"{len(puzzles)} puzzles written to {args.out} ({summary})")
    return 0 if len(puzzles) >= args.count else 1


def cmd_check(args: argparse.Namespace) -> int:
    from puzzles.collection import CollectionError, check, load

    try:
        puzzles = load(args.file)
    except CollectionError as exc:
        return _fail(str(exc))
    bad = 0
    seen: set[str] = set()
    for puzzle in puzzles:
        problems = check(puzzle)
        if puzzle.id in seen:
            problems.append("the same position appears twice")
        seen.add(puzzle.id)
        for problem in problems:
            print(f"{puzzle.id}: {problem}")
        bad += bool(problems)
    print(f"{len(puzzles) - bad} of {len(puzzles)} puzzles proven")
    return 1 if bad else 0
