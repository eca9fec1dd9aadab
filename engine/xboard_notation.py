"""Moves in the xboard (CECP) notation of shogi variants, to and from the rules core's moves.

xboard names a square by file letter and rank number from the first mover's (sente's) lower
left corner: on 11x11 ``a1`` is sente's far left corner (USI ``11k``), ``k11`` gote's (USI
``1a``); ranks may have two digits (``e10``).  A board move is ``<from><to>``, then ``+`` to
promote (``=`` or nothing: no promotion); a drop is ``<letter>@<square>`` (``P@e5``), with
the piece letters of the variant file (those HaChu and CrazyWa use for Wa Shogi too).
"""

from __future__ import annotations

import re

from rules import Move, Variant
from rules.errors import InvalidMoveError

_BOARD = re.compile(r"^([a-z])([0-9]{1,2})([a-z])([0-9]{1,2})([+=]?)$")
_DROP = re.compile(r"^([A-Z])@([a-z])([0-9]{1,2})$")


def square_name(variant: Variant, sq: int) -> str:
    """The xboard name of square index ``sq`` (rank 0 is gote's back rank)."""
    row, col = divmod(sq, variant.files)
    return f"{chr(ord('a') + col)}{variant.ranks - row}"


def parse_square(variant: Variant, file_letter: str, rank_text: str, text: str) -> int:
    col = ord(file_letter) - ord("a")
    rank = int(rank_text)
    if not (0 <= col < variant.files and 1 <= rank <= variant.ranks):
        last = chr(ord("a") + variant.files - 1)
        raise InvalidMoveError(
            f"{text!r}: {file_letter}{rank_text} is not a square of {variant.id} "
            f"(files a-{last}, ranks 1-{variant.ranks})",
            reason="bad_xboard_square",
            text=text,
        )
    return (variant.ranks - rank) * variant.files + col


def to_xboard(variant: Variant, move: Move) -> str:
    """``move`` in xboard notation: ``e3e4``, ``c9c10+``, ``P@e5``."""
    if move.drop:
        return f"{variant.piece(move.drop).letter}@{square_name(variant, move.to_sq)}"
    plus = "+" if move.promote else ""
    return f"{square_name(variant, move.from_sq)}{square_name(variant, move.to_sq)}{plus}"


def from_xboard(variant: Variant, text: str) -> Move:
    """Read an xboard move for ``variant`` (syntax and squares only, not legality); raises
    InvalidMoveError saying what is wrong."""
    text = text.strip()
    board = _BOARD.match(text)
    if board:
        f1, r1, f2, r2, suffix = board.groups()
        origin = parse_square(variant, f1, r1, text)
        dest = parse_square(variant, f2, r2, text)
        if origin == dest:
            raise InvalidMoveError(
                f"{text!r}: origin and destination are the same square",
                reason="same_square",
                text=text,
            )
        return Move(origin, dest, suffix == "+", 0)
    drop = _DROP.match(text)
    if drop:
        letter, file_letter, rank_text = drop.groups()
        piece = variant.by_letter.get(letter)
        if piece is None or piece.promoted or piece.royal:
            raise InvalidMoveError(
                f"{text!r}: {letter!r} is not a piece that can be dropped in {variant.id}",
                reason="bad_xboard_drop",
                text=text,
            )
        return Move(-1, parse_square(variant, file_letter, rank_text, text), False, piece.kind)
    raise InvalidMoveError(
        f"{text!r} is not an xboard move: write origin and destination like e3e4, add + to "
        "promote (c9c10+), or a drop like P@e5",
        reason="bad_xboard_move",
        text=text,
    )
