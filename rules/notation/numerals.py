"""Numbers as people write them in Japanese records: full-width digits and kanji numerals."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rules.numbers import DIGITS

KANJI_DIGITS = "一二三四五六七八九"
KANJI_NUMERAL_CHARS = frozenset(KANJI_DIGITS + "十〇")
FULL_WIDTH_DIGITS = "０１２３４５６７８９"
_FULL_WIDTH = str.maketrans(DIGITS, FULL_WIDTH_DIGITS)


def kanji_number(n: int) -> str:
    """``1`` -> 一, ``10`` -> 十, ``11`` -> 十一, ``21`` -> 二十一 (1 to 99)."""
    if not 1 <= n <= 99:
        raise ValueError(f"kanji_number: {n} out of range")
    tens, ones = divmod(n, 10)
    out = ""
    if tens:
        out = ("" if tens == 1 else KANJI_DIGITS[tens - 1]) + "十"
    if ones:
        out += KANJI_DIGITS[ones - 1]
    return out


def parse_kanji_number(text: str) -> int | None:
    """The value of a kanji numeral written the usual way (一 to 九十九), else None."""
    if not text or any(c not in KANJI_NUMERAL_CHARS for c in text) or "〇" in text:
        return None
    if "十" not in text:
        return KANJI_DIGITS.index(text) + 1 if len(text) == 1 else None
    head, _, tail = text.partition("十")
    if len(head) > 1 or len(tail) > 1 or "十" in tail:
        return None
    tens = KANJI_DIGITS.index(head) + 1 if head else 1
    if tens == 1 and head:  # 一十 is not written
        return None
    ones = KANJI_DIGITS.index(tail) + 1 if tail else 0
    return tens * 10 + ones


def full_width(n: int) -> str:
    """``7`` -> ７, ``11`` -> １１."""
    return str(n).translate(_FULL_WIDTH)


def normalize(text: str) -> str:
    """Full-width letters, digits and signs to ASCII, ideographic space to a space (NFKC).

    Only full-width digits become digits: a character NFKC would also turn into one (``²``,
    ``₃``, ``①``, ``𝟕``) is kept as written, so that a reader refuses it rather than take it
    for a number."""
    if text.isascii():
        return text
    parts: list[str] = []
    start = 0
    for i, c in enumerate(text):
        if _stray_digit(c):
            parts += [unicodedata.normalize("NFKC", text[start:i]), c]
            start = i + 1
    parts.append(unicodedata.normalize("NFKC", text[start:]))
    return "".join(parts)


@lru_cache(maxsize=1024)
def _stray_digit(c: str) -> bool:
    """Would NFKC make an ASCII digit of ``c``, which is not a full-width digit?"""
    if c.isascii() or c in FULL_WIDTH_DIGITS:
        return False
    return any(d in DIGITS for d in unicodedata.normalize("NFKC", c))
