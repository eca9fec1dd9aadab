"""Piece names for reading and writing moves: Western codes and Japanese (KIF) names.

Japanese names: the kanji on the piece, except that a promoted piece whose Japanese name starts
with 成 is written that way (成銀, not 全, as KIF does), and a promoted Wa piece whose kanji is
the same as another piece's (a promoted rabbit looks like a Treacherous Fox: 隠狐) is written
成 + its unpromoted name (成走兎), so that every kind has a name of its own.

Read, not written: the other usual spellings a variant file lists (``kanji_alternatives``: 鶴玉
for 靏玉, 雁飛 for 鳫飛).  A name that belongs to another variant's piece (歩 in a Wa game) is
answered by :func:`foreign_piece`: the pieces of the game's variant that move exactly like it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.variant import PieceType, Variant, available_variants, load_variant

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
    standard: dict[str, str]  # another usual spelling -> the spelling the file gives (鶴玉 -> 靏玉)
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

    standard: dict[str, str] = {}
    for p in variant.pieces:
        add(japanese[p.kind], p.kind)
        add(p.kanji, p.kind)
        add(p.kanji_gote, p.kind)
        add(p.names.get("ja", ""), p.kind)
        for other in p.kanji_alternatives:
            add(other, p.kind)
            standard[other] = p.kanji
        if p.promoted:
            base = variant.piece(p.base)
            add("成" + base.kanji, p.kind)
            for other in base.kanji_alternatives:
                add("成" + other, p.kind)
                standard["成" + other] = "成" + base.kanji
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
        standard=standard,
        read_code=codes,
        longest_japanese=max(len(k) for k in read),
    )


def short_name(variant: Variant, kind: int) -> str:
    """English name for questions, without 'General': 'silver', 'sparrow pawn'."""
    name = variant.piece(kind).names["en"].lower()
    return name.removesuffix(" general")


def japanese_name_at(variant: Variant, text: str) -> tuple[str, frozenset[int]] | None:
    """The longest piece name of ``variant`` that ``text`` starts with, and its kinds."""
    names = piece_names(variant)
    for size in range(min(names.longest_japanese, len(text)), 0, -1):
        kinds = names.read_japanese.get(text[:size])
        if kinds is not None:
            return text[:size], kinds
    return None


@dataclass(frozen=True)
class ForeignPiece:
    """A piece name of another variant, and what the game's variant has in its place."""

    written: str  # the name as written: 歩
    variant_id: str  # the variant it belongs to: shogi
    piece: PieceType  # that variant's piece
    counterparts: tuple[int, ...]  # kinds of the game's variant that move exactly like it


def foreign_piece(variant: Variant, text: str) -> ForeignPiece | None:
    """When ``text`` starts with the Japanese name of a piece of another variant (歩, 玉 in a
    Wa game), that piece and its counterparts here; None when no variant has such a name."""
    for other_id in available_variants():
        other = load_variant(other_id)
        if other.id == variant.id:
            continue
        found = japanese_name_at(other, text)
        if found is None:
            continue
        written, kinds = found
        piece = other.piece(min(kinds))
        return ForeignPiece(written, other.id, piece, counterparts(variant, piece))
    return None


def counterparts(variant: Variant, piece: PieceType) -> tuple[int, ...]:
    """Kinds of ``variant`` that move exactly like ``piece`` (a royal piece: the royal one),
    those promoted or not as ``piece`` is first; a promoted piece that only borrows another
    piece's kanji (a promoted dog is a 猛狼) is left to that piece."""
    own_kanji = {p.kanji for p in variant.pieces if not p.promoted}
    alike = [
        p
        for p in variant.pieces
        if p.moves == piece.moves
        and p.royal == piece.royal
        and not (p.promoted and p.kanji in own_kanji)
    ]
    same = [p.kind for p in alike if p.promoted == piece.promoted]
    return tuple(same or [p.kind for p in alike])
