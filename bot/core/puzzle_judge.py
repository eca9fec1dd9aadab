"""Whether a solver's move is right, in tsume style, and what the defence answers: pure
computation over the rules core and the prover (run off the event loop by the handler).

A move is right when it gives check and the attacker still mates in the plies the puzzle has
left against every defence (:meth:`Prover.defence_fails`): any such move is as good as the
collection's solution.  The defence then plays the reply after which the mate takes longest
(the prover's conventions, :meth:`Prover.defence_line`).  A wrong move is told apart: no check,
or a check after which a defence (a king's escape, preferably, else a capture or a block)
leaves no mate in time.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from puzzles.prover import BudgetExceeded, Prover, checking_moves
from rules import Move, Position

NODE_LIMIT = 300_000
"""Nodes one judgement may search (never the clock: the same answer every time)."""


class Verdict(Enum):
    SOLVED = "solved"  # the move mates
    RIGHT = "right"  # the move keeps a mate in time; ``reply`` is the defence's answer
    NOT_CHECK = "not_check"  # every attacking move must give check
    ESCAPES = "escapes"  # a check the king walks out of: ``reply``
    REFUTED = "refuted"  # a check that ``reply`` (a capture, a block) answers in time
    HOLDS = "holds"  # a check after which the defence holds out (beyond the node limit)


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    reply: Move | None = None


def judge(pos: Position, move: Move, plies_left: int, node_limit: int = NODE_LIMIT) -> Judgement:
    """Judge the attacker's legal ``move`` in ``pos`` (not changed) with ``plies_left`` (odd)
    plies of the mate left."""
    work = pos.copy()
    if move not in checking_moves(work):
        return Judgement(Verdict.NOT_CHECK)
    work.make_unchecked(move)
    replies = work.legal_moves()
    if not replies:
        return Judgement(Verdict.SOLVED)
    prover = Prover(node_limit)
    king = work.kings[work.side]
    by_king_first = sorted(replies, key=lambda m: (m.from_sq != king, work.usi(m)))
    try:
        if plies_left >= 3 and prover.defence_fails(work, plies_left - 1):
            return Judgement(Verdict.RIGHT, prover.defence_line(work, plies_left - 1)[0])
        for reply in by_king_first:
            work.make_unchecked(reply)
            held = not prover.mates_within(work, plies_left - 2)
            work.undo()
            if held:
                escapes = reply.from_sq == king and not reply.drop
                return Judgement(Verdict.ESCAPES if escapes else Verdict.REFUTED, reply)
    except BudgetExceeded:
        pass
    return Judgement(Verdict.HOLDS)


def mating_line(pos: Position, plies_left: int, node_limit: int = NODE_LIMIT) -> list[Move]:
    """The rest of a mate from ``pos`` (attacker to move, a mate in ``plies_left`` known to
    be there): the attacker's fastest moves and the defence's longest replies; [] when the
    search runs out of nodes."""
    work = pos.copy()
    prover = Prover(node_limit)
    try:
        return prover.attack_line(work, plies_left)
    except BudgetExceeded:
        return []
