"""Captures and promotions for the quiescence search, generated without legality checks.

The caller plays each move with ``make_unchecked`` and takes it back at once when it left the
mover's own king attacked; nothing else can make a board move illegal (drops are never
generated here).  A move that may promote is generated once: promoting when promotion adds
value or is forced, not promoting otherwise.
"""

from __future__ import annotations

from typing import Final

from engine.evaluation import Evaluator
from rules import SENTE, Move, Position, Variant
from rules.arrays import IntArray, int_array, plain

# (expected material gain, move)
Tactical = tuple[int, Move]
# the ordering key of a move already picked: below every real key
PICKED: Final = -(1 << 40)
# first room for moves a ply (grown when a position has more)
ROOM: Final = 32


class TacticalMoves:
    """The quiescence move generator of one variant.

    The moves of a position go into scratch arrays, one stretch for each ply of the search,
    with their keys and gains; :meth:`pick` takes them best first (most valuable victim,
    least valuable attacker), the order of a stable sort, without sorting: most quiescence
    nodes end after their first move or two, and no tuple or number is made for a move."""

    def __init__(
        self, variant: Variant, evaluator: Evaluator, plies: int = 128, room: int = ROOM
    ) -> None:
        t = variant.tables
        self.own = t.own
        self.tables = t.moves
        self.size = t.size
        self.value = evaluator.piece_value
        self.gain = evaluator.promotion_gain
        self.capture_hand = evaluator.capture_hand
        self.plies = plies
        self.room = room
        self.keys: IntArray = int_array([PICKED] * (plies * room))
        self.wons: IntArray = int_array([0] * (plies * room))
        self.moves: list[Move | None] = [None] * (plies * room)

    def generate(self, pos: Position, quiet_promotions: bool) -> list[Tactical]:
        """The moves :meth:`fill` finds, best first, with their gains (for tests and tools)."""
        n = self.fill(pos, quiet_promotions, 0)
        out: list[Tactical] = []
        for _ in range(n):
            at = self.pick(0, n)
            move = self.moves[at]
            assert move is not None
            out.append((self.wons[at], move))
        return out

    def pick(self, ply: int, n: int) -> int:
        """Where the best of the ``n`` moves of ``ply`` not yet picked stands in ``wons`` and
        ``moves`` (the first of equal keys), marked picked; -1 when all are.  Read the arrays
        again after a deeper ply's :meth:`fill`: it may have moved them."""
        keys = self.keys
        base = ply * self.room
        best = -1
        top = PICKED
        for i in range(base, base + n):
            if keys[i] > top:
                best = i
                top = keys[i]
        if best >= 0:
            keys[best] = PICKED
        return best

    def _put(self, ply: int, n: int, won: int, key: int, move: Move) -> int:
        """Write the ``n``-th move of ``ply``; the count after it."""
        if n == self.room:
            self._grow()
        i = ply * self.room + n
        self.keys[i] = key
        self.wons[i] = won
        self.moves[i] = move
        return n + 1

    def _grow(self) -> None:
        """Twice the room a ply, each ply's moves kept."""
        old, room = self.room, 2 * self.room
        keys, wons = plain(self.keys), plain(self.wons)
        new_keys = [PICKED] * (self.plies * room)
        new_wons = [0] * (self.plies * room)
        moves: list[Move | None] = [None] * (self.plies * room)
        for ply in range(self.plies):
            a, b = ply * old, ply * room
            new_keys[b : b + old] = keys[a : a + old]
            new_wons[b : b + old] = wons[a : a + old]
            moves[b : b + old] = self.moves[a : a + old]
        self.keys, self.wons, self.moves = int_array(new_keys), int_array(new_wons), moves
        self.room = room

    def fill(self, pos: Position, quiet_promotions: bool, ply: int) -> int:
        """Pseudo-legal captures, and non-capturing promotions that gain material when
        ``quiet_promotions``, into ``ply``'s stretch of the arrays; how many."""
        board = pos.board
        sign = 1 if pos.side == SENTE else -1
        value, gain_of, hand_of = self.value, self.gain, self.capture_hand
        tables = self.tables
        leap_to, leap_made = tables.leap_to, tables.leap_made
        ride_to, ride_made, ride_next = tables.ride_to, tables.ride_made, tables.ride_next
        size = self.size
        own = self.own[pos.side]
        n = 0
        # one piece's captures, put after its quiet promotions: the victims' values and
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
                    n = self._put(ply, n, gain, gain * 16, made[i][0])
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
                    n = self._put(ply, n, gain, gain * 16, made[i][0])
            if not victims:
                continue
            mover = value[v] // 16
            for i, w in enumerate(victims):
                moves = captures[i]
                # promoting when it gains, or when the piece could not move again unpromoted
                # (then the entry holds only the promotion)
                move = moves[0] if gain > 0 else moves[-1]
                won = value[w] + hand_of[w] + (gain if move[2] else 0)
                n = self._put(ply, n, won, won * 16 - mover, move)
            victims.clear()
            captures.clear()
        return n
