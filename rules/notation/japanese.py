"""Reading Japanese (KIF / KI2 style) moves: ``７六歩``, ``76歩``, ``七六歩``, ``同　歩``,
``５五角打``, ``２二角成``, ``２三銀不成``, ``５八金右``, ``７六歩(77)``; Wa: ``６八萑歩``.

Squares: the file then the rank. The file is written in Arabic digits (full-width or ASCII) or,
on 9x9, also in kanji; the rank in kanji numerals, digits (9x9 only) or a rank letter. On
11x11, ranks 10 and 11 are 十 and 十一 (``１１十一``); files 10 and 11 are ``１０`` and ``１１``
(kanji 十 and 十一 are read too, when the split is unambiguous); two runs of plain digits
(``116``) are refused there, because they could be read more than one way.
"""

from __future__ import annotations

import re

from rules.english import with_article
from rules.errors import IllegalMoveError, InvalidMoveError, RulesError
from rules.notation.names import foreign_piece, japanese_name_at, piece_names
from rules.notation.numerals import FULL_WIDTH_DIGITS, parse_kanji_number
from rules.notation.query import MoveQuery, Style
from rules.notation.squares import square_at
from rules.numbers import DIGITS, is_digits, shown
from rules.variant import Variant, load_variant

_MARKS = "▲△☗☖▼▽"
_TO_FULL_WIDTH = str.maketrans(DIGITS, FULL_WIDTH_DIGITS)
_NUMERAL_RUN = re.compile(r"^[0-9一二三四五六七八九十〇]+[a-s]?")
# The longest square (file then rank) on a board of up to 19x19: 十九十九 or 1919.
_SQUARE_CHARS = 4
_TAIL = re.compile(
    r"^(?P<marks>[右左直上引寄行]*)(?P<suffix>不成|成|生|打)?"
    r"(?:\((?P<origin>[0-9]{2}|[0-9]{4}|[0-9]{1,2},[0-9]{1,2})\))?$"
)


def is_japanese(text: str) -> bool:
    """Does the text use Japanese characters (so it should be read by this module)?"""
    return any(ord(c) >= 0x2E80 or c in _MARKS for c in text)


def read_japanese(variant: Variant, text: str, last_to: int | None) -> MoveQuery:
    """Parse Japanese text (already width-normalised); ``last_to`` is where 同 points."""
    t = re.sub(r"\s+", "", text).lstrip(_MARKS)
    same = False
    if t.startswith("同"):
        if last_to is None:
            raise InvalidMoveError(
                f"{text!r}: 同 means the square of the previous move, and there is none",
                code="no_previous_move",
                text=text,
            )
        dest, rest, same = last_to, t[1:], True
    else:
        dest, rest = _read_square(variant, text, t)
        if rest.startswith("同"):
            rest = rest[1:]
    names = piece_names(variant)
    found = japanese_name_at(variant, rest)
    if found is None:
        head = t[: len(t) - len(rest)]
        raise _unknown_piece(variant, text, head, rest)
    written, kinds = found
    spelled = names.standard.get(written, written)
    preferred = frozenset(k for k in kinds if names.japanese[k] == spelled) or None
    rest = rest[len(written) :]
    m = _TAIL.match(rest)
    if m is None:
        raise InvalidMoveError(
            f"{text!r}: cannot read {rest!r} after the piece (expected 右 左 直 上 引 寄, then "
            "成, 不成 or 打)",
            reason="japanese_after_piece",
            text=text,
            rest=rest,
        )
    marks = m["marks"].replace("行", "上")
    sides = "".join(c for c in marks if c in "右左")
    directions = "".join(c for c in marks if c not in "右左")
    if len(sides) > 1 or len(directions) > 1:
        raise InvalidMoveError(
            f"{text!r}: at most one of 右/左 and one of 上/引/寄/直",
            reason="japanese_marks",
            text=text,
        )
    suffix = m["suffix"]
    origin = _read_origin(variant, text, m["origin"]) if m["origin"] else None
    if suffix == "打" and (origin is not None or marks):
        raise InvalidMoveError(
            f"{text!r}: a drop (打) has no origin or direction",
            reason="japanese_drop_origin",
            text=text,
        )
    return MoveQuery(
        text=text,
        style=Style.JAPANESE,
        dest=dest,
        kinds=kinds,
        preferred=preferred,
        origin=origin,
        drop=True if suffix == "打" else (False if origin is not None or marks else None),
        promote={"成": True, "不成": False, "生": False}.get(suffix or ""),
        direction=directions,
        side=sides,
        same_square=same,
    )


