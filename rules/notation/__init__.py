"""Moves the way people type them, and moves printed for people.

``parse_move(pos, text)`` reads, and returns a legal move:

- USI, exactly: ``7g7f``, ``8h2b+``, ``P*5e``, ``11k11j``. USI is exact, so a move without
  ``+`` does not promote.
- Western (Hodges): piece code (SFEN letter; for Wa also the two-letter code), optional origin,
  ``-`` / ``x`` / ``*``, destination, ``+`` promote or ``=`` decline: ``P-7f``, ``Bx2b+``,
  ``S*5e``, ``N7g-6e=``, ``+R-3c``, ``SP-6h``, ``TF8i-6g``; a bare destination ``7f`` when
  only one piece can go there; case and spaces forgiven (``p-7f``, ``7g 7f``, ``7g-7f``); on
  9x9 also all-digit squares (``76``, ``P76``, ``7776``). On 11x11 every square has its rank
  letter (``11k``), and all-digit input is refused with a hint.
- Japanese (KIF / KI2): ``７六歩``, ``76歩``, ``七六歩``, ``同　歩``, ``５五角打``, ``２二角成``,
  ``２三銀不成``, ``５八金右``, ``７六歩(77)``; Wa with the two-kanji names, ``６八萑歩``. On
  11x11 the rank is a kanji numeral (十, 十一) or a letter: ``１１十一萑歩``, ``6h萑歩``.

Promotion default: outside USI, a move that may either promote or not, written without saying
which (no ``+``/``=``, no 成/不成), is never guessed: ``AmbiguousMoveError`` with code
``promotion_choice`` asks for ``+`` or ``=`` (成 or 不成), ``params['candidates']`` holding both
moves. A move where promotion is forced or impossible needs no mark.

Errors: ``InvalidMoveError`` when the text cannot be read (the message ends with examples of
legal moves of the position in each notation); ``AmbiguousMoveError`` when several legal moves
fit ("Which silver? S6h-5g or S4h-5g", candidates in ``params['candidates']``); the rules
core's ``IllegalMoveError`` (from ``Position.check_legal``) when the move is not legal.
"""

from __future__ import annotations

import dataclasses
import re

from rules.errors import InvalidMoveError, RulesError
from rules.move import Move, parse_usi
from rules.notation.japanese import is_japanese, read_japanese, read_japanese_square
from rules.notation.numerals import normalize
from rules.notation.printing import Printer, as_style, format_move, legal_move_texts
from rules.notation.query import MoveQuery, Style
from rules.notation.resolve import resolve
from rules.notation.western import read_western
from rules.numbers import is_digits
from rules.position import Position
from rules.variant import Variant

__all__ = [
    "MoveQuery",
    "Style",
    "as_style",
    "examples",
    "format_move",
    "legal_move_texts",
    "parse_move",
    "read_move",
    "read_square",
]

MAX_LENGTH = 40
_USI_EXACT = re.compile(r"^(?:[0-9]{1,2}[a-z][0-9]{1,2}[a-z]\+?|[A-Z]\*[0-9]{1,2}[a-z])$")


def parse_move(pos: Position, text: str) -> Move:
    """The legal move ``text`` means in ``pos`` (see the module docstring)."""
    try:
        raw = text.strip()
        if _USI_EXACT.match(raw):
            move = parse_usi(pos.variant, raw)
            pos.check_legal(move)
            return move
        return resolve(pos, read_move(pos, raw))
    except InvalidMoveError as exc:
        raise _with_examples(pos, exc) from None


def read_square(variant: Variant, text: str) -> int:
    """A square alone, in any notation :func:`parse_move` reads: USI ``7g`` / ``11k``, all
    digits on 9x9 ``77``, Japanese ``７七``, ``７７``, ``七七``, ``１１十一`` (full-width or not).
    ``InvalidMoveError`` (code ``bad_square``) when it is none of them."""
    norm = normalize(text.strip()).lower()
    if len(norm) > MAX_LENGTH:
        raise InvalidMoveError(f"{text[:MAX_LENGTH]!r} is not a square", code="bad_square")
    try:
        return variant.tables.parse_square(norm)
    except InvalidMoveError as usi_problem:
        if not norm or not (is_japanese(norm) or is_digits(norm)):
            raise
        try:
            return read_japanese_square(variant, norm)
        except InvalidMoveError as japanese_problem:
            raise (japanese_problem if is_japanese(norm) else usi_problem) from None


def read_move(pos: Position, text: str) -> MoveQuery:
    """What a (non-USI) move text says, not yet matched to a legal move."""
    raw = text.strip()
    if not raw:
        raise InvalidMoveError("no move given", code="empty_move", text=text)
    if len(raw) > MAX_LENGTH:
        raise InvalidMoveError(
            f"that is too long for a move ({len(raw)} characters)",
            code="move_too_long",
            text=raw[:MAX_LENGTH],
            length=len(raw),
        )
    norm = normalize(raw)
    if is_japanese(norm):
        last = pos.last_move
        q = read_japanese(pos.variant, norm, last.to_sq if last is not None else None)
    else:
        q = read_western(pos.variant, norm)
    return dataclasses.replace(q, text=raw)


def examples(pos: Position) -> dict[str, str]:
    """One legal move of ``pos`` per style (a pawn move if there is one), for hints."""
    legal = pos.legal_moves()
    if not legal:
        return {}
    printer = Printer(pos, legal)
    pawn = pos.variant.by_letter.get("P")
    kind = pawn.kind if pawn is not None else 0
    pick = next((m for m in legal if not m.is_drop and printer.kind(m) == kind), legal[0])
    return {s.value: printer.format(pick, s) for s in Style}


def _with_examples(pos: Position, exc: RulesError) -> InvalidMoveError:
    ex = examples(pos)
    if not ex:
        return InvalidMoveError(exc.message, code=exc.code, **exc.params)
    shown = f"{ex['usi']} (USI), {ex['western']} (Western) or {ex['japanese']} (Japanese)"
    drop = next((m for m in pos.legal_moves() if m.is_drop), None)
    if drop is not None:
        ex = {**ex, "drop": format_move(pos, drop, Style.WESTERN)}
        shown += f"; a drop: {ex['drop']}"
    return InvalidMoveError(
        f"{exc.message}. Write a move like {shown}", code=exc.code, **exc.params, examples=ex
    )
