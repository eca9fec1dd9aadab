"""Searches at a fixed depth whose answers a change meant only for speed must not alter:
positions of seeded middle games, each with the move, score and node count the engine gave.

The positions and answers live in ``data/fixed_depth.json``.  A change that is meant to alter
the search (ordering, pruning, evaluation) changes them: record them again with

    .venv/bin/python tests/engine/fixed_depth.py

and say so in the commit message.  A change meant only for speed leaves the file untouched.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __name__ == "__main__":  # run as a script: import the packages of this repository
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Engine, Limits
from rules import Position, load_variant

DATA = Path(__file__).resolve().parent / "data" / "fixed_depth.json"


@dataclass(frozen=True)
class Answer:
    """What the engine (default level, a fresh 16 MB table) found at ``depth``."""

    variant: str
    moves: tuple[str, ...]  # USI, from the start position
    depth: int
    best: str | None
    score: int
    nodes: int


def search(variant_id: str, moves: tuple[str, ...], depth: int) -> Answer:
    variant = load_variant(variant_id)
    pos = Position.start(variant)
    for move in moves:
        pos.push_usi(move)
    result = Engine(variant, hash_mb=16).think(pos, limits=Limits(depth=depth))
    return Answer(variant_id, moves, depth, result.best_move, result.score, result.nodes)


def recorded() -> list[Answer]:
    rows = json.loads(DATA.read_text(encoding="utf-8"))
    return [Answer(**{**row, "moves": tuple(row["moves"])}) for row in rows]


def record() -> None:
    """Search the recorded positions again and write what the engine answers now."""
    answers = [search(a.variant, a.moves, a.depth) for a in recorded()]
    text = json.dumps([asdict(a) for a in answers], indent=1)
    DATA.write_text(text + "\n", encoding="utf-8")
    for a in answers:
        print(f"{a.variant:9} depth {a.depth}: {a.best} {a.score:+d} ({a.nodes} nodes)")


if __name__ == "__main__":
    record()
