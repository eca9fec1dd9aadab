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
        self.leap_moves = t.moves.leap_moves
        self.ride_moves = t.moves.ride_moves
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
        leap_moves, ride_moves = self.leap_moves, self.ride_moves
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
            for d, moves in leap_moves[v][s]:
                w = board[d]
                if w * sign < 0:
                    victims.append(w)
                    captures.append(moves)
                elif not w and quiet and moves[0][2]:
                    out.append((gain, gain * 16, moves[0]))
            for ray in ride_moves[v][s]:
                for d, moves in ray:
                    w = board[d]
                    if not w:
                        if quiet and moves[0][2]:
                            out.append((gain, gain * 16, moves[0]))
                        continue
                    if w * sign < 0:
                        victims.append(w)
                        captures.append(moves)
                    break
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
