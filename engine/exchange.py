"""Static exchange evaluation: what a capture wins once both sides have recaptured on its
square with their least valuable pieces, each side free to stop when going on would lose.

The attackers of the square are found from the rules core's reverse attack tables on the
board as it stands after each capture, so a slider behind the piece that just captured joins
in (x-rays).  Promotions during the exchange are not counted, and a king takes part only as
the last capture (it may not recapture into an attack).  A capture of a piece in a drop game
is worth the piece on the board and the piece it becomes in the captor's hand.
"""

from __future__ import annotations

from typing import Final

from engine.evaluation import Evaluator
from rules import Move, Position, Variant
from rules.arrays import IntArray, int_array

# captures in one exchange at most: more than both sides' pieces in any variant here (Wa
# starts with 54), so no exchange is cut short
MAX_EXCHANGE: Final = 64


class StaticExchange:
    """The exchange evaluator of one variant."""

    def __init__(self, variant: Variant, evaluator: Evaluator) -> None:
        t = variant.tables
        self.tables = t
        self.royal = variant.royal_kind
        value, hand = evaluator.piece_value, evaluator.capture_hand
        # what losing the piece of a signed value costs its owner
        worth = [value[v] + hand[v] for v in range(len(value))]
        for v in (self.royal, -self.royal):
            worth[v] = 100 * max(worth)  # never traded, but a king may capture last
        self.worth: IntArray = int_array(worth)
        self.gain = evaluator.promotion_gain
        # scratch arrays of one exchange (never two at once)
        self.gains: IntArray = int_array([0] * MAX_EXCHANGE)
        self.taken: IntArray = int_array([0] * MAX_EXCHANGE)
        self.captors: IntArray = int_array([0] * MAX_EXCHANGE)

    def least_attacker(self, board: IntArray, sq: int, by: int) -> int:
        """The square of ``by``'s least valuable piece attacking ``sq``, -1 when none."""
        t = self.tables
        worth = self.worth
        sets = t.value_sets
        best_sq = -1
        best = 0
        row = by * t.size + sq
        squares, ids, after = t.ray_squares[row], t.ray_sets[row], t.ray_next[row]
        i = 0
        n = len(squares)
        while i < n:
            s = squares[i]
            v = board[s]
            if v:
                if sets[ids[i]][v] and (best_sq < 0 or worth[v] < best):
                    best_sq, best = s, worth[v]
                i = after[i]
            else:
                i += 1
        jumps, ids = t.jump_squares[row], t.jump_sets[row]
        for j in range(len(jumps)):
            s = jumps[j]
            v = board[s]
            if sets[ids[j]][v] and (best_sq < 0 or worth[v] < best):
                best_sq, best = s, worth[v]
        return best_sq

    def value(self, pos: Position, move: Move) -> int:
        """The material the side to move gains by the capture ``move`` (a board move onto an
        enemy piece) when both sides recapture as long as it pays: negative when it loses."""
        frm, to, promote, _drop = move
        board = pos.board
        worth = self.worth
        royal = self.royal
        # gains[n]: the balance of the side making the n-th capture (the 0th is ``move``) if
        # the exchange ends there; taken[n], captors[n]: where that captor stood, and what it
        # was, to put back
        gains, taken, captors = self.gains, self.taken, self.captors
        mover = board[frm]
        gains[0] = worth[board[to]] + (self.gain[mover] if promote else 0)
        board[frm] = 0
        n = 1
        on_square = mover  # the piece standing on ``to``, which the next capture takes
        side = pos.side ^ 1
        while n < MAX_EXCHANGE:
            sq = self.least_attacker(board, to, side)
            if sq < 0:
                break
            captor = board[sq]
            if (captor == royal or captor == -royal) and self.least_attacker(
                board, to, side ^ 1
            ) >= 0:
                break  # the king may not take into an attack
            gains[n] = worth[on_square] - gains[n - 1]
            taken[n] = sq
            captors[n] = captor
            board[sq] = 0
            on_square = captor
            side ^= 1
            n += 1
        # the captors back, the mover last
        for i in range(n - 1, 0, -1):
            board[taken[i]] = captors[i]
        board[frm] = mover
        # each side stops when recapturing would leave it worse off
        for i in range(n - 1, 0, -1):
            if -gains[i] < gains[i - 1]:
                gains[i - 1] = -gains[i]
        return gains[0]

    def mover_lost(self, pos: Position, to: int, taken: int) -> bool:
        """After a move onto ``to`` that took ``taken`` (0: nothing), the side now to move
        wins more by taking the mover, exchanges included, than the move took."""
        board, worth = pos.board, self.worth
        if worth[board[to]] <= worth[taken]:
            return False  # taking the mover gains at most the mover
        sq = self.least_attacker(board, to, pos.side)
        return sq >= 0 and self.value(pos, Move(sq, to)) > worth[taken]

    def loses(self, pos: Position, move: Move) -> bool:
        """The capture ``move`` loses material by the exchange (cheap when the captured piece
        is worth at least the capturing one: such a capture never loses)."""
        board = pos.board
        worth = self.worth
        if worth[board[move.to_sq]] >= worth[board[move.from_sq]]:
            return False
        return self.value(pos, move) < 0
