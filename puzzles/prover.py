"""Mate proofs in tsume style: the side to move mates in N plies against every defence.

An iterative-deepening AND/OR search over the rules core (nothing else is asked: no
evaluation, no engine).  At the attacker's turns (OR nodes) only checking moves are tried, in
every variant (with or without drops); at the defender's turns (AND nodes) every legal move
is, interpositions and drops included.  Mate is the defender in check with no legal move.
Pawn-drop mate (uchifuzume) needs no code of its own: the rules core never lists it as a
legal move, so a drop that would be one is never among the attacker's checks.

A transposition table keeps, per position with the attacker to move, the fewest plies a mate
was proven in and the most plies it was refuted in.  Searches count nodes and stop with
:class:`BudgetExceeded` past a fixed node limit: never a clock, so the same position with the
same limit always gives the same answer.

Conventions of the principal variation (see :func:`prove`):

- the length is counted in plies as a game would play them: every interposition the
  defence makes counts, even one the attacker simply captures (tsume composers leave such
  "useless interpositions" out of the count; a chat player has to answer them, so here they
  are in);
- the defence picks the reply after which the mate takes longest; among replies as long,
  one that does not spend a hand piece (a drop) before one that does, then the one that
  leaves the attacker the fewest pieces in hand at the mate (the tsume rule that the
  defence makes the attacker use up the hand), then the first in USI order;
- the attacker, after the (unique) key move, plays the fastest mate; among moves as fast,
  the first in USI order.  Later attacking moves need not be unique: any move that still
  mates in the plies left is as good (:func:`mates_within` answers that).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

from rules.move import Move
from rules.movegen import checkers, gives_check_from, legal_moves
from rules.tables import SENTE

if TYPE_CHECKING:
    from rules.position import Position
    from rules.tables import Tables

DEFAULT_NODE_LIMIT = 200_000


class BudgetExceeded(Exception):
    """The search used up its node limit before it could answer."""


class Verdict(Enum):
    MATE = "mate"  # a mate in ``plies`` with one key move
    NOT_UNIQUE = "not_unique"  # a mate in ``plies``, but more than one first move gives it
    NO_MATE = "no_mate"  # no mate within the plies asked
    UNKNOWN = "unknown"  # the node limit was reached first


@dataclass(frozen=True)
class Proof:
    """What :func:`prove` found.

    ``plies``: the mate's length (odd; 0 unless MATE or NOT_UNIQUE); ``key_moves``: every
    first move (USI, sorted) that mates in ``plies``; ``line``: the principal variation in
    USI, key move first, ending with the mating move; ``defences``: the defender's legal
    replies to the key move; ``defences_total``: the legal replies summed over every
    defender turn of the line; ``nodes``: nodes searched.
    """

    verdict: Verdict
    plies: int = 0
    key_moves: tuple[str, ...] = ()
    line: tuple[str, ...] = ()
    defences: int = 0
    defences_total: int = 0
    nodes: int = 0

    @property
    def moves_to_mate(self) -> int:
        """The attacker's moves in the mate (mate in 3 = 5 plies is ``3``)."""
        return (self.plies + 1) // 2


@lru_cache(maxsize=64)
def _king_lines(tables: Tables, king_sq: int, attacker: int) -> frozenset[int]:
    """Squares on a line along which a piece of ``attacker`` could reach ``king_sq``: the only
    squares a move can leave to uncover a check."""
    return frozenset(tables.ray_squares[attacker * tables.size + king_sq])


def checking_moves(pos: Position) -> list[Move]:
    """The legal moves of the side to move that give check."""
    king = pos.kings[pos.side ^ 1]
    if king < 0:
        return []
    t = pos.tables
    board = pos.board
    sign = 1 if pos.side == SENTE else -1
    lines = _king_lines(t, king, pos.side)
    out = []
    for move in legal_moves(pos):
        frm, to, promote, drop = move
        if drop:
            if gives_check_from(pos, drop * sign, to, king):
                out.append(move)
            continue
        v = board[frm]
        board[frm] = 0
        direct = gives_check_from(pos, t.promote[v] if promote else v, to, king)
        board[frm] = v
        if direct or (frm in lines and _uncovers_check(pos, move)):
            out.append(move)
    return out


def _uncovers_check(pos: Position, move: Move) -> bool:
    pos.make_unchecked(move)
    try:
        return bool(checkers(pos, pos.side))
    finally:
        pos.undo()


def _reply_order(pos: Position, move: Move) -> int:
    """Defender's replies most likely to refute first: king moves, captures, others, drops."""
    if move.drop:
        return 3
    if move.from_sq == pos.kings[pos.side]:
        return 0
    return 1 if pos.board[move.to_sq] else 2


