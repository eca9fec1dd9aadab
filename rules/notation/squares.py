"""Squares and directions as each notation writes them."""

from __future__ import annotations

from rules.notation.numerals import full_width, kanji_number
from rules.tables import SENTE
from rules.variant import Variant


def file_rank(variant: Variant, sq: int) -> tuple[int, int]:
    """File number (1 = sente's right) and rank number (1 = rank a) of a square."""
    w = variant.files
    return w - sq % w, sq // w + 1


def square_at(variant: Variant, file_no: int, rank_no: int) -> int | None:
    """Square index from file and rank numbers, or None off the board."""
    if 1 <= file_no <= variant.files and 1 <= rank_no <= variant.ranks:
        return (rank_no - 1) * variant.files + (variant.files - file_no)
    return None


def japanese_square(variant: Variant, sq: int) -> str:
    """``７六``; on 11x11 ``１１十一`` (full-width file digits, kanji rank)."""
    f, r = file_rank(variant, sq)
    return full_width(f) + kanji_number(r)


def kif_origin(variant: Variant, sq: int) -> str:
    """The origin in a KIF move's brackets: ``77``; on boards over 9 files ``0709``."""
    f, r = file_rank(variant, sq)
    if variant.files <= 9 and variant.ranks <= 9:
        return f"{f}{r}"
    return f"{f:02d}{r:02d}"


def forward(color: int, frm: int, to: int, files: int) -> int:
    """Ranks gained towards the opponent by a move from ``frm`` to ``to``."""
    rows = frm // files - to // files
    return rows if color == SENTE else -rows


def rightness(color: int, sq: int, files: int) -> int:
    """How far to the mover's right a square lies (larger is further right)."""
    col = sq % files
    return col if color == SENTE else -col
