"""The transposition table: what earlier searches found about a position, by Zobrist hash.

A plain dict from ``Position.hash`` to ``(depth, bound, score, best move)``.  Mate scores are
stored relative to the position (plies to mate from there), not to the root.  When full it is
emptied and fills again: simple, and a table sized by ``USI_Hash`` rarely fills within a move.
"""

from __future__ import annotations

from typing import Final

from engine.scores import MATE_BOUND
from rules import Move

# the score is exact, at least, at most
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
# entries a megabyte buys (a Python dict slot and its tuple: ~250 bytes)
ENTRIES_PER_MB: Final = 4096
Entry = tuple[int, int, int, Move | None]


class TranspositionTable:
    def __init__(self, megabytes: int) -> None:
        self.entries: dict[int, Entry] = {}
        self.limit = 1
        self.resize(megabytes)

    def resize(self, megabytes: int) -> None:
        self.limit = max(1024, megabytes * ENTRIES_PER_MB)
        if len(self.entries) > self.limit:
            self.entries.clear()

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)

    def store(
        self, key: int, depth: int, score: int, bound: int, ply: int, move: Move | None
    ) -> None:
        """Remember a result found ``ply`` plies from the root."""
        if score >= MATE_BOUND:
            score += ply
        elif score <= -MATE_BOUND:
            score -= ply
        entries = self.entries
        if len(entries) >= self.limit and key not in entries:
            entries.clear()
        entries[key] = (depth, bound, score, move)

    def best_move(self, key: int) -> Move | None:
        entry = self.entries.get(key)
        return entry[3] if entry is not None else None


def score_from_table(score: int, ply: int) -> int:
    """A stored score as seen from a node ``ply`` plies from the root."""
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score
