"""Repetition in the search: a position met again on the path is judged by the rule at once.

The rules core ends a game at the fourth occurrence; the search cannot look that far, so it
treats the second occurrence on the path (the game's moves and the search's) as the end:
a draw, unless one side gave check with every one of its moves since the earlier occurrence
and the variant says perpetual check loses, in which case that side has lost.
"""

from __future__ import annotations

from engine.scores import DRAW, RULE_WIN


def repetition_score(
    hashes: list[int], checks: list[bool], perpetual_check_loses: bool, ply: int
) -> int:
    """The score for the side to move of the last position of ``hashes``, which occurred
    before.  ``checks[i]``: the move into position ``i`` gave check.  ``ply``: plies from the
    root (a win by rule sooner is better)."""
    n = len(hashes) - 1
    key = hashes[n]
    j = n - 2
    while j >= 0 and hashes[j] != key:
        j -= 2
    if j < 0 or not perpetual_check_loses:
        return DRAW
    they_checked = all(checks[i] for i in range(n, j, -2))  # the side that just moved
    we_checked = all(checks[i] for i in range(n - 1, j, -2))
    if they_checked and not we_checked:
        return RULE_WIN - ply
    if we_checked and not they_checked:
        return -(RULE_WIN - ply)
    return DRAW