def _unknown_piece(variant: Variant, text: str, head: str, rest: str) -> RulesError:
    """No piece of ``variant`` is named after the square (``head``): when ``rest`` is a move of
    another variant's piece (歩 in a Wa game), say which piece here moves like it."""
    names = piece_names(variant)
    foreign = foreign_piece(variant, rest)
    if foreign is None or _TAIL.match(rest[len(foreign.written) :]) is None:
        sample = "、".join(names.japanese[p.kind] for p in variant.pieces[:4])
        return InvalidMoveError(
            f"{text!r}: after the square comes the piece's name ({sample}...)",
            code="unknown_piece",
            reason="japanese_piece_expected",
            text=text,
            sample=sample,
        )
    written = foreign.written
    there, here = load_variant(foreign.variant_id).names["en"], variant.names["en"]
    whose = f"{written} is {with_article(there)} piece, not {with_article(here)} one"
    if not foreign.counterparts:
        own = "、".join(names.japanese[p.kind] for p in variant.pieces if not p.promoted)
        return IllegalMoveError(
            f"{whose}, and no {here} piece moves like it; the {here} pieces are {own}",
            code="foreign_piece_unmatched",
            written=written,
            pieces=own,
        )
    alike = [names.japanese[k] for k in foreign.counterparts]
    described = " or ".join(
        f"{name} ({variant.piece(k).names['en'].lower()})"
        for name, k in zip(alike, foreign.counterparts, strict=True)
    )
    example = _as_written_in_japanese(head) + alike[0] + rest[len(written) :]
    return IllegalMoveError(
        f"{whose}; here {described} moves like it: did you mean {example}?",
        code="foreign_piece",
        written=written,
        pieces=" / ".join(alike),
        example=example,
    )


def _as_written_in_japanese(square: str) -> str:
    """A square (width-normalised) with its digits full-width, as the rank in kanji has them:
    ``８七``, never ``8七``; a square with a rank letter (``6h``) stays in ASCII."""
    if any("a" <= c <= "z" for c in square):
        return square
    return square.translate(_TO_FULL_WIDTH)


def _number(token: str, letters: bool) -> int | None:
    if is_digits(token):  # at most the two digits of a file or rank (see _read_square)
        return int(token) if token[0] != "0" else None
    if letters and len(token) == 1 and "a" <= token <= "s":
        return ord(token) - ord("a") + 1
    return parse_kanji_number(token)


def _read_square(variant: Variant, text: str, t: str) -> tuple[int, str]:
    m = _NUMERAL_RUN.match(t)
    run = m.group(0) if m else ""
    if len(run) > _SQUARE_CHARS:  # every split of the run is tried below: keep it short
        raise InvalidMoveError(
            f"{shown(text)}: {shown(run)} is too long for a square (file then rank, like ７六 "
            "or １１十一)",
            code="bad_square",
            reason="square_too_long",
            text=text,
            run=run,
        )
    big = variant.files > 9 or variant.ranks > 9
    found: set[int] = set()
    all_digits = False
    for i in range(1, len(run)):
        ftext, rtext = run[:i], run[i:]
        if is_digits(ftext) and is_digits(rtext):
            all_digits = True
            if big:
                continue
        f, r = _number(ftext, False), _number(rtext, True)
        if f is None or r is None:
            continue
        sq = square_at(variant, f, r)
        if sq is not None:
            found.add(sq)
    if len(found) == 1:
        return found.pop(), t[len(run) :]
    if big and all_digits and not found:
        raise InvalidMoveError(
            f"{text!r}: on a {variant.files}x{variant.ranks} board write the rank as a kanji "
            "numeral or a letter (６八萑歩 or 6h萑歩), so that file and rank never run together",
            code="all_digit_square",
            text=text,
            files=variant.files,
            ranks=variant.ranks,
        )
    if len(found) > 1:
        raise InvalidMoveError(
            f"{text!r}: the square {run!r} can be read more than one way; write the file in "
            "digits and the rank in kanji, like １０三",
            code="bad_square",
            reason="ambiguous_square",
            text=text,
            run=run,
        )
    raise InvalidMoveError(
        f"{text!r}: a Japanese move starts with the square (file then rank, like ７六) or 同",
        code="bad_square",
        reason="japanese_square_first",
        text=text,
    )


def _read_origin(variant: Variant, text: str, token: str) -> int:
    if "," in token:
        f_text, r_text = token.split(",")
    elif variant.files <= 9 and variant.ranks <= 9 and len(token) == 2:
        f_text, r_text = token[0], token[1]
    elif len(token) == 4 and (variant.files > 9 or variant.ranks > 9):
        f_text, r_text = token[:2], token[2:]
    else:
        f_text, r_text = "0", "0"
    sq = square_at(variant, int(f_text), int(r_text))
    if sq is None:
        form = "(77)" if variant.files <= 9 else "(0709)"
        raise InvalidMoveError(
            f"{text!r}: ({token}) is not an origin square here; write it like {form}",
            code="bad_square",
            reason="bad_origin",
            text=text,
            token=token,
            form=form,
        )
    return sq


def read_japanese_square(variant: Variant, text: str) -> int:
    """A square alone as Japanese notation writes it (width-normalised): ``7六``, ``77``
    (9x9), ``11十一``; anything after the square is refused."""
    sq, rest = _read_square(variant, text, text)
    if rest:
        raise InvalidMoveError(
            f"{text!r} is not a square: {rest!r} follows it",
            code="bad_square",
            reason="japanese_square_first",
            text=text,
        )
    return sq
