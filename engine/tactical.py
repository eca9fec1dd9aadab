"""Captures and promotions for the quiescence search, generated without legality checks.

The caller plays each move with ``make_unchecked`` and takes it back at once when it left the
mover's own king attacked; nothing else can make a board move illegal (drops are never
generated here).  A move that may promote is generated once: promoting when promotion adds
value or is forced, not promoting otherwise.
"""

from __future__ import annotations

from engine.evaluation import Evaluator
from rules import SENTE, Move, Position, Variant

# (expected material gain, ordering key, move)
Tactical = tuple[int, int, Move]


class TacticalMoves:
    """The quiescence move generator of one variant."""

    def __init__(self, variant: Variant, evaluator: Evaluator) -> None:
        t = variant.tables
        self.leaps = t.leaps
        self.rides = t.rides
        self.promote = t.promote
        self.dead = t.dead
        self.zone = t.zone
        self.value = evaluator.piece_value
        self.gain = evaluator.promotion_gain
        self.capture_hand = evaluator.capture_hand

    def generate(self, pos: Position, quiet_promotions: bool) -> list[Tactical]:
        """Pseudo-legal captures, and non-capturing promotions that gain material when
        ``quiet_promotions``, sorted best first (most valuable victim, least valuable
        attacker)."""
        board = pos.board
        sign = 1 if pos.side == SENTE else -1
        zone = self.zone[pos.side]
        value, gain_of, hand_of = self.value, self.gain, self.capture_hand
        promote_t, dead_t, leaps, rides = self.promote, self.dead, self.leaps, self.rides
        out: list[Tactical] = []
        append = out.append
        own = [s for s, v in enumerate(board) if v > 0] if sign > 0 else _gote_squares(board)
        for s in own:
            v = board[s]
            gain = gain_of[v]
            promotes = promote_t[v] != 0
            quiet = quiet_promotions and gain > 0
            mover = value[v] // 16
            from_zone = zone[s]
            captures = []
            for d in leaps[v][s]:
                w = board[d]
                if w * sign < 0:
                    captures.append(d)
                elif not w and quiet and (from_zone or zone[d]):
                    append((gain, gain * 16, Move(s, d, True, 0)))
            for ray in rides[v][s]:
                for d in ray:
                    w = board[d]
                    if not w:
                        if quiet and (from_zone or zone[d]):
                            append((gain, gain * 16, Move(s, d, True, 0)))
                        continue
                    if w * sign < 0:
                        captures.append(d)
                    break
            for d in captures:
                w = board[d]
                if promotes and (from_zone or zone[d]) and (gain > 0 or dead_t[v][d]):
                    won = value[w] + hand_of[w] + gain
                    append((won, won * 16 - mover, Move(s, d, True, 0)))
                else:
                    won = value[w] + hand_of[w]
                    append((won, won * 16 - mover, Move(s, d, False, 0)))
        out.sort(key=_ordering_key, reverse=True)
        return out


def _gote_squares(board: list[int]) -> list[int]:
    return [s for s, v in enumerate(board) if v < 0]


def _ordering_key(item: Tactical) -> int:
    return item[1]
