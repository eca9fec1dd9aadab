"""Cheap check tests after a move: does it give check, did it expose the mover's own king.

A move can give check only with the piece it moved (from its new square) or by opening a line
through the square it left; a move by anything but the king can expose its own king only by
opening such a line (when the king was not in check before).  Lookup tables answer the first
case, and the full attack test of the rules core runs only when a line may have opened.
"""

from __future__ import annotations

from rules import GOTE, SENTE, Move, Position, Variant
from rules.arrays import IntArray
from rules.movegen import attacked


class CheckTables:
    """Per-variant tables for the tests."""

    def __init__(self, variant: Variant) -> None:
        t = variant.tables
        size = t.size
        kinds = len(variant.pieces)
        self.leaps = t.leaps
        self.rides = t.rides
        # hits[v][sq]: the squares a piece of value v on sq attacks on an empty board,
        # each with the squares in between that must be empty
        self.hits: list[list[dict[int, tuple[int, ...]]]] = [[] for _ in range(2 * kinds + 1)]
        for piece in variant.pieces:
            for sign in (1, -1):
                v = piece.kind * sign
                rows = []
                for sq in range(size):
                    found: dict[int, tuple[int, ...]] = {target: () for target in t.leaps[v][sq]}
                    for ray in t.rides[v][sq]:
                        for i, target in enumerate(ray):
                            found.setdefault(target, ray[:i])
                    rows.append(found)
                self.hits[v] = rows
        # lines[color][sq]: squares that, once empty, may let a slide of ``color`` reach sq
        self.lines: list[list[frozenset[int]]] = []
        for color in (SENTE, GOTE):
            per_square = []
            for sq in range(size):
                row = color * size + sq
                squares, ids, after = t.ray_squares[row], t.ray_sets[row], t.ray_next[row]
                # a square blocks when some piece attacks sq from further out on its ray
                blockers = {
                    squares[i]
                    for i in range(len(squares))
                    if any(any(t.value_sets[ids[j]]) for j in range(i + 1, after[i]))
                }
                per_square.append(frozenset(blockers))
            self.lines.append(per_square)

    def gives_check(self, pos: Position, frm: int, to: int) -> bool:
        """After a move from ``frm`` (-1 for a drop) to ``to`` was played: is the side now to
        move in check?"""
        king = pos.kings[pos.side]
        if king < 0:
            return False
        board = pos.board
        between = self.hits[board[to]][to].get(king)
        if between is not None:
            for sq in between:
                if board[sq]:
                    break
            else:
                return True
        mover = pos.side ^ 1
        return frm >= 0 and frm in self.lines[mover][king] and attacked(pos, king, mover)

    def quiet_move_checks(self, pos: Position, move: Move) -> bool:
        """Would ``move`` (a drop, or a board move that neither captures nor promotes) give
        check?  The answer :meth:`gives_check` gives after the move, without playing it: a
        search can skip a quiet move it would not search unless it checks at no more cost
        than two squares written and put back."""
        frm, to, _promote, drop = move
        side = pos.side
        king = pos.kings[side ^ 1]
        if king < 0:
            return False
        board = pos.board
        v = (drop if side == SENTE else -drop) if drop else board[frm]
        between = self.hits[v][to].get(king)
        if between is not None:
            if frm >= 0:
                board[frm] = 0
            try:
                for sq in between:
                    if board[sq]:
                        break
                else:
                    return True
            finally:
                if frm >= 0:
                    board[frm] = v
        if frm < 0 or frm not in self.lines[side][king]:
            return False
        board[frm] = 0
        board[to] = v
        try:
            return attacked(pos, king, side)
        finally:
            board[frm] = v
            board[to] = 0

    def threatens(self, pos: Position, frm: int, to: int, v: int, value: IntArray) -> bool:
        """Does the piece of signed value ``v`` moving from ``frm`` (-1: a drop) to ``to``
        attack, from there, an enemy piece worth more than itself (by ``value``, indexed by
        signed piece value)?  The same answer before the move is played and after it.  A
        quiet move that does is a threat the opponent must answer: not one to search
        shallower, nor to leave out near the leaves."""
        board = pos.board
        mine = value[v]
        sente = v > 0
        for target in self.leaps[v][to]:
            victim = board[target]
            if victim != 0 and (victim > 0) != sente and value[victim] > mine:
                return True
        for ray in self.rides[v][to]:
            for sq in ray:
                victim = board[sq]
                if victim == 0 or sq == frm:
                    continue
                if (victim > 0) != sente and value[victim] > mine:
                    return True
                break
        return False

    def exposed_own_king(self, pos: Position, frm: int, to: int) -> bool:
        """After a board move from ``frm`` to ``to`` by a side that was not in check: is
        its own king attacked now?"""
        mover = pos.side ^ 1
        king = pos.kings[mover]
        if king < 0:
            return False
        if king == to or frm in self.lines[pos.side][king]:
            return attacked(pos, king, pos.side)
        return False
