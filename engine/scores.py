"""Score conventions shared by the search, the API and USI."""

from __future__ import annotations

from typing import Final

MATE: Final = 32000  # mated now: -MATE; mate in n plies: MATE - n
MATE_BOUND: Final = MATE - 1000  # scores beyond this are mates
RULE_WIN: Final = 30000  # a win by the repetition rule (the other side checked perpetually)
RULE_BOUND: Final = RULE_WIN - 1000  # scores beyond this (and below MATE_BOUND) are rule wins
INFINITE: Final = 32767
DRAW: Final = 0


def mate_plies(score: int) -> int | None:
    """Plies to mate (positive: the side to move mates; negative: it is mated), or None."""
    if score >= MATE_BOUND:
        return MATE - score
    if score <= -MATE_BOUND:
        return -(MATE + score)
    return None


def is_decisive(score: int) -> bool:
    """A mate or a win by rule, rather than an estimate."""
    return abs(score) >= RULE_BOUND
