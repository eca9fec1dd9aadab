"""A deliberately simple legal-move generator for cross-checking ``rules.movegen``.

It reads each piece's ``MoveSpec`` directly (no precomputed tables, no pin logic) and decides
legality by playing the move on a copy and scanning every enemy piece for an attack on the king.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules import SENTE, Move, Position


def _targets(pos: Position, sq: int, value: int) -> Iterator[int]:
    w, h = pos.variant.files, pos.variant.ranks
    col, row = sq % w, sq // w
    sign = 1 if value > 0 else -1
    spec = pos.variant.piece(abs(value)).moves
    for dx, dy in spec.leaps:
        c, r = col + dx * sign, row - dy * sign
        if 0 <= c < w and 0 <= r < h:
            yield r * w + c
    for (dx, dy), limit in spec.rides:
        c, r, steps = col, row, 0
        while True:
            c, r, steps = c + dx * sign, r - dy * sign, steps + 1
            if not (0 <= c < w and 0 <= r < h) or (limit and steps > limit):
                break
            yield r * w + c
            if pos.board[r * w + c]:
                break


def _could_move_from(pos: Position, sq: int, value: int) -> bool:
    empty = pos.copy()
    empty.board[:] = [0] * len(empty.board)
    return any(True for _ in _targets(empty, sq, value))


def _king_attacked(pos: Position, color: int) -> bool:
    sign = 1 if color == SENTE else -1
    royal = pos.variant.royal_kind * sign
    if royal not in pos.board:
        return False
    king = pos.board.index(royal)
    return any(king in _targets(pos, sq, v) for sq, v in enumerate(pos.board) if v * sign < 0)


def _pseudo(pos: Position) -> Iterator[Move]:
    t = pos.tables
    sign = 1 if pos.side == SENTE else -1
    for sq, v in enumerate(pos.board):
        if v * sign <= 0:
            continue
        piece = pos.variant.piece(abs(v))
        for d in _targets(pos, sq, v):
            if pos.board[d] * sign > 0:
                continue
            zone = t.zone[pos.side]
            if piece.promotes_to and (zone[sq] or zone[d]):
                yield Move(sq, d, True)
            if _could_move_from(pos, d, v):
                yield Move(sq, d, False)
    if not pos.variant.drops.enabled:
        return
    for kind, n in enumerate(pos.hands[pos.side]):
        if not n:
            continue
        for d, occupant in enumerate(pos.board):
            if occupant or not _could_move_from(pos, d, kind * sign):
                continue
            if kind in pos.variant.drops.no_two_on_file and any(
                pos.board[s] == kind * sign for s in range(d % t.width, t.size, t.width)
            ):
                continue
            yield Move(-1, d, False, kind)


def naive_legal_moves(pos: Position) -> list[Move]:
    out = []
    for move in _pseudo(pos):
        pos.make_unchecked(move)
        ok = not _king_attacked(pos, pos.side ^ 1)
        if (
            ok
            and move.drop in pos.variant.drops.no_mate_by_drop
            and _king_attacked(pos, pos.side)
            and not naive_legal_moves(pos)
        ):
            ok = False
        pos.pop()
        if ok:
            out.append(move)
    return out


def naive_in_check(pos: Position) -> bool:
    return _king_attacked(pos, pos.side)
