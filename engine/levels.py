"""Playing levels 1-8: how deep, how much of the budget, how much randomness."""

from __future__ import annotations

from dataclasses import dataclass

MAX_DEPTH = 64
LOWEST = 1
HIGHEST = 8


@dataclass(frozen=True)
class Level:
    """``choice_cp``: the level scores every root move and chooses at random among those
    within this much of the best that give no material away (``engine/choice.py``), 0 for
    the best move; ``budget_share``: the part of the time or node budget used; ``resigns``:
    whether the engine may give up a lost game; ``mate_plies``: the longest checks-only mate
    (in plies) looked for before the main search, 0 for none."""

    number: int
    max_depth: int
    budget_share: float
    choice_cp: int
    resigns: bool
    mate_plies: int = 0


# Levels 1-5 read as many plies as their number (level 1 only its own move and the captures
# that follow it, so it misses forks and two-move tactics); levels 1-4 choose loosely among
# the moves that look about as good (less than a pawn from the best), never one that hangs a
# piece by the static exchange; they stop at their depth, well inside their share of the
# budget (it only bounds them on a slow machine).  Levels 6-8 differ in the share of the
# budget they use (1.6 times more a level: about a ply deeper every two levels).
LEVELS: dict[int, Level] = {
    1: Level(1, max_depth=1, budget_share=0.30, choice_cp=80, resigns=False),
    2: Level(2, max_depth=2, budget_share=0.30, choice_cp=60, resigns=False),
    3: Level(3, max_depth=3, budget_share=0.30, choice_cp=40, resigns=False, mate_plies=1),
    4: Level(4, max_depth=4, budget_share=0.30, choice_cp=20, resigns=False, mate_plies=3),
    5: Level(5, max_depth=5, budget_share=0.30, choice_cp=0, resigns=True, mate_plies=3),
    6: Level(6, max_depth=MAX_DEPTH, budget_share=0.40, choice_cp=0, resigns=True, mate_plies=3),
    7: Level(7, max_depth=MAX_DEPTH, budget_share=0.63, choice_cp=0, resigns=True, mate_plies=5),
    8: Level(8, max_depth=MAX_DEPTH, budget_share=1.0, choice_cp=0, resigns=True, mate_plies=7),
}


def level(number: int) -> Level:
    """The settings of level ``number`` (1 weakest to 8 strongest); ValueError otherwise."""
    found = LEVELS.get(number)
    if found is None:
        raise ValueError(f"level {number!r} does not exist: choose {LOWEST} to {HIGHEST}")
    return found
