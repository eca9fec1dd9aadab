"""A one-puzzle collection the puzzle tests solve, fail, hint and reveal: a Standard Shogi
mate in 3 from the shipped collection, where a dragon check lets the king escape."""

from __future__ import annotations

from pathlib import Path

from bot.core.puzzle_book import PuzzleBook
from puzzles.collection import collection_path, load

PUZZLE_ID = "shogi-93f5b4fd4d"
"""1n1gkr1nl/l5sb1/pps+R+B1p2/8p/9/PPP6/L2PPPPSP/1SG1K4/1N2G2NL b G6P: G*5b, Kx5b (6a5b),
+Rx5b (5c5b) mate.  6c6a is check, but the king walks away; 5g5f is no check at all."""
KEY = "G*5b"
DEFENCE = "6a5b"
MATE = "5c5b"
ESCAPING_CHECK = "6c6a"
QUIET = "5g5f"


def one_puzzle_book(tmp: Path) -> PuzzleBook:
    """A book holding only :data:`PUZZLE_ID`, written to ``tmp``."""
    line = next(p for p in load(collection_path("shogi")) if p.id == PUZZLE_ID).to_json()
    folder = tmp / "puzzles"
    folder.mkdir(exist_ok=True)
    (folder / "shogi.jsonl").write_text(line + "\n", encoding="utf-8")
    return PuzzleBook(folder)
