"""Move generation in stages for a side that is not in check: board moves, then drops.

The rules core's ``legal_moves`` makes every move at once; a search node that is cut off by
its first few moves wastes most of that work, above all in drop games with full hands.  Here
board moves come without the own-king test (the search plays each and takes it back when
:meth:`engine.checks.CheckTables.exposed_own_king` says so), and drops are made only when the
board moves did not settle the node.  Drops follow the rules of the variant file: never where
the piece could not move again, not two of a ``no_two_on_file`` kind on a file, and no
``no_mate_by_drop`` kind dropped to mate (tested by the rules core).  A side in check gets the
rules core's legal moves instead.
"""

from __future__ import annotations

from rules import SENTE, Move, Position, Variant
from rules.movegen import drop_mates, gives_check_from


class StagedMoves:
    """The staged generator of one variant."""

    def __init__(self, variant: Variant) -> None:
        t = variant.tables
        self.size = t.size
        self.own = t.own
        self.tables = t.moves
        self.drop_moves = t.moves.drop_moves
        self.dead = t.dead
        self.file_of = t.file_of
        self.drops_enabled = variant.drops.enabled
        self.no_two_on_file = variant.drops.no_two_on_file
        self.no_mate_by_drop = variant.drops.no_mate_by_drop

    def board_moves(self, pos: Position) -> list[Move]:
        """Every board move of the side to move, as the rules allow them, except that a move
        may leave the mover's own king attacked (test after playing it)."""
        board = pos.board
        own = self.own[pos.side]
        tables = self.tables
        leap_to, leap_made = tables.leap_to, tables.leap_made
        ride_to, ride_made, ride_next = tables.ride_to, tables.ride_made, tables.ride_next
        size = self.size
        out: list[Move] = []
        for s, v in enumerate(board):
            if not own[v]:
                continue
            row = v * size + s
            made = leap_made[row]
            for i, d in enumerate(leap_to[row]):
                if not own[board[d]]:
                    out += made[i]
            made, after = ride_made[row], ride_next[row]
            resume = 0  # a piece on a ride's square: the next ride's first square
            for i, d in enumerate(ride_to[row]):
                if i < resume:
                    continue
                w = board[d]
                if not own[w]:
                    out += made[i]
                if w:
                    resume = after[i]
        return out

    def drops(self, pos: Position) -> list[Move]:
        """Every legal drop of the side to move, which must not be in check."""
        if not self.drops_enabled:
            return []
        side = pos.side
        hand = pos.hands[side]
        kinds = [k for k in range(1, len(hand)) if hand[k]]
        if not kinds:
            return []
        board = pos.board
        sign = 1 if side == SENTE else -1
        empties = [s for s, w in enumerate(board) if not w]
        enemy_king = pos.kings[side ^ 1]
        out: list[Move] = []
        for kind in kinds:
            v = kind * sign
            dead = self.dead[v]
            squares = [s for s in empties if not dead[s]]
            if kind in self.no_two_on_file:
                file_of = self.file_of
                taken = {file_of[s] for s, w in enumerate(board) if w == v}
                if taken:
                    squares = [s for s in squares if file_of[s] not in taken]
            made = self.drop_moves[kind]
            if kind in self.no_mate_by_drop and enemy_king >= 0:
                for s in squares:
                    move = made[s]
                    if gives_check_from(pos, v, s, enemy_king) and drop_mates(pos, move):
                        continue
                    out.append(move)
            else:
                out += [made[s] for s in squares]
        return out
