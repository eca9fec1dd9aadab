"""Why a well-formed move is illegal, in words a player understands.

``explain_illegal`` is called only for moves that legal move generation rejected; it finds the
first rule the move breaks and returns an :class:`IllegalMoveError` with a stable ``code`` and
the facts in ``params`` (squares, pieces) for message catalogues.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import movegen
from rules.arrays import plain
from rules.english import with_article
from rules.errors import IllegalMoveError
from rules.tables import SENTE

if TYPE_CHECKING:
    from rules.move import Move
    from rules.position import Position

COLOR = ("sente", "gote")


def _piece_name(pos: Position, value: int) -> str:
    return pos.variant.piece(abs(value)).name.lower()


def _describe(pos: Position, sq: int) -> str:
    """``gote's rook on 5a``."""
    v = pos.piece_at(sq)
    return f"{COLOR[0 if v > 0 else 1]}'s {_piece_name(pos, v)} on {pos.tables.square_names[sq]}"


def _occupant(pos: Position, sq: int, prefix: str = "") -> dict[str, object]:
    """The facts of the piece on ``sq`` for a message: its letter and its side."""
    v = pos.piece_at(sq)
    return {f"{prefix}piece": pos.variant.piece(abs(v)).letter, f"{prefix}side": 0 if v > 0 else 1}


def _error(message: str, code: str, **params: object) -> IllegalMoveError:
    return IllegalMoveError(message, code=code, **params)


def explain_illegal(pos: Position, move: Move) -> IllegalMoveError:
    """The reason ``move`` is illegal in ``pos`` (assumes it is)."""
    reason = _drop_reason(pos, move) if move.drop else _board_reason(pos, move)
    if reason is not None:
        return reason
    return _king_safety_reason(pos, move)


def _drop_reason(pos: Position, move: Move) -> IllegalMoveError | None:
    t = pos.tables
    variant = pos.variant
    piece = variant.piece(move.drop)
    name = piece.name.lower()
    a_name = with_article(name)
    where = t.square_names[move.to_sq]
    if not variant.drops.enabled:
        return _error(
            f"{variant.id} has no drops: captured pieces leave the game",
            "no_drops",
            square=where,
            variant_id=variant.id,
        )
    if piece.promoted or piece.royal:
        return _error(f"{a_name} cannot be dropped", "not_droppable", piece=piece.letter)
    if pos.hands[pos.side][move.drop] == 0:
        return _error(f"you have no {name} in hand", "not_in_hand", piece=piece.letter)
    if pos.board[move.to_sq]:
        return _error(
            f"{where} is occupied by {_describe(pos, move.to_sq)}",
            "square_occupied",
            square=where,
            **_occupant(pos, move.to_sq),
        )
    sign = 1 if pos.side == SENTE else -1
    if t.dead[move.drop * sign][move.to_sq]:
        return _error(
            f"{a_name} dropped on {where} could never move, so it may not be dropped there",
            "dead_drop",
            piece=piece.letter,
            square=where,
        )
    if move.drop in variant.drops.no_two_on_file:
        column = t.file_of[move.to_sq]
        for sq in range(column, t.size, t.width):
            if pos.board[sq] == move.drop * sign:
                file_no = variant.files - column
                return _error(
                    f"you already have an unpromoted {name} on file {file_no} "
                    f"(on {t.square_names[sq]}): two on one file is forbidden (nifu)",
                    "nifu",
                    piece=piece.letter,
                    square=where,
                    other=t.square_names[sq],
                )
    enemy_king = pos.kings[pos.side ^ 1]
    if (
        move.drop in variant.drops.no_mate_by_drop
        and enemy_king >= 0
        and not _leaves_check(pos, move)
        and movegen.gives_check_from(pos, move.drop * sign, move.to_sq, enemy_king)
        and movegen.drop_mates(pos, move)
    ):
        return _error(
            f"dropping {a_name} to give checkmate is forbidden (uchifuzume)",
            "uchifuzume",
            piece=piece.letter,
            square=where,
        )
    return None


