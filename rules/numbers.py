"""Numbers in text from outside (SFEN, records, moves): one bounded, ASCII-strict reader.

Every format that carries a number reads it here, so that three rules hold everywhere:

- only the ASCII digits 0-9 count as digits. ``str.isdigit`` is also true for ``²``, ``➏`` and
  ``₃`` (which ``int`` then refuses with a bare ValueError), and ``int`` and the regex ``\\d``
  also take ``٣`` and ``９``; Japanese notation folds full-width digits to ASCII on purpose
  (``notation.numerals.normalize``) before it reads them here;
- the length is checked before the text becomes a number, so a 10,000-digit count costs no
  more than a 2-digit one, and never reaches ``int``'s own digit limit;
- the value is checked against the bounds the caller gives (an empty run is at most the board
  width, a hand count at most the set's pieces of that kind), before anything is built from it.

An error is the caller's own ``RulesError`` subclass (``fail`` builds it from the problem), so
a record still names its line and an SFEN still starts with ``bad SFEN:``.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.errors import RulesError

DIGITS = "0123456789"
# The largest move number an SFEN or a record may carry: far beyond any game (a 2 MB record
# holds fewer than 400,000 moves), small enough that nothing built from it is ever large.
MAX_MOVE_NUMBER = 999_999
_SHOWN = 24  # characters of the offending text quoted in a message


class NumberError(RulesError):
    """A number that is not written in the digits 0-9, or lies outside what is allowed."""

    code = "bad_number"


Fail = Callable[[str], RulesError]


def is_digits(text: str) -> bool:
    """Is ``text`` one or more ASCII digits (never ``²``, ``٣`` or ``９``)?"""
    return text.isascii() and text.isdigit()


def shown(text: str) -> str:
    """``text`` quoted for a message, cut short when long."""
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def read_number(text: str, what: str, low: int, high: int, fail: Fail = NumberError) -> int:
    """The value of ``text`` (ASCII digits) as ``what``, from ``low`` to ``high``; else the
    error ``fail(problem)``, the problem saying what was written and what is allowed."""
    if not is_digits(text):
        raise fail(f"{what} must be written with the digits 0-9, not {shown(text)}")
    significant = text.lstrip("0") or "0"
    if len(significant) > len(str(high)):
        raise fail(_out_of_range(what, low, high, shown(text)))
    return check_number(int(significant), what, low, high, fail)


def check_number(value: int, what: str, low: int, high: int, fail: Fail = NumberError) -> int:
    """``value`` when ``low <= value <= high``; else the error ``fail(problem)``."""
    if not low <= value <= high:
        raise fail(_out_of_range(what, low, high, str(value)))
    return value


def _out_of_range(what: str, low: int, high: int, written: str) -> str:
    allowed = str(low) if low == high else f"from {low} to {high}"
    return f"{what} must be {allowed}, not {written}"
