"""Legal move generation: pins and checks from the king outward, no make/unmake per move.

Only a pawn-type drop that gives check is tried on the board, to rule out mate by drop
(uchifuzume).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rules.arrays import IntArray
from rules.move import Move
from rules.tables import SENTE

if TYPE_CHECKING:
    from rules.movetables import MoveTables
    from rules.position import Position


def checkers(pos: Position, side: int) -> list[tuple[int, tuple[int, ...]]]:
    """Enemy pieces attacking ``side``'s king: ``(square, squares that would block)``."""
    ksq = pos.kings[side]
    if ksq < 0:
        return []
    return _checks_and_pins(pos, side, ksq, None)


def _checks_and_pins(
    pos: Position, side: int, ksq: int, pinned: dict[int, frozenset[int]] | None
) -> list[tuple[int, tuple[int, ...]]]:
    t = pos.tables
    board = pos.board
    sign = 1 if side == SENTE else -1
    row = (side ^ 1) * t.size + ksq
    squares, ids, after = t.ray_squares[row], t.ray_sets[row], t.ray_next[row]
    sets = t.value_sets
    found: list[tuple[int, tuple[int, ...]]] = []
    start = 0
    n = len(squares)
    while start < n:  # one ray a turn, outward from the king
        end = after[start]
        own = -1  # where the first own piece on the ray stands
        for i in range(start, end):
            s = squares[i]
            v = board[s]
            if not v:
                continue
            if v * sign > 0:
                if own >= 0 or pinned is None:
                    break
                own = i
                continue
            if sets[ids[i]][v]:
                if own < 0:
                    found.append((s, tuple([squares[j] for j in range(start, i)])))
                elif pinned is not None:
                    pinned[squares[own]] = frozenset([squares[j] for j in range(start, i + 1)])
            break
        start = end
    jumps, ids = t.jump_squares[row], t.jump_sets[row]
    for j in range(len(jumps)):
        s = jumps[j]
        if sets[ids[j]][board[s]]:
            found.append((s, ()))
    return found


def attacked(pos: Position, sq: int, by: int) -> bool:
    """Is ``sq`` attacked by a piece of colour ``by``?"""
    t = pos.tables
    board = pos.board
    row = by * t.size + sq
    squares, ids, after = t.ray_squares[row], t.ray_sets[row], t.ray_next[row]
    sets = t.value_sets
    i = 0
    n = len(squares)
    while i < n:
        v = board[squares[i]]
        if v:
            if sets[ids[i]][v]:
                return True
            i = after[i]  # the rest of this ray is blocked
        else:
            i += 1
    jumps, ids = t.jump_squares[row], t.jump_sets[row]
    for j in range(len(jumps)):  # noqa: SIM110 (a loop: no generator to set up)
        if sets[ids[j]][board[jumps[j]]]:
            return True
    return False


def legal_moves(pos: Position, like: Move | None = None) -> list[Move]:
    """Every legal move of the side to move; with ``like``, only those of the piece (on the
    board, or the kind in hand to the square) that ``like`` moves: what checking one move
    needs, at the cost of one piece's moves rather than the whole position's."""
    t = pos.tables
    board = pos.board
    side = pos.side
    sign = 1 if side == SENTE else -1
    enemy = side ^ 1
    ksq = pos.kings[side]
    pinned: dict[int, frozenset[int]] = {}
    checks = _checks_and_pins(pos, side, ksq, pinned) if ksq >= 0 else []
    allowed: frozenset[int] | None = None
    if len(checks) == 1:
        sq, blocks = checks[0]
        allowed = frozenset((sq, *blocks))
    elif len(checks) > 1:
        allowed = frozenset()
    moves: list[Move] = []
    tables, reach, size = t.moves, t.moves.reach, t.size
    # in check: only pieces that reach a square of ``allowed`` can answer it
    allowed_mask = sum(1 << sq for sq in allowed) if allowed is not None else -1
    royal = pos.variant.royal_kind * sign

    squares: Iterable[int] = range(t.size)
    if like is not None:
        squares = (like.from_sq,) if not like.drop and 0 <= like.from_sq < t.size else ()
    for s in squares:
        v = board[s]
        if v * sign <= 0:
            continue
        if v == royal or not reach[v][s] & allowed_mask:
            continue
        within = allowed
        pin = pinned.get(s)
        if pin is not None:
            within = pin if allowed is None else allowed & pin
        moves += _piece_moves(board, sign, tables, v * size + s, within)

    if ksq >= 0 and (like is None or (not like.drop and like.from_sq == ksq)):
        board[ksq] = 0
        for move in _piece_moves(board, sign, tables, royal * size + ksq):
            d = move[1]
            if (like is None or d == like.to_sq) and not attacked(pos, d, enemy):
                moves.append(move)
        board[ksq] = royal

    if pos.variant.drops.enabled and len(checks) < 2 and (like is None or like.drop):
        _drops(pos, side, sign, allowed, moves.append, like)
    return moves


