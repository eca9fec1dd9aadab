"""How long to think about one move, from USI ``go`` clock parameters."""

from __future__ import annotations

from dataclasses import dataclass

from rules import SENTE

MOVES_TO_GO = 30  # the clock's remaining time is shared out as if this many moves remained
INCREMENT_SHARE = 0.8


@dataclass(frozen=True)
class Clock:
    """Milliseconds, as USI ``go`` gives them (None: not given)."""

    btime: int | None = None
    wtime: int | None = None
    binc: int = 0
    winc: int = 0
    byoyomi: int = 0
    movetime: int | None = None


def move_budget_ms(clock: Clock, side: int, overhead_ms: int) -> int | None:
    """Time for this move (at least 1 ms), or None when the clock sets no limit.

    ``movetime`` is used as given, less the overhead; otherwise a share of the remaining time,
    most of the increment and all of the byoyomi, never more than is left on the clock less
    the overhead kept for sending the move."""
    if clock.movetime is not None:
        return max(1, clock.movetime - overhead_ms)
    remaining = clock.btime if side == SENTE else clock.wtime
    increment = clock.binc if side == SENTE else clock.winc
    if remaining is None and not clock.byoyomi and not increment:
        return None
    remaining = max(0, remaining or 0)
    planned = remaining / MOVES_TO_GO + increment * INCREMENT_SHARE + clock.byoyomi
    available = remaining + increment + clock.byoyomi
    return max(1, int(min(planned, available - overhead_ms)))
