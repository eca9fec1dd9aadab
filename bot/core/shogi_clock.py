"""A game's clock: a time per move (``3d``, ``10m``), or main time and byoyomi (``10m+30s``)
spent as shogi clocks spend them, and the warnings before a deadline.

With main time (``GameRow.main_time``) the player to move spends their main time first; once
it is gone each move must be made within the byoyomi (``GameRow.time_per_move``), which starts
afresh with every move.  Only the deadline of the player to move is stored: it is when their
turn began, plus the main time they had left (``GameRow.time_left``, as of the last move), plus
the byoyomi.  A move (or a takeback) at ``now`` stops that clock: the main time still left is
``deadline - byoyomi - now`` (none once in byoyomi), and the next player's deadline starts.
The deadline and the warnings are the durable timers of :mod:`bot.core.timers`, so a restart
neither forgives nor repeats them, and time passes for the player to move while the bot is down.

Warnings (reminder timers, each at an ``offset`` before the deadline, posted once):

- ``MAIN_WARNING`` seconds of main time left: a timer ``byoyomi + MAIN_WARNING`` before the
  deadline, set in every turn that starts with more main time than that; it comes due in the
  one turn where the player gets that low, so each player hears it once a game.
- ``MOVE_WARNING`` seconds left of the move: before every deadline, when the byoyomi (or the
  time per move) is longer than that.  A byoyomi of 30 s or less is all warning time: no post
  each move (the reply to the last move shows the deadline to the second).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.store.models import ENGINE_PLAYER, GameRow

LIVE_TIME = 3600
"""Games with at most this much time per move (or byoyomi) are live: played now, not over days;
their times are shown to the second."""
MOVE_WARNING = 30
"""Seconds before a live game's deadline when the player to move is warned (once a move)."""
MAIN_WARNING = 60
"""Seconds of main time left when the player to move is warned (once a game)."""


def is_live(game: GameRow) -> bool:
    """Whether ``game`` is played now: a clock of at most ``LIVE_TIME`` a move."""
    return game.time_per_move is not None and game.time_per_move <= LIVE_TIME


def start_time_left(main_time: int | None) -> tuple[float, float] | None:
    """The main time both sides have left when a game with ``main_time`` starts."""
    return None if not main_time else (float(main_time), float(main_time))


def main_time_left(game: GameRow, side: int, now: float) -> float:
    """The main time ``side`` has left at ``now``: the stored one, less what the player to
    move has spent of it since their turn began (nothing left once in byoyomi)."""
    if game.time_left is None:
        return 0.0
    left = game.time_left[side]
    if side == game.side_to_move and game.deadline is not None and game.time_per_move:
        left = min(left, max(0.0, game.deadline - game.time_per_move - now))
    return left


def deadline_for(game: GameRow, side_to_move: int, now: float) -> float | None:
    """When ``side_to_move``, whose turn begins at ``now``, must have moved: their main time
    left and a time per move (the byoyomi) from now.  None without a clock, and never for the
    bot (it cannot lose on time; deadlines and warnings are the person's alone)."""
    return _deadline(game, game.time_left, side_to_move, now)


def _deadline(
    game: GameRow, time_left: tuple[float, float] | None, side_to_move: int, now: float
) -> float | None:
    """:func:`deadline_for` with the main time left ``time_left`` instead of the game's."""
    if not game.time_per_move or game.player(side_to_move) == ENGINE_PLAYER:
        return None
    left = time_left[side_to_move] if time_left is not None else 0.0
    return now + left + game.time_per_move


def turn_over(game: GameRow, next_side: int, now: float, **changes: Any) -> GameRow:
    """``game`` (as stored: its side to move still the one whose turn ends) with that side's
    clock stopped at ``now`` and ``next_side``'s started: main time left and the deadline;
    and ``changes`` (other fields), made in the same copy."""
    left = game.time_left
    if left is not None:
        mover = game.side_to_move
        kept = main_time_left(game, mover, now)
        left = (kept, left[1]) if mover == 0 else (left[0], kept)
    deadline = _deadline(game, left, next_side, now)
    return replace(game, time_left=left, deadline=deadline, **changes)


def reminder_offsets(game: GameRow, configured: Sequence[int]) -> list[int]:
    """Seconds before ``game``'s deadline to remind the player to move: with main time the two
    warnings (see the module); else the configured ones shorter than its time per move, and a
    live game's warning."""
    per_move = game.time_per_move
    if game.main_time and per_move:
        offsets = [per_move + MAIN_WARNING]
    else:
        offsets = [o for o in configured if per_move is None or o < per_move]
    if per_move is not None and MOVE_WARNING < per_move <= LIVE_TIME:
        offsets.append(MOVE_WARNING)
    return sorted(set(offsets), reverse=True)


def warns_of_main_time(game: GameRow, offset: int) -> bool:
    """Whether the reminder ``offset`` seconds before ``game``'s deadline is the warning of
    ``MAIN_WARNING`` seconds of main time left (else it is about the move's time)."""
    return bool(game.main_time and game.time_per_move and offset > game.time_per_move)
