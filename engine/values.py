"""Piece values derived from a variant's data: how far and where each piece can move.

A piece's worth is its weighted mobility on an empty board, averaged over the squares it can
stand on: steps forward count more than sideways, sideways more than backward; a jump over
other pieces counts more than a step; each further square of a slide counts less than the one
before, as a real board is crowded.  The result is scaled so that a piece stepping one square
forward (a pawn or sparrow) is worth 100 and raised to a power a little above one, so that
strong pieces are worth more than the sum of their moves.  Fitted once against the usual
Standard Shogi values; no variant has its own code.  A variant file may override any value
(``[engine.piece_values]``, and ``[engine.hand_values]`` for pieces in hand).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Final

from rules import Variant, load_variant

FORWARD_WEIGHT: Final = 1.2
SIDEWAYS_WEIGHT: Final = 0.8
BACKWARD_WEIGHT: Final = 0.6
JUMP_WEIGHT: Final = 1.6  # a leap of more than one square, over anything
SLIDE_DECAY: Final = 0.75  # each further square of a slide counts this much of the one before
EXPONENT: Final = 1.2
PAWN: Final = 100
HAND_BONUS: Final = 0.10  # a piece in hand is worth this much more than on the board


@dataclass(frozen=True)
class PieceValues:
    """Centipawn values by kind (index 0 unused; the royal piece is worth 0)."""

    board: tuple[int, ...]  # on the board, by kind (promoted kinds included)
    hand: tuple[int, ...]  # in hand, by unpromoted kind (0 when drops are off)
    derived: tuple[int, ...]  # what the moves alone give, before any override

    def gain(self, kind: int, promoted_kind: int) -> int:
        """What promoting ``kind`` to ``promoted_kind`` adds (negative: it loses)."""
        return self.board[promoted_kind] - self.board[kind]


def weighted_mobility(variant: Variant, kind: int) -> float:
    """Average weighted number of squares a sente piece of ``kind`` reaches on an empty
    board, over the squares from which it can move at all."""
    t = variant.tables
    moves = variant.piece(kind).moves
    w = t.width
    total = 0.0
    squares = 0
    for sq in range(t.size):
        if t.dead[kind][sq]:
            continue
        squares += 1
        for dx, dy in moves.leaps:
            col, row = sq % w + dx, sq // w - dy
            if 0 <= col < w and 0 <= row < t.height:
                jump = JUMP_WEIGHT if max(abs(dx), abs(dy)) > 1 else 1.0
                total += _direction_weight(dy) * jump
        for (dx, dy), limit in moves.rides:
            col, row = sq % w, sq // w
            step = 0
            reach = 0.0
            while limit == 0 or step < limit:
                col, row = col + dx, row - dy
                if not (0 <= col < w and 0 <= row < t.height):
                    break
                reach += SLIDE_DECAY**step
                step += 1
            jump = JUMP_WEIGHT if max(abs(dx), abs(dy)) > 1 else 1.0
            total += _direction_weight(dy) * reach * jump
    return total / squares if squares else 0.0


def _direction_weight(dy: int) -> float:
    if dy > 0:
        return FORWARD_WEIGHT
    if dy < 0:
        return BACKWARD_WEIGHT
    return SIDEWAYS_WEIGHT


def derived_value(variant: Variant, kind: int) -> int:
    """The value of ``kind`` from its moves alone (0 for the royal piece)."""
    if variant.piece(kind).royal:
        return 0
    # a piece stepping one square forward reaches FORWARD_WEIGHT from every square it can
    # move from: the unit
    ratio = weighted_mobility(variant, kind) / FORWARD_WEIGHT
    return max(1, round(PAWN * math.pow(ratio, EXPONENT)))


def compute_values(variant: Variant) -> PieceValues:
    kinds = len(variant.pieces)
    derived = [0] + [derived_value(variant, k) for k in range(1, kinds + 1)]
    board = list(derived)
    for kind, value in variant.piece_values.items():
        board[kind] = value
    hand = [0] * (kinds + 1)
    if variant.drops.enabled:
        for piece in variant.pieces:
            if not piece.promoted and not piece.royal:
                hand[piece.kind] = variant.hand_values.get(
                    piece.kind, round(board[piece.kind] * (1 + HAND_BONUS))
                )
    return PieceValues(tuple(board), tuple(hand), tuple(derived))


@cache
def values_for(variant_id: str) -> PieceValues:
    """The values of a known variant (computed once per process)."""
    return compute_values(load_variant(variant_id))
