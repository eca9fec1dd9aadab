"""Playing levels 1-8: how deep, how much of the budget, how much randomness."""

from __future__ import annotations

from dataclasses import dataclass

MAX_DEPTH = 64
LOWEST = 1
HIGHEST = 8


@dataclass(frozen=True)
class Level:
    """``noise_cp``: each root move gets a random bonus up to this size, so weak levels vary
    their play and blunder; ``budget_share``: the part of the time or node budget used;
    ``resigns``: whether the engine may give up a lost game; ``mate_plies``: the longest
    checks-only mate (in plies) looked for before the main search, 0 for none."""

    number: int
    max_depth: int
    budget_share: float
    noise_cp: int
    resigns: bool
    mate_plies: int = 0


# The random bonus of the weak levels stays below the value of a minor piece: they choose
# among moves that look about as good, so they play worse moves and miss what lies beyond
# their depth (two-move tactics at levels 1-2), but never hang a piece their own search sees.
LEVELS: dict[int, Level] = {
    1: Level(1, max_depth=1, budget_share=0.05, noise_cp=120, resigns=False),
    2: Level(2, max_depth=1, budget_share=0.10, noise_cp=60, resigns=False),
    3: Level(3, max_depth=2, budget_share=0.15, noise_cp=50, resigns=False, mate_plies=1),
    4: Level(4, max_depth=3, budget_share=0.25, noise_cp=35, resigns=False, mate_plies=1),
    5: Level(5, max_depth=4, budget_share=0.35, noise_cp=20, resigns=True, mate_plies=3),
    6: Level(6, max_depth=5, budget_share=0.50, noise_cp=0, resigns=True, mate_plies=3),
    7: Level(7, max_depth=8, budget_share=0.75, noise_cp=0, resigns=True, mate_plies=5),
    8: Level(8, max_depth=MAX_DEPTH, budget_share=1.0, noise_cp=0, resigns=True, mate_plies=7),
}


def level(number: int) -> Level:
    """The settings of level ``number`` (1 weakest to 8 strongest); ValueError otherwise."""
    found = LEVELS.get(number)
    if found is None:
        raise ValueError(f"level {number!r} does not exist: choose {LOWEST} to {HIGHEST}")
    return found
