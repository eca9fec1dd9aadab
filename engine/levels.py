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


# The weak levels are weak as a beginner is: they read little (levels 1-2 only their own
# move and the captures that follow it, so they miss forks and two-move tactics) and choose
# loosely among moves that look about as good, always below the value of a pawn, and never
# one that hangs a piece by the static exchange.
LEVELS: dict[int, Level] = {
    1: Level(1, max_depth=1, budget_share=0.05, choice_cp=80, resigns=False),
    2: Level(2, max_depth=1, budget_share=0.10, choice_cp=50, resigns=False),
    3: Level(3, max_depth=2, budget_share=0.15, choice_cp=40, resigns=False, mate_plies=1),
    4: Level(4, max_depth=3, budget_share=0.25, choice_cp=25, resigns=False, mate_plies=1),
    5: Level(5, max_depth=4, budget_share=0.35, choice_cp=10, resigns=True, mate_plies=3),
    6: Level(6, max_depth=5, budget_share=0.50, choice_cp=0, resigns=True, mate_plies=3),
    7: Level(7, max_depth=8, budget_share=0.75, choice_cp=0, resigns=True, mate_plies=5),
    8: Level(8, max_depth=MAX_DEPTH, budget_share=1.0, choice_cp=0, resigns=True, mate_plies=7),
}


def level(number: int) -> Level:
    """The settings of level ``number`` (1 weakest to 8 strongest); ValueError otherwise."""
    found = LEVELS.get(number)
    if found is None:
        raise ValueError(f"level {number!r} does not exist: choose {LOWEST} to {HIGHEST}")
    return found
