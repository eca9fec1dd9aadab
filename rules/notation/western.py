"""Reading Western (Hodges) moves: ``P-7f``, ``Bx2b+``, ``S*5e``, ``N7g-6e=``, ``+R-3c``,
``SP-6h``, ``TF8i-6g``, a bare ``7f``, spaced ``7g 7f``; on 9x9 also ``76``, ``P76``, ``7776``.
"""

from __future__ import annotations

import re

from rules.errors import InvalidMoveError
from rules.notation.names import piece_names
from rules.notation.query import MoveQuery, Style
from rules.notation.squares import square_at
from rules.numbers import DIGITS
from rules.variant import Variant

_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", "×": "x", "'": "*"})
_HEAD = re.compile(r"^(\+?)([A-Za-z]*)(.*)$")
# ASCII digits only: ``\d`` would also take ٣ and ９ (full-width is folded before, on purpose).
_SQ_LETTER = r"([0-9]{1,2})([a-z])"
_SQ_DIGITS = r"([0-9])([0-9])"


def read_western(variant: Variant, text: str) -> MoveQuery:
    """Parse Western text (width-normalised) into a query; InvalidMoveError if unreadable."""
    t = re.sub(r"\s+", "", text.translate(_DASHES))
    m = _HEAD.match(t)
    assert m is not None
    plus, letters, rest = m.groups()
    piece_token = plus + letters
    capture_from_letters = False
    names = piece_names(variant)
    if letters and letters.upper() not in names.read_code and letters[-1] in "xX":
        head = plus + letters[:-1]
        if not letters[:-1] or head.upper() in names.read_code:
            piece_token, capture_from_letters = head, True
    if len(piece_token) > 3:
        raise _unreadable(text, "", "unreadable_move")
    if piece_token == "+":
        raise _unreadable(
            text, "a + before the piece needs the piece letter, like +R-3c", "plus_without_piece"
        )
    kinds = None
    if piece_token:
        kind = names.read_code.get(piece_token.upper())
        if kind is None:
            raise _unknown_piece(variant, text, piece_token)
        kinds = frozenset((kind,))
    if capture_from_letters:
        rest = "x" + rest
    return _read_squares(variant, text, rest.lower(), kinds)


def _read_squares(
    variant: Variant, text: str, rest: str, kinds: frozenset[int] | None
) -> MoveQuery:
    pattern = (
        _SQ_LETTER if variant.files > 9 or variant.ranks > 9 else f"(?:{_SQ_LETTER}|{_SQ_DIGITS})"
    )
    m = re.fullmatch(rf"(?:{pattern})?([-x*]?)(?:{pattern})([+=]?)", rest)
    if m is None:
        if (
            variant.files > 9
            and re.fullmatch(r"[-x*0-9+=]+", rest)
            and any(c in DIGITS for c in rest)
        ):
            raise InvalidMoveError(
                f"{text!r}: on a {variant.files}x{variant.ranks} board a square needs its rank "
                "letter (like 11k or 6h), so numbers never run together; all-digit squares "
                "are for 9x9 only",
                code="all_digit_square",
                text=text,
                files=variant.files,
                ranks=variant.ranks,
            )
        raise _unreadable(text, "", "unreadable_move")
    groups = list(m.groups())
    n = (len(groups) - 2) // 2  # groups per square: origin, separator, destination, promotion
    origin_g, sep, dest_g, promo = groups[:n], groups[n], groups[n + 1 : 2 * n + 1], groups[-1]
    origin = _square(variant, text, origin_g)
    dest = _square(variant, text, dest_g)
    assert dest is not None
    drop: bool | None = None
    if sep == "*":
        drop = True
        if origin is not None:
            raise _unreadable(
                text, "a drop has no origin square: write it like S*5e", "drop_with_origin"
            )
        if kinds is None:
            raise _unreadable(
                text, "a drop needs the piece: write it like P*5e", "drop_without_piece"
            )
        if promo:
            raise _unreadable(
                text,
                "a dropped piece never promotes on the drop: leave out + or =",
                "drop_promotes",
            )
    elif sep == "x" or origin is not None:
        drop = False  # a bare "-" is forgiven for a drop when no piece on the board fits
    if origin is not None and origin == dest:
        raise InvalidMoveError(
            f"{text!r}: origin and destination are the same square", reason="same_square", text=text
        )
    return MoveQuery(
        text=text,
        style=Style.WESTERN,
        dest=dest,
        kinds=kinds,
        origin=origin,
        drop=drop,
        promote={"+": True, "=": False}.get(promo),
        capture=True if sep == "x" else None,
    )


def _square(variant: Variant, text: str, groups: list[str | None]) -> int | None:
    values = [g for g in groups if g is not None]
    if not values:
        return None
    file_text, rank_text = values
    file_no = int(file_text)
    rank_no = ord(rank_text) - ord("a") + 1 if rank_text.isalpha() else int(rank_text)
    sq = square_at(variant, file_no, rank_no)
    if sq is None:
        last = chr(ord("a") + variant.ranks - 1)
        raise InvalidMoveError(
            f"{text!r}: {file_text}{rank_text} is not a square: files are 1-{variant.files} and "
            f"ranks a-{last}",
            code="bad_square",
            reason="no_such_square",
            text=text,
            square=f"{file_text}{rank_text}",
            files=variant.files,
            last=last,
        )
    return sq


def _unreadable(text: str, why: str, reason: str) -> InvalidMoveError:
    message = f"cannot read {text!r} as a move" + (f": {why}" if why else "")
    return InvalidMoveError(message, text=text, reason=reason)


def _unknown_piece(variant: Variant, text: str, token: str) -> InvalidMoveError:
    codes = " ".join(p.code for p in variant.pieces if not p.promoted)
    letters = " ".join(p.letter for p in variant.pieces if not p.promoted)
    known = codes if codes == letters else f"{letters}, or the codes {codes}"
    return InvalidMoveError(
        f"{text!r}: no piece {token!r} in {variant.names['en']} (pieces: {known}; "
        "a promoted piece has + in front, like +R)",
        code="unknown_piece",
        reason="unknown_piece_code",
        text=text,
        token=token,
        letters=letters,
        codes=codes,
        variant_id=variant.id,
    )
