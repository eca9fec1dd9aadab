"""A one-puzzle collection the puzzle tests solve, fail, hint and reveal: a Standard Shogi
mate in 3 (mined once into the shipped collection, kept here as it was, so that the tests do
not change when the collection is built again), where a dragon check lets the king escape."""

from __future__ import annotations

from pathlib import Path

from bot.core.puzzle_book import PuzzleBook
from puzzles.collection import parse_line
from puzzles.puzzle import Puzzle

PUZZLE_ID = "shogi-93f5b4fd4d"
"""1n1gkr1nl/l5sb1/pps+R+B1p2/8p/9/PPP6/L2PPPPSP/1SG1K4/1N2G2NL b G6P: G*5b, Kx5b (6a5b),
+Rx5b (5c5b) mate.  6c6a is check, but the king walks away; 5g5f is no check at all."""
KEY = "G*5b"
DEFENCE = "6a5b"
MATE = "5c5b"
ESCAPING_CHECK = "6c6a"
QUIET = "5g5f"
LINE = (
    '{"id":"shogi-93f5b4fd4d","variant":"shogi","sfen":"1n1gkr1nl/l5sb1/pps+R+B1p2/8p'
    '/9/PPP6/L2PPPPSP/1SG1K4/1N2G2NL b G6P 1","side":"sente","mate_in":3,"solution":['
    '"G*5b","6a5b","5c5b"],"defences":1,"defences_total":1,"checks":9,"difficulty":3,'
    '"source":"selfplay:1:119:48","grade":"mate-in-3"}'
)
"""The puzzle as a line of a collection file."""


def the_puzzle() -> Puzzle:
    """The puzzle of :data:`LINE`."""
    return parse_line(LINE, "tests/bot/core/puzzle_fixtures.py")


def one_puzzle_book(tmp: Path) -> PuzzleBook:
    """A book holding only :data:`PUZZLE_ID`, written to ``tmp``."""
    line = the_puzzle().to_json()
    folder = tmp / "puzzles"
    folder.mkdir(exist_ok=True)
    (folder / "shogi.jsonl").write_text(line + "\n", encoding="utf-8")
    return PuzzleBook(folder)
