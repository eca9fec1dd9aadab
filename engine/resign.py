"""When the engine gives up: its score has been hopeless for a few of its moves in a row."""

from __future__ import annotations

from collections.abc import Sequence

from engine.values import PieceValues
from rules import Variant

RESIGN_AFTER = 3  # own moves in a row at or below the threshold


def resign_threshold(variant: Variant, values: PieceValues) -> int:
    """Twice the value of the strongest unpromoted piece of the variant, in centipawns (about
    two rooks down in Standard Shogi): a deficit no engine level recovers from."""
    return 2 * max(values.board[p.kind] for p in variant.pieces if not p.promoted and not p.royal)


def should_resign(scores: Sequence[int], threshold: int, moves: int = RESIGN_AFTER) -> bool:
    """``scores``: the engine's own scores (centipawns, its side's view, mates as large
    negative numbers) for its latest moves, oldest first, the current one last."""
    recent = list(scores[-moves:])
    return len(recent) == moves and all(score <= -threshold for score in recent)