class Prover:
    """One attacker's mate searches, sharing a transposition table and a node budget."""

    def __init__(self, node_limit: int = DEFAULT_NODE_LIMIT) -> None:
        self.node_limit = node_limit
        self.nodes = 0
        self._proven: dict[int, int] = {}  # attacker to move: mate found within these plies
        self._refuted: dict[int, int] = {}  # attacker to move: no mate within these plies

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise BudgetExceeded(f"more than {self.node_limit} nodes")

    def mates_within(self, pos: Position, plies: int) -> bool:
        """Does the side to move mate within ``plies`` (odd) checking on every move?"""
        if plies < 1:
            return False
        h = pos.hash
        known = self._proven.get(h)
        if known is not None and known <= plies:
            return True
        known = self._refuted.get(h)
        if known is not None and known >= plies:
            return False
        self._tick()
        tried = []
        for move in checking_moves(pos):
            pos.make_unchecked(move)
            replies = legal_moves(pos)
            pos.undo()
            if not replies:
                self._proven[h] = 1
                return True
            tried.append((len(replies), move, replies))
        if plies >= 3:
            tried.sort(key=lambda e: e[0])
            for _, move, replies in tried:
                pos.make_unchecked(move)
                try:
                    mated = self._defence_fails(pos, plies - 1, replies)
                finally:
                    pos.undo()
                if mated:
                    self._proven[h] = min(plies, self._proven.get(h, plies))
                    return True
        self._refuted[h] = max(plies, self._refuted.get(h, plies))
        return False

    def defence_fails(self, pos: Position, plies: int) -> bool:
        """With the defender to move: is it mated now, or within ``plies`` whatever it does?"""
        return self._defence_fails(pos, plies, legal_moves(pos))

    def _defence_fails(self, pos: Position, plies: int, replies: list[Move]) -> bool:
        if not replies:
            return True
        if plies < 2:
            return False
        self._tick()
        for move in sorted(replies, key=lambda m: _reply_order(pos, m)):
            pos.make_unchecked(move)
            try:
                mated = self.mates_within(pos, plies - 1)
            finally:
                pos.undo()
            if not mated:
                return False
        return True

    def mate_length(self, pos: Position, max_plies: int) -> int | None:
        """The fewest plies (odd) in which the side to move mates, or None beyond
        ``max_plies``."""
        for plies in range(1, max_plies + 1, 2):
            if self.mates_within(pos, plies):
                return plies
        return None

    # --- the principal variation ---------------------------------------------------------

    def attack_line(self, pos: Position, plies: int) -> list[Move]:
        """The mate in exactly ``plies`` from ``pos`` (attacker to move; proven before)."""
        for move in sorted(checking_moves(pos), key=pos.usi):
            pos.make_unchecked(move)
            try:
                if self.defence_fails(pos, plies - 1):
                    return [move, *self.defence_line(pos, plies - 1)]
            finally:
                pos.undo()
        raise AssertionError(f"no mate in {plies} plies in {pos.sfen()}")

    def defence_line(self, pos: Position, plies: int) -> list[Move]:
        """The rest of the mate with the defender to move, mated within ``plies``."""
        replies = legal_moves(pos)
        if not replies:
            return []
        best: tuple[int, bool, int, str] | None = None
        best_line: list[Move] = []
        for move in replies:
            pos.make_unchecked(move)
            try:
                length = self.mate_length(pos, plies - 1)
                if length is None:
                    raise AssertionError(f"{pos.usi(move)} escapes in {pos.sfen()}")
                if best is not None and length < -best[0]:
                    continue
                line = self.attack_line(pos, length)
                leftover = _hand_after(pos, line)
            finally:
                pos.undo()
            rank = (-length, move.drop != 0, leftover, pos.usi(move))
            if best is None or rank < best:
                best, best_line = rank, [move, *line]
        return best_line


def _hand_after(pos: Position, line: list[Move]) -> int:
    """Pieces in the hand of the side to move once ``line`` is played."""
    side = pos.side
    for move in line:
        pos.make_unchecked(move)
    count = sum(pos.hands[side])
    for _ in line:
        pos.undo()
    return count


def prove(pos: Position, max_plies: int, node_limit: int = DEFAULT_NODE_LIMIT) -> Proof:
    """Does the side to move of ``pos`` mate within ``max_plies`` (odd) against every
    defence, checking on every move, with a single first move?  ``pos`` is not changed."""
    work = pos.copy()
    prover = Prover(node_limit)
    try:
        plies = prover.mate_length(work, max_plies)
        if plies is None:
            return Proof(Verdict.NO_MATE, nodes=prover.nodes)
        keys = []
        for move in checking_moves(work):
            work.make_unchecked(move)
            if prover.defence_fails(work, plies - 1):
                keys.append(move)
            work.undo()
        if len(keys) != 1:
            usi = tuple(sorted(work.usi(m) for m in keys))
            return Proof(Verdict.NOT_UNIQUE, plies, usi, nodes=prover.nodes)
        key = keys[0]
        work.make_unchecked(key)
        line = [key, *prover.defence_line(work, plies - 1)]
        work.undo()
    except BudgetExceeded:
        return Proof(Verdict.UNKNOWN, nodes=prover.nodes)
    defences = []
    text = []
    for move in line:
        if work.side != pos.side:
            defences.append(len(legal_moves(work)))
        text.append(work.usi(move))
        work.make_unchecked(move)
    return Proof(
        Verdict.MATE,
        plies,
        (text[0],),
        tuple(text),
        defences[0] if defences else 0,
        sum(defences),
        prover.nodes,
    )
