"""Captures and promotions for the quiescence search, generated without legality checks.

The caller plays each move with ``make_unchecked`` and takes it back at once when it left the
mover's own king attacked; nothing else can make a board move illegal (drops are never
generated here).  A move that may promote is generated once: promoting when promotion adds
value or is forced, not promoting otherwise.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from engine.evaluation import Evaluator
from rules import SENTE, Move, Position, Variant

# (expected material gain, ordering key, move)
Tactical = tuple[int, int, Move]


class TacticalMoves:
    """The quiescence move generator of one variant."""

    def __init__(self, variant: Variant, evaluator: Evaluator) -> None:
        t = variant.tables
        self.own = t.own
        self.tables = t.moves
        self.size = t.size
        self.value = evaluator.piece_value
        self.gain = evaluator.promotion_gain
        self.capture_hand = evaluator.capture_hand

    def generate(self, pos: Position, quiet_promotions: bool) -> list[Tactical]:
        """Pseudo-legal captures, and non-capturing promotions that gain material when
        ``quiet_promotions``, sorted best first (most valuable victim, least valuable
        attacker)."""
        board = pos.board
        sign = 1 if pos.side == SENTE else -1
        value, gain_of, hand_of = self.value, self.gain, self.capture_hand
        tables = self.tables
        leap_to, leap_made = tables.leap_to, tables.leap_made
        ride_to, ride_made, ride_next = tables.ride_to, tables.ride_made, tables.ride_next
        size = self.size
        own = self.own[pos.side]
        out: list[Tactical] = []
        # one piece's captures, listed after its quiet promotions: the victims' values and
        # the moves of each (promoting, maybe not promoting) where it may promote there
        victims: list[int] = []
        captures: list[tuple[Move, ...]] = []
        for s, v in enumerate(board):
            if not own[v]:
                continue
            gain = gain_of[v]
            quiet = quiet_promotions and gain > 0
            row = v * size + s
            made = leap_made[row]
            for i, d in enumerate(leap_to[row]):
                w = board[d]
                if w * sign < 0:
                    victims.append(w)
                    captures.append(made[i])
                elif not w and quiet and made[i][0][2]:
                    out.append((gain, gain * 16, made[i][0]))
            made, after = ride_made[row], ride_next[row]
            resume = 0  # a piece on a ride's square: the next ride's first square
            for i, d in enumerate(ride_to[row]):
                if i < resume:
                    continue
                w = board[d]
                if w:
                    if w * sign < 0:
                        victims.append(w)
                        captures.append(made[i])
                    resume = after[i]
                elif quiet and made[i][0][2]:
                    out.append((gain, gain * 16, made[i][0]))
            if not victims:
                continue
            mover = value[v] // 16
            for i, w in enumerate(victims):
                moves = captures[i]
                # promoting when it gains, or when the piece could not move again unpromoted
                # (then the entry holds only the promotion)
                move = moves[0] if gain > 0 else moves[-1]
                won = value[w] + hand_of[w] + (gain if move[2] else 0)
                out.append((won, won * 16 - mover, move))
            victims.clear()
            captures.clear()
        out.sort(key=_ORDERING_KEY, reverse=True)
        return out


_ORDERING_KEY: Final = itemgetter(1)  # of a Tactical: a C-level sort key