def _piece_moves(
    board: IntArray,
    sign: int,
    tables: MoveTables,
    row: int,
    within: frozenset[int] | None = None,
) -> list[Move]:
    """The moves of the piece of colour ``sign`` in ``row`` of the move tables
    (:mod:`rules.movetables`): to empty or enemy squares, rides stopped by pieces; only to
    the squares ``within`` when given."""
    out: list[Move] = []
    made = tables.leap_made[row]
    for i, d in enumerate(tables.leap_to[row]):
        if board[d] * sign <= 0 and (within is None or d in within):
            out += made[i]
    made, after = tables.ride_made[row], tables.ride_next[row]
    resume = 0  # a piece on a ride's square: the next ride's first square
    for i, d in enumerate(tables.ride_to[row]):
        if i < resume:
            continue
        w = board[d]
        if w * sign <= 0 and (within is None or d in within):
            out += made[i]
        if w:
            resume = after[i]
    return out


def _drops(
    pos: Position,
    side: int,
    sign: int,
    allowed: frozenset[int] | None,
    append: Callable[[Move], None],
    like: Move | None = None,
) -> None:
    t = pos.tables
    board = pos.board
    hand = pos.hands[side]
    rules = pos.variant.drops
    kinds = [k for k in range(1, len(hand)) if hand[k]]
    if like is not None:
        kinds = [k for k in kinds if k == like.drop]
    if not kinds:
        return
    if like is not None:
        to = like.to_sq
        inside = 0 <= to < t.size and (allowed is None or to in allowed)
        empties = [to] if inside and not board[to] else []
    elif allowed is None:
        empties = [s for s in range(t.size) if not board[s]]
    else:
        empties = [s for s in allowed if not board[s]]
    enemy_king = pos.kings[side ^ 1]
    for kind in kinds:
        v = kind * sign
        dead = t.dead[v]
        blocked_files: set[int] = set()
        if kind in rules.no_two_on_file:
            file_of = t.file_of
            blocked_files = {file_of[s] for s in range(t.size) if board[s] == v}
        no_mate = kind in rules.no_mate_by_drop and enemy_king >= 0
        made = t.moves.drop_moves[kind]
        for s in empties:
            if dead[s] or (blocked_files and t.file_of[s] in blocked_files):
                continue
            move = made[s]
            if no_mate and gives_check_from(pos, v, s, enemy_king) and drop_mates(pos, move):
                continue
            append(move)


def gives_check_from(pos: Position, v: int, sq: int, target: int) -> bool:
    """Would a piece of value ``v`` on ``sq`` attack ``target`` on the current board?"""
    t = pos.tables
    if target in t.leaps[v][sq]:
        return True
    board = pos.board
    for ray in t.rides[v][sq]:
        for d in ray:
            if d == target:
                return True
            if board[d]:
                break
    return False


def drop_mates(pos: Position, move: Move) -> bool:
    """Does this drop leave the opponent with no legal move?"""
    pos.make_unchecked(move)
    try:
        return not legal_moves(pos)
    finally:
        pos.undo()
