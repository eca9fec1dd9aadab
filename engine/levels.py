"""Playing levels 1-8: how deep, how much of the budget, how much randomness."""

from __future__ import annotations

from dataclasses import dataclass

MAX_DEPTH = 64
LOWEST = 1
HIGHEST = 8
# An external engine's share of the time at a level is this times the share of the level
# above (level 8: all of it): 2.5 times more nodes a level, about a ply more (measured on
# Komabot's own search: a ply costs 2-2.5 times the nodes of the one before at depths 4-6)
SHARE_STEP = 0.4


@dataclass(frozen=True)
class Level:
    """``max_depth``: the plies searched at most, each within the whole budget (a node or
    time limit given to the search); ``budget_share``: the share of the time an external
    engine is given at this level.  ``choice_cp``: the level scores every root
    move and chooses at random among those within this much of the best that give no
    material away (``engine/choice.py``), 0 for the best move; ``resigns``: whether the
    engine may give up a lost game; ``mate_plies``: the longest checks-only mate (in plies)
    looked for before the main search, 0 for none; ``rescues``: whether the choice saves a
    piece that every candidate leaves hanging (``engine/choice.py``: level 1 only, whose
    search reads no reply in full)."""

    number: int
    max_depth: int
    budget_share: float
    choice_cp: int
    resigns: bool
    mate_plies: int = 0
    rescues: bool = False


def _share(number: int) -> float:
    return SHARE_STEP ** (HIGHEST - number)


# Levels 1-7 read exactly as many plies as their number, whatever the machine's speed, when the
# whole budget allows (level 1 only its own move and the captures that follow it, so it misses
# forks and two-move tactics);
# levels 1-4 choose loosely among the moves that look about as good (less than 80, 60, 30, 10
# centipawns from the best), never one that hangs a piece by the static exchange; level 1
# also saves a piece all its candidates leave hanging when another move can (engine/choice.py).
# Level 8 reads on, ply after ply, as deep as its whole budget allows: on a budget that lets
# level 7 read its seven plies, level 8 reads the same seven and more.  (Levels 6 and 7 once read
# fewer plies and then on within 16% and 40% of the budget: at a round robin's node budget
# that share bought hardly more than the level below's search, and the round robin could not
# tell the two apart.)
LEVELS: dict[int, Level] = {
    1: Level(1, 1, _share(1), choice_cp=80, resigns=False, rescues=True),
    2: Level(2, 2, _share(2), choice_cp=60, resigns=False),
    3: Level(3, 3, _share(3), choice_cp=30, resigns=False, mate_plies=1),
    4: Level(4, 4, _share(4), choice_cp=10, resigns=False, mate_plies=3),
    5: Level(5, 5, _share(5), choice_cp=0, resigns=True, mate_plies=3),
    6: Level(6, 6, _share(6), choice_cp=0, resigns=True, mate_plies=3),
    7: Level(7, 7, _share(7), choice_cp=0, resigns=True, mate_plies=5),
    8: Level(8, MAX_DEPTH, _share(8), choice_cp=0, resigns=True, mate_plies=7),
}


def level(number: int) -> Level:
    """The settings of level ``number`` (1 weakest to 8 strongest); ValueError otherwise."""
    found = LEVELS.get(number)
    if found is None:
        raise ValueError(f"level {number!r} does not exist: choose {LOWEST} to {HIGHEST}")
    return found
