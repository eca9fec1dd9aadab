"""When the engine gives up: its score has been hopeless for a few of its moves in a row."""

from __future__ import annotations

from collections.abc import Sequence

from engine.scores import MATE_BOUND
from engine.values import PieceValues
from rules import Variant

RESIGN_AFTER = 3  # own moves in a row at or below the threshold


def two_strongest_pieces(variant: Variant, values: PieceValues) -> int:
    """Twice the value of the strongest unpromoted piece of the variant, in centipawns (about
    two rooks in Standard Shogi, two Flying Falcons in Wa)."""
    return 2 * max(values.board[p.kind] for p in variant.pieces if not p.promoted and not p.royal)


def resign_threshold(variant: Variant, values: PieceValues) -> int:
    """The score at or below whose negative the engine gives up.  With drops: two of the
    strongest pieces down, a deficit no engine level recovers from.  Without drops (Wa): only
    a mate the search has found, since there a lead in material is no win: of 21 games Komabot
    resigned against HaChu two such pieces down, 6 reached the 400-ply cap when played on from
    the resignation (developers' guide, "A faster search, and do the resignations cost
    points?")."""
    if not variant.drops.enabled:
        return MATE_BOUND
    return two_strongest_pieces(variant, values)


def should_resign(scores: Sequence[int], threshold: int, moves: int = RESIGN_AFTER) -> bool:
    """``scores``: the engine's own scores (centipawns, its side's view, mates as large
    negative numbers) for its latest moves, oldest first, the current one last."""
    recent = list(scores[-moves:])
    return len(recent) == moves and all(score <= -threshold for score in recent)
