"""How games end by rule: mate, no legal move, repetition, perpetual check, impasse."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from rules.errors import IllegalDeclarationError
from rules.tables import GOTE, SENTE

if TYPE_CHECKING:
    from rules.position import Position


class Termination(Enum):
    CHECKMATE = "checkmate"
    NO_LEGAL_MOVES = "no_legal_moves"
    REPETITION = "repetition"
    PERPETUAL_CHECK = "perpetual_check"
    IMPASSE = "impasse"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"
    AGREED_DRAW = "agreed_draw"
    ABORTED = "aborted"
    # An illegal move that ended the game (only in records from elsewhere: Komabot refuses
    # illegal moves); the other side wins.
    ILLEGAL_MOVE = "illegal_move"


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: int | None  # SENTE, GOTE, or None for a draw


def outcome(pos: Position) -> Outcome | None:
    if not pos.legal_moves():
        term = Termination.CHECKMATE if pos.is_check() else Termination.NO_LEGAL_MOVES
        return Outcome(term, pos.side ^ 1)
    rules = pos.variant.repetition
    if pos.repetitions() >= rules.count:
        if rules.perpetual_check_loses:
            checker = perpetual_checker(pos)
            if checker is not None:
                return Outcome(Termination.PERPETUAL_CHECK, checker ^ 1)
        return Outcome(Termination.REPETITION, None)
    return None


def perpetual_checker(pos: Position) -> int | None:
    """The side that gave check with every move since the first occurrence of this position."""
    first = _first_occurrence(pos)
    probe = pos.copy()
    all_checks = {SENTE: True, GOTE: True}
    moved = {SENTE: False, GOTE: False}
    for _ in range(first):
        mover = probe.side ^ 1
        moved[mover] = True
        if not probe.is_check():
            all_checks[mover] = False
        probe.undo()
    for color in (SENTE, GOTE):
        if moved[color] and all_checks[color]:
            return color
    return None


def _first_occurrence(pos: Position) -> int:
    """How many plies back the current position first occurred."""
    target = pos.hash
    probe = pos.copy()
    back = 0
    first = 0
    while probe.ply:
        probe.undo()
        back += 1
        if probe.hash == target:
            first = back
    return first


# --- impasse (jishogi, 27-point declaration) ---------------------------------------------


class ImpasseCondition(Enum):
    """What a valid impasse declaration needs."""

    KING_IN_ZONE = "king_in_zone"
    PIECES_IN_ZONE = "pieces_in_zone"  # at least ``pieces_needed`` others in the zone
    NOT_IN_CHECK = "not_in_check"
    POINTS = "points"  # at least ``needed`` points


@dataclass(frozen=True)
class ImpasseReport:
    """The facts of an impasse declaration and the conditions it fails (empty: valid):
    ``unmet`` for programs, ``failed`` the same in English words."""

    points: int
    needed: int
    pieces_in_zone: int
    pieces_needed: int
    unmet: tuple[ImpasseCondition, ...]

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(self._words(c) for c in self.unmet)

    def _words(self, condition: ImpasseCondition) -> str:
        if condition is ImpasseCondition.KING_IN_ZONE:
            return "your king is not in the promotion zone"
        if condition is ImpasseCondition.PIECES_IN_ZONE:
            return (
                f"only {self.pieces_in_zone} of your other pieces "
                f"{'is' if self.pieces_in_zone == 1 else 'are'} in the zone "
                f"(at least {self.pieces_needed} needed)"
            )
        if condition is ImpasseCondition.NOT_IN_CHECK:
            return "you are in check"
        return f"you have {self.points} points ({self.needed} needed)"


def impasse_report(pos: Position) -> ImpasseReport:
    """Check the 27-point declaration for the side to move."""
    rules = pos.variant.impasse
    if rules is None:
        raise IllegalDeclarationError(
            f"{pos.variant.id} has no impasse declaration", failed=("no impasse rule",)
        )
    t = pos.tables
    side = pos.side
    zone = t.zone[side]
    sign = 1 if side == SENTE else -1
    pieces = 0
    points = 0
    for sq, v in enumerate(pos.board):
        if v * sign <= 0 or not zone[sq] or sq == pos.kings[side]:
            continue
        pieces += 1
        big = t.base_kind[v] in rules.major_kinds
        points += rules.major_points if big else rules.minor_points
    for kind, n in enumerate(pos.hands[side]):
        if n:
            big = kind in rules.major_kinds
            points += n * (rules.major_points if big else rules.minor_points)
    needed = rules.points_sente if side == SENTE else rules.points_gote
    ksq = pos.kings[side]
    met = {
        ImpasseCondition.KING_IN_ZONE: ksq >= 0 and bool(zone[ksq]),
        ImpasseCondition.PIECES_IN_ZONE: pieces >= rules.min_pieces_in_zone,
        ImpasseCondition.NOT_IN_CHECK: not pos.is_check(),
        ImpasseCondition.POINTS: points >= needed,
    }
    unmet = tuple(c for c, ok in met.items() if not ok)
    return ImpasseReport(points, needed, pieces, rules.min_pieces_in_zone, unmet)


def declare_impasse(pos: Position) -> Outcome:
    """A win for the side to move if the declaration is valid; else IllegalDeclarationError."""
    report = impasse_report(pos)
    if report.failed:
        raise IllegalDeclarationError(
            "impasse declaration refused: " + "; ".join(report.failed),
            failed=report.failed,
            unmet=report.unmet,
            points=report.points,
            needed=report.needed,
            pieces_in_zone=report.pieces_in_zone,
        )
    return Outcome(Termination.IMPASSE, pos.side)
