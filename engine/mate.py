"""A checks-only mate search for the side to move (tsume style), run before the main search.

Every attacking move gives check; the defence may play any legal move.  Deepening by two
plies at a time (mate in 1, 3, 5, 7 plies), it proves the shortest mate within its length and
node budget, or gives up.  Such check sequences decide many shogi games and lie beyond the
horizon of a shallow full-width search, whose width goes to moves that do not check.

Checks are found without playing every move: a drop checks when the dropped piece attacks the
king; a board move when the piece (promoted or not) attacks the king from its new square, or
when it leaves a line through which one of the attacker's sliders reaches the king.  Only those
candidates are played, to test that they leave the own king safe and really give check.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.checks import CheckTables
from engine.moves import StagedMoves
from rules import SENTE, Move, Position, Variant
from rules.movegen import legal_moves


class _OutOfBudget(Exception):
    pass


class MateSearch:
    """Mate searches in one variant; each :meth:`find` starts afresh."""

    def __init__(self, variant: Variant, checks: CheckTables, staged: StagedMoves) -> None:
        self.checks = checks
        self.staged = staged
        self.promote = variant.tables.promote
        self.nodes = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.stopped: Callable[[], bool] | None = None
        # attacker to move: no mate within this many plies was found
        self.refuted: dict[int, int] = {}

    def find(
        self,
        pos: Position,
        max_plies: int,
        node_limit: int,
        deadline: float = 0.0,
        stopped: Callable[[], bool] | None = None,
    ) -> tuple[Move, int] | None:
        """The first move of the shortest mate of at most ``max_plies`` plies for the side to
        move of ``pos`` (restored on return) and its length, or None: no such mate, or the
        budget of ``node_limit`` moves played (and the ``time.perf_counter`` ``deadline``,
        when set) ran out first, or ``stopped()`` said so."""
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.stopped = stopped
        self.refuted = {}
        depth = pos.ply
        try:
            return self._shortest(pos, max_plies)
        except _OutOfBudget:
            while pos.ply > depth:
                pos.pop()
        return None

    def line(self, pos: Position, move: Move, plies: int, node_limit: int) -> list[Move]:
        """The mating line :meth:`find` proved, from its first ``move``: the defence plays the
        reply that is mated last, the attack the shortest mate after it.  Cut short if
        ``node_limit`` moves played do not suffice; ``pos`` is restored."""
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = 0.0
        self.stopped = None
        out = [move]
        start = pos.ply
        pos.make_unchecked(move)
        try:
            remaining = plies - 1
            while remaining > 0:
                longest: tuple[int, Move, Move] | None = None
                for reply in legal_moves(pos):
                    pos.make_unchecked(reply)
                    found = self._shortest(pos, remaining - 1)
                    pos.pop()
                    if found is not None and (longest is None or found[1] > longest[0]):
                        longest = (found[1], reply, found[0])
                if longest is None:
                    break
                remaining, reply, mating = longest
                out += [reply, mating]
                pos.make_unchecked(reply)
                pos.make_unchecked(mating)
                remaining -= 1
        except _OutOfBudget:
            pass
        while pos.ply > start:
            pos.pop()
        return out

    def _shortest(self, pos: Position, max_plies: int) -> tuple[Move, int] | None:
        for plies in range(1, max_plies + 1, 2):
            move = self._attack(pos, plies)
            if move is not None:
                return move, plies
        return None

    def checking_moves(self, pos: Position) -> list[Move]:
        """The legal moves of the side to move that give check."""
        king = pos.kings[pos.side ^ 1]
        if king < 0:
            return []
        checks = self.checks
        if pos.is_check():
            candidates = legal_moves(pos)
            unchecked = False
        else:
            candidates = self._direct_or_uncovering(pos, king)
            unchecked = True
        out = []
        for move in candidates:
            frm, to = move.from_sq, move.to_sq
            pos.make_unchecked(move)
            legal = not (unchecked and frm >= 0 and checks.exposed_own_king(pos, frm, to))
            if legal and checks.gives_check(pos, frm, to):
                out.append(move)
            pos.pop()
        return out

    def _direct_or_uncovering(self, pos: Position, king: int) -> list[Move]:
        """The moves (own king safety not tested) that may give check: the moved or dropped
        piece attacks ``king`` from its square, or the piece left a line to it."""
        hits = self.checks.hits
        lines = self.checks.lines[pos.side][king]
        board = pos.board
        promote = self.promote
        out = []
        for move in self.staged.board_moves(pos):
            frm, to, promoted, _drop = move
            v = board[frm]
            between = hits[promote[v] if promoted else v][to].get(king)
            direct = between is not None and all(not board[s] or s == frm for s in between)
            if direct or frm in lines:
                out.append(move)
        sign = 1 if pos.side == SENTE else -1
        for move in self.staged.drops(pos):
            between = hits[move.drop * sign][move.to_sq].get(king)
            if between is not None and all(not board[s] for s in between):
                out.append(move)
        return out

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes >= self.node_limit:
            raise _OutOfBudget
        if self.nodes & 63:
            return
        if self.deadline and time.perf_counter() >= self.deadline:
            raise _OutOfBudget
        if self.stopped is not None and self.stopped():
            raise _OutOfBudget

    def _attack(self, pos: Position, plies: int) -> Move | None:
        """A check after which every defence is mated within ``plies`` - 1 more plies."""
        key = pos.hash
        if self.refuted.get(key, 0) >= plies:
            return None
        for move in self._checks_in_order(pos):
            self._count()
            pos.make_unchecked(move)
            mated = self._defend(pos, plies - 1)
            pos.pop()
            if mated:
                return move
        self.refuted[key] = plies
        return None

    def _defend(self, pos: Position, plies: int) -> bool:
        """Every legal reply of the side in check leads to mate within ``plies`` plies."""
        replies = legal_moves(pos)
        if not replies:
            return True
        if plies <= 0:
            return False
        king = pos.kings[pos.side]
        board = pos.board
        # the replies most likely to escape first: king moves, captures, then the rest
        replies.sort(key=lambda m: 0 if m.from_sq == king else 1 if board[m.to_sq] else 2)
        for reply in replies:
            self._count()
            pos.make_unchecked(reply)
            mates = self._attack(pos, plies - 1) is not None
            pos.pop()
            if not mates:
                return False
        return True

    def _checks_in_order(self, pos: Position) -> list[Move]:
        """Checks that take something or promote first, then board moves, then drops."""
        board = pos.board
        moves = self.checking_moves(pos)
        moves.sort(key=lambda m: 0 if board[m.to_sq] or m.promote else 2 if m.drop else 1)
        return moves
