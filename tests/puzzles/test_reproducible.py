"""The shipped collections are what the commands in docs/developers.md give now: the first
self-play game each file's puzzles come from is played and mined again, with the arguments
the documented command gives, and must give the same lines.

Self-play games come from the engine: a change to its search, evaluation or levels changes
the games, hence the puzzles.  This test is what says so; the files must then be built again
with the documented commands (or the engine change reconsidered)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.cli.puzzle_cmds import mining_settings
from puzzles.collection import collection_path, load
from puzzles.miner import mine
from puzzles.puzzle import Puzzle

DOCS = Path(__file__).resolve().parents[2] / "docs" / "developers.md"
VARIANTS = ("shogi", "wa", "wa-drops")


def documented_builds() -> dict[str, argparse.Namespace]:
    """The ``komabot puzzles build`` command documented for each shipped file, parsed."""
    parser = build_parser()
    text = DOCS.read_text(encoding="utf-8").replace("\\\n", " ")
    found = {}
    for line in text.splitlines():
        if not line.startswith("komabot puzzles build "):
            continue
        words = shlex.split(line)
        variant = words[words.index("--variant") + 1]
        if variant in VARIANTS:
            assert variant not in found, f"two commands build {variant}"
            found[variant] = parser.parse_args(words[1:])
    return found


def _game(puzzle: Puzzle) -> int:
    """The self-play game number of a puzzle's source (``selfplay:<seed>:<game>:...``)."""
    kind, _, game, *_ = puzzle.source.split("/")[0].split(":")
    assert kind == "selfplay", puzzle.source
    return int(game)


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 15 s of CPU in all, much longer on a busy machine
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_first_game_of_a_collection_is_mined_again_the_same(variant: str) -> None:
    args = documented_builds()[variant]
    assert args.out == Path(f"data/puzzles/{variant}.jsonl")
    assert not args.records
    puzzles = load(collection_path(variant))
    assert len(puzzles) == args.count
    first = min(_game(p) for p in puzzles)
    wanted = sorted(p.to_json() for p in puzzles if _game(p) == first)
    # the games before ``first`` gave nothing; ``first`` gives what the file kept of it
    again = mine(variant, args.count, args.seed, mining_settings(args), max_games=first + 1)
    assert sorted(p.to_json() for p in again) == wanted, (
        f"data/puzzles/{variant}.jsonl is not what its command in docs/developers.md gives "
        "now (has the engine's play changed?): build it again"
    )
