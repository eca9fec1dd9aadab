"""Numbers players type, read in one place: ASCII digits only, bounded.

``str.isdigit`` and ``int`` accept far more than players mean (``²``, ``①``, Arabic-Indic
digits, thousands of digits that ``int`` refuses to read): each of those is simply not a
number here, so the command gives its usual refusal.
"""

from __future__ import annotations

import re

MAX_DIGITS = 12
"""Digits a typed number may have (game, challenge and page numbers, levels)."""
SHOWN_CHARS = 40
"""Characters of a refused word a reply repeats (a 5,000-digit "level" is shown cut)."""

_NUMBER = re.compile(rf"#?([0-9]{{1,{MAX_DIGITS}}})", re.ASCII)
_PLAIN = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)


def parse_number(word: str) -> int | None:
    """``12`` or ``#12`` -> 12 (surrounding spaces allowed); anything else None."""
    m = _NUMBER.fullmatch(word.strip())
    return int(m.group(1)) if m else None


def plain_number(word: str) -> int | None:
    """``12`` -> 12: ASCII digits alone (no ``#``), at most :data:`MAX_DIGITS`; else None."""
    return int(word) if _PLAIN.fullmatch(word) else None


def is_digits(word: str) -> bool:
    """Whether ``word`` is ASCII digits only, however many (a number, maybe too long)."""
    return word.isascii() and word.isdigit()


def written_as_number(word: str) -> bool:
    """Whether ``word`` is written as a number of any script or length (``#99…9``, ``②``):
    one that cannot be read, rather than a word the command does not know."""
    bare = word.lstrip("#")
    return bool(bare) and all(c.isnumeric() for c in bare)


def shown(word: str) -> str:
    """``word`` as a refusal repeats it: at most :data:`SHOWN_CHARS` characters."""
    return word if len(word) <= SHOWN_CHARS else word[: SHOWN_CHARS - 1] + "…"
