"""Repetition in the search: when a position met again on the path ends the line.

The rules core ends a game at the fourth occurrence (the variant's count).  Inside the search
a position that occurred before *since the root* is judged at once, as either side can repeat
the cycle until the count is reached: a draw, unless one side gave check with every one of its
moves since the earlier occurrence and the variant says perpetual check loses, in which case
that side has lost.  A position whose earlier occurrences are all in the game before the root
is not the end yet (the players chose other moves since; nothing forces them back): the search
goes on, unless this occurrence reaches the variant's count, when the rules end the game.
"""

from __future__ import annotations

from engine.scores import DRAW, RULE_WIN


def earlier_occurrence(hashes: list[int]) -> int:
    """The index of the latest earlier occurrence of the last position of ``hashes`` (the
    same side to move: every second entry back), -1 when there is none."""
    n = len(hashes) - 1
    key = hashes[n]
    j = n - 2
    while j >= 0 and hashes[j] != key:
        j -= 2
    return j


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