def _board_reason(pos: Position, move: Move) -> IllegalMoveError | None:
    t = pos.tables
    board = plain(pos.board)
    frm, to = move.from_sq, move.to_sq
    src, dst = t.square_names[frm], t.square_names[to]
    v = board[frm]
    sign = 1 if pos.side == SENTE else -1
    if not v:
        return _error(f"there is no piece on {src}", "no_piece", square=src)
    name = _piece_name(pos, v)
    a_name = with_article(name)
    if v * sign < 0:
        return _error(
            f"the {name} on {src} belongs to {COLOR[pos.side ^ 1]}, and it is "
            f"{COLOR[pos.side]}'s turn",
            "not_your_piece",
            square=src,
            piece=pos.variant.piece(abs(v)).letter,
        )
    if board[to] * sign > 0:
        return _error(
            f"your own {_piece_name(pos, board[to])} is on {dst}",
            "own_piece_on_target",
            square=dst,
            piece=pos.variant.piece(abs(board[to])).letter,
        )
    if to not in t.leaps[v][frm]:
        ray = next((r for r in t.rides[v][frm] if to in r), None)
        if ray is None:
            return _error(
                f"{a_name} cannot move from {src} to {dst}",
                "bad_pattern",
                piece=pos.variant.piece(abs(v)).letter,
                origin=src,
                square=dst,
            )
        for sq in ray[: ray.index(to)]:
            if board[sq]:
                return _error(
                    f"the {name} on {src} cannot reach {dst}: the way is blocked by "
                    f"{_describe(pos, sq)}",
                    "path_blocked",
                    origin=src,
                    square=dst,
                    blocker=t.square_names[sq],
                    piece=pos.variant.piece(abs(v)).letter,
                    **_occupant(pos, sq, "blocker_"),
                )
    piece = pos.variant.piece(abs(v))
    zone = t.zone[pos.side]
    if move.promote:
        if not piece.promotes_to:
            why = "is already promoted" if piece.promoted else "never promotes"
            reason = "already_promoted" if piece.promoted else "never_promotes"
            return _error(f"{a_name} {why}", "cannot_promote", piece=piece.letter, reason=reason)
        if not (zone[frm] or zone[to]):
            return _error(
                f"a piece may promote only on a move that starts or ends in the promotion zone "
                f"(the far {pos.variant.zone_depth} ranks); {src}-{dst} does neither",
                "promotion_outside_zone",
                depth=pos.variant.zone_depth,
                origin=src,
                square=dst,
            )
    elif piece.promotes_to and t.dead[v][to]:
        return _error(
            f"{a_name} on {dst} could never move again, so it must promote there (add +)",
            "must_promote",
            piece=piece.letter,
            square=dst,
        )
    return None


def _leaves_check(pos: Position, move: Move) -> bool:
    pos.make_unchecked(move)
    try:
        return bool(movegen.checkers(pos, pos.side ^ 1))
    finally:
        pos.undo()


def _king_safety_reason(pos: Position, move: Move) -> IllegalMoveError:
    side = pos.side
    was_in_check = bool(movegen.checkers(pos, side))
    pos.make_unchecked(move)
    try:
        ksq = pos.kings[side]
        attackers = [sq for sq, _ in movegen.checkers(pos, side)] if ksq >= 0 else []
        names = pos.tables.square_names
        by = " and ".join(_describe(pos, sq) for sq in attackers)
        king = f"your {_piece_name(pos, pos.board[ksq])} on {names[ksq]}" if ksq >= 0 else ""
    finally:
        pos.undo()
    if attackers:
        if was_in_check:
            return _error(
                f"you are in check, and after this move {king} would still be attacked by {by}",
                "still_in_check",
                king=names[ksq],
                attackers=[names[sq] for sq in attackers],
            )
        return _error(
            f"this move would leave {king} in check from {by}",
            "leaves_king_in_check",
            king=names[ksq],
            attackers=[names[sq] for sq in attackers],
        )
    return _error("that move is not legal here", "illegal_move")
