"""Piece names for reading and writing moves: Western codes and Japanese (KIF) names.

Japanese names: the kanji on the piece, except that a promoted piece whose Japanese name starts
with 成 is written that way (成銀, not 全, as KIF does), and a promoted Wa piece whose kanji is
the same as another piece's (a promoted rabbit looks like a Treacherous Fox: 隠狐) is written
成 + its unpromoted name (成走兎), so that every kind has a name of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.variant import Variant

# Other spellings seen in Standard Shogi records (read only).
_SHOGI_ALIASES = {
    "王": "K",
    "玉": "K",
    "竜": "+R",
    "龍": "+R",
    "全": "+S",
    "圭": "+N",
    "杏": "+L",
}


@dataclass(frozen=True)
class PieceNames:
    """Names of every kind of one variant, both ways."""

    japanese: tuple[str, ...]  # japanese[kind] (index 0 unused); the same for both sides
    read_japanese: dict[str, frozenset[int]]  # every accepted spelling -> kinds it may mean
    read_code: dict[str, int]  # upper-case Western code or SFEN letter -> kind
    longest_japanese: int


@cache
def piece_names(variant: Variant) -> PieceNames:
    """Build (once per variant) the name tables."""
    kanji_count: dict[str, int] = {}
    for p in variant.pieces:
        kanji_count[p.kanji] = kanji_count.get(p.kanji, 0) + 1
    japanese = [""]
    for p in variant.pieces:
        if p.promoted and p.names.get("ja", "").startswith("成"):
            name = p.names["ja"]
        elif p.promoted and kanji_count[p.kanji] > 1:
            name = "成" + variant.piece(p.base).kanji
        else:
            name = p.kanji  # the king is 玉 for both sides, as KIF writes it
        japanese.append(name)

    read: dict[str, set[int]] = {}

    def add(spelling: str, kind: int) -> None:
        if spelling:
            read.setdefault(spelling, set()).add(kind)

    for p in variant.pieces:
        add(japanese[p.kind], p.kind)
        add(p.kanji, p.kind)
        add(p.kanji_gote, p.kind)
        add(p.names.get("ja", ""), p.kind)
        if p.promoted:
            add("成" + variant.piece(p.base).kanji, p.kind)
    if variant.files == 9 and "R" in variant.by_letter:
        for spelling, letter in _SHOGI_ALIASES.items():
            if letter in variant.by_letter:
                add(spelling, variant.by_letter[letter].kind)

    codes: dict[str, int] = {}
    for p in variant.pieces:
        codes[p.letter.upper()] = p.kind
    for p in variant.pieces:
        codes.setdefault(p.code.upper(), p.kind)
    return PieceNames(
        japanese=tuple(japanese),
        read_japanese={k: frozenset(v) for k, v in read.items()},
        read_code=codes,
        longest_japanese=max(len(k) for k in read),
    )


def short_name(variant: Variant, kind: int) -> str:
    """English name for questions, without 'General': 'silver', 'sparrow pawn'."""
    name = variant.piece(kind).names["en"].lower()
    return name.removesuffix(" general")
