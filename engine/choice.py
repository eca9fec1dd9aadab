"""How the weak levels choose: loosely among the moves their shallow search finds about as
good as the best, never one that gives material away by a one-move check.

A weak level's root search gives an exact score at the level's depth to every move less than
the level's ``choice_cp`` below the best, and only a bound to the others: the candidates are
the moves with an exact score; of those, the ones that leave material hanging by the static
exchange are set aside:

- a capture that loses by the exchange (a silver taking a defended pawn);
- a move or drop onto a square where the opponent wins material by taking the piece;
- a move after which the opponent wins more by its best capture anywhere than it could before
  (a piece left unguarded, a line opened), counting what the move itself took;
- a move that leaves a piece to be taken (attacked already) where another candidate would
  save it: the opponent's best capture after it is more than a pawn or two above the least
  any candidate leaves.

One candidate is then chosen at random (seeded).  At level 1 only (its search reads no
reply in full), when every candidate leaves the opponent a capture worth more than a pawn or
two and some other root move (one the shallow search scored too low) would leave a pawn or
two less, the best scored such move is played instead (a rescue): a piece that hangs is
saved rather than left for a counter-attack that loses another.  A search that reads the
replies has seen what the capture costs, and its other moves' scores are only bounds, so a
rescue there throws away what it saw (levels 2-4 rescuing were measured weaker: level 4 no
longer beat level 3; developers' guide, the levels).  When every candidate fails the check
(all moves lose something), the search's best move is kept.  So the level plays a
"reasonable looking" move, misses whatever lies beyond its depth (a fork, a two-move
combination) and does not drop a piece for nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.exchange import StaticExchange
from rules import Move, Position

LEFT_HANGING_CP = 200
"""How much more a candidate may leave the opponent to win by its best capture than the
candidate that leaves least: a pawn or two (a beginner's slip), never a piece that another
candidate would save."""

LOSING_CAPTURE = 1 << 20
"""The exposure of a capture that loses by the exchange: above any other."""


def loose_choice(
    pos: Position,
    scored: Sequence[tuple[Move, int]],
    choice_cp: int,
    exchange: StaticExchange,
    rng: random.Random,
    *,
    rescue: bool = False,
) -> Move:
    """A random move among ``scored`` (root moves with their search scores, from the side to
    move's view, best first or not) less than ``choice_cp`` below the best that gives no
    material away (or, if ``rescue``, a rescue, as the module says); the best move when none
    qualifies.
    ``pos`` is not changed.  A score at or below ``best - choice_cp`` may be only a bound (the
    search tested it at that floor).

    A candidate gives material away when its :func:`exposure` is more than the opponent's
    best capture before it (it hangs a piece, or opens a line), or more than
    ``LEFT_HANGING_CP`` above the least exposure among the candidates (it leaves a piece
    hanging that another candidate would save)."""
    best_move, best_score = max(scored, key=lambda pair: pair[1])
    threat = best_capture(pos, exchange, pos.side ^ 1)
    near = [m for m, score in scored if score > best_score - choice_cp]
    exposures = {m: exposure(pos, m, exchange) for m in near}
    least = min(exposures.values(), default=0)
    if rescue and least > LEFT_HANGING_CP:  # every candidate leaves that: only others can rescue
        others = [(m, score) for m, score in scored if m not in exposures]
        saving = _rescue(pos, others, threat, least, exchange)
        if saving is not None:
            return saving
    allowed = min(max(0, threat), max(0, least) + LEFT_HANGING_CP)
    safe = [m for m in near if exposures[m] <= allowed]
    if not safe:
        return best_move
    safe.sort()  # the same choice for a seed whatever order the search left them in
    return rng.choice(safe)


def _rescue(
    pos: Position,
    scored: Sequence[tuple[Move, int]],
    threat: int,
    least: int,
    exchange: StaticExchange,
) -> Move | None:
    """The best scored of ``scored`` (the root moves that are not candidates) whose exposure
    is more than ``LEFT_HANGING_CP`` below ``least`` (what every candidate leaves) and at most
    the ``threat`` before; None when no move leaves that much less."""
    for move, _ in sorted(scored, key=lambda pair: (-pair[1], pair[0])):
        exposed = exposure(pos, move, exchange)
        if exposed + LEFT_HANGING_CP < least and exposed <= max(0, threat):
            return move
    return None


def exposure(pos: Position, move: Move, exchange: StaticExchange) -> int:
    """What the opponent wins by its best capture after ``move`` (by the static exchange),
    less what ``move`` itself took; ``LOSING_CAPTURE`` for a capture that loses material."""
    taken = 0
    if not move.drop and pos.board[move.to_sq]:
        taken = exchange.value(pos, move)
        if taken < 0:
            return LOSING_CAPTURE
    pos.make_unchecked(move)
    try:
        after = best_capture(pos, exchange, pos.side)
    finally:
        pos.undo()
    return after - taken


def best_capture(pos: Position, exchange: StaticExchange, side: int) -> int:
    """What ``side``'s best capture wins by the static exchange (0 when none wins), as if
    ``side`` were to move: for each enemy piece, its least valuable attacker takes first."""
    board = pos.board
    turn = pos.side
    best = 0
    enemy_sign = -1 if side == 0 else 1  # sente's pieces are positive
    pos.side = side
    try:
        for sq, v in enumerate(board):
            if v * enemy_sign <= 0 or v in (exchange.royal, -exchange.royal):
                continue
            attacker = exchange.least_attacker(board, sq, side)
            if attacker < 0:
                continue
            gain = exchange.value(pos, Move(attacker, sq))
            best = max(best, gain)
    finally:
        pos.side = turn
    return best
