"""Static exchange evaluation: what a capture wins once both sides have recaptured on its
square with their least valuable pieces, each side free to stop when going on would lose.

The attackers of the square are found from the rules core's reverse attack tables on the
board as it stands after each capture, so a slider behind the piece that just captured joins
in (x-rays).  Promotions during the exchange are not counted, and a king takes part only as
the last capture (it may not recapture into an attack).  A capture of a piece in a drop game
is worth the piece on the board and the piece it becomes in the captor's hand.
"""

from __future__ import annotations

from engine.evaluation import Evaluator
from rules import Move, Position, Variant
from rules.arrays import IntArray, int_array


class StaticExchange:
    """The exchange evaluator of one variant."""

    def __init__(self, variant: Variant, evaluator: Evaluator) -> None:
        t = variant.tables
        self.attack_rays = t.attack_rays
        self.attack_leaps = t.attack_leaps
        self.royal = variant.royal_kind
        value, hand = evaluator.piece_value, evaluator.capture_hand
        # what losing the piece of a signed value costs its owner
        worth = [value[v] + hand[v] for v in range(len(value))]
        for v in (self.royal, -self.royal):
            worth[v] = 100 * max(worth)  # never traded, but a king may capture last
        self.worth: IntArray = int_array(worth)
        self.gain = evaluator.promotion_gain

    def least_attacker(self, board: IntArray, sq: int, by: int) -> int:
        """The square of ``by``'s least valuable piece attacking ``sq``, -1 when none."""
        worth = self.worth
        best_sq = -1
        best = 0
        for ray, sets in self.attack_rays[by][sq]:
            for i, s in enumerate(ray):
                v = board[s]
                if v:
                    if sets[i][v] and (best_sq < 0 or worth[v] < best):
                        best_sq, best = s, worth[v]
                    break
        for s, values in self.attack_leaps[by][sq]:
            v = board[s]
            if values[v] and (best_sq < 0 or worth[v] < best):
                best_sq, best = s, worth[v]
        return best_sq

    def value(self, pos: Position, move: Move) -> int:
        """The material the side to move gains by the capture ``move`` (a board move onto an
        enemy piece) when both sides recapture as long as it pays: negative when it loses."""
        frm, to, promote, _drop = move
        board = pos.board
        worth = self.worth
        mover = board[frm]
        gains = [worth[board[to]] + (self.gain[mover] if promote else 0)]
        removed = [(frm, mover)]
        board[frm] = 0
        on_square = mover  # the piece standing on ``to``, which the next capture takes
        side = pos.side ^ 1
        royal = self.royal
        try:
            while True:
                sq = self.least_attacker(board, to, side)
                if sq < 0:
                    break
                captor = board[sq]
                if captor in (royal, -royal) and self.least_attacker(board, to, side ^ 1) >= 0:
                    break  # the king may not take into an attack
                gains.append(worth[on_square] - gains[-1])
                removed.append((sq, captor))
                board[sq] = 0
                on_square = captor
                side ^= 1
        finally:
            for sq, v in reversed(removed):
                board[sq] = v
        # each side stops when recapturing would leave it worse off
        for i in range(len(gains) - 1, 0, -1):
            gains[i - 1] = min(gains[i - 1], -gains[i])
        return gains[0]

    def loses(self, pos: Position, move: Move) -> bool:
        """The capture ``move`` loses material by the exchange (cheap when the captured piece
        is worth at least the capturing one: such a capture never loses)."""
        board = pos.board
        worth = self.worth
        if worth[board[move.to_sq]] >= worth[board[move.from_sq]]:
            return False
        return self.value(pos, move) < 0
