"""SFEN reading and writing, with errors that say exactly what is wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.arrays import plain
from rules.errors import InvalidSetupError
from rules.numbers import DIGITS, MAX_MOVE_NUMBER, read_number, shown
from rules.tables import GOTE, SENTE

if TYPE_CHECKING:
    from rules.position import Position
    from rules.variant import Variant

COLOR_NAMES = ("sente", "gote")


@dataclass
class SfenFields:
    board: list[int]
    hands: list[list[int]]
    side: int
    move_number: int


def _fail(problem: str, **params: Any) -> InvalidSetupError:
    return InvalidSetupError(f"bad SFEN: {problem}", problem=problem, **params)


def parse_sfen(variant: Variant, text: str) -> SfenFields:
    """Split and check an SFEN string for ``variant``; raises InvalidSetupError.

    Every count is read by ``rules.numbers`` (ASCII digits, bounded) before anything is built
    from it, so the work is linear in the text however large its numbers are."""
    parts = text.strip().split()
    if parts and parts[0] == "sfen":
        parts = parts[1:]
    if parts == ["startpos"]:
        parts = variant.start_sfen.split()
    if len(parts) not in (3, 4):
        raise _fail(
            f"expected 4 fields (board, side to move, hand, move number), found {len(parts)}"
        )
    board_text, side_text, hand_text = parts[:3]
    rows = board_text.split("/")
    if len(rows) != variant.ranks:
        raise _fail(f"the board has {len(rows)} ranks, {variant.id} has {variant.ranks}")
    board = [cell for r, row in enumerate(rows) for cell in _parse_row(variant, row, r)]
    if side_text not in ("b", "w"):
        raise _fail(f"side to move must be 'b' (sente) or 'w' (gote), not {shown(side_text)}")
    side = SENTE if side_text == "b" else GOTE
    hands = _parse_hand(variant, hand_text)
    move_number = 1
    if len(parts) == 4:
        move_number = read_number(parts[3], "the move number", 1, MAX_MOVE_NUMBER, _fail)
    _check_board(variant, board, hands)
    return SfenFields(board, hands, side, move_number)


# An empty run (ASCII digits only: never ², ٣ or ９), a piece letter maybe promoted, or else
# one character (refused).
_ROW_TOKEN = re.compile(r"[0-9]+|\+?[A-Za-z]|.", re.S)
_HAND_TOKEN = re.compile(r"([0-9]*)(.)", re.S)


def _parse_row(variant: Variant, row: str, r: int) -> list[int]:
    """The signed kinds of rank ``r``; nothing is built past the board's width."""
    where = f"rank {r + 1} ({chr(ord('a') + r)})"
    cells: list[int] = []
    count = 0
    for m in _ROW_TOKEN.finditer(row):
        token = m.group()
        if token[0] in DIGITS:
            n = read_number(token, f"{where}: an empty run", 1, variant.files, _fail)
            count += n
            if count <= variant.files:
                cells.extend([0] * n)
            continue
        value = _piece_value(variant, token, where)
        count += 1
        if count <= variant.files:
            cells.append(value)
    if count != variant.files:
        raise _fail(f"{where} has {count} squares, expected {variant.files}")
    return cells


def _piece_value(variant: Variant, token: str, where: str) -> int:
    letter = token.lstrip("+")
    if not (letter.isascii() and letter.isalpha()):
        raise _fail(f"{where}: unexpected character {token!r}")
    piece = variant.by_letter.get(token.upper())
    if piece is None:
        base = variant.by_letter.get(letter.upper())
        if base is not None:
            raise _fail(f"{token!r}: the {base.name.lower()} cannot be promoted")
        raise _fail(f"unknown piece letter {letter!r} in {variant.id}")
    return piece.kind if letter.isupper() else -piece.kind


def _parse_hand(variant: Variant, text: str) -> list[list[int]]:
    hands = [[0] * (len(variant.pieces) + 1) for _ in range(2)]
    if text == "-":
        return hands
    if not variant.drops.enabled:
        raise _fail(f"{variant.id} has no drops, so the hand must be '-', not {shown(text)}")
    for count, letter in _HAND_TOKEN.findall(text):
        piece = variant.by_letter.get(letter.upper())
        if piece is None or piece.promoted or piece.royal or not letter.isalpha():
            raise _fail(f"{letter!r} cannot be in hand (hand: {shown(text)})")
        color = SENTE if letter.isupper() else GOTE
        what = f"the number of {COLOR_NAMES[color]} {piece.name.lower()}s in hand"
        most = variant.tables.set_counts[piece.kind]
        hands[color][piece.kind] += read_number(count, what, 1, most, _fail) if count else 1
    return hands


def _check_board(variant: Variant, board: list[int], hands: list[list[int]]) -> None:
    t = variant.tables
    kings = [0, 0]
    nifu_files: dict[tuple[int, int, int], str] = {}
    for sq, v in enumerate(board):
        if not v:
            continue
        color = SENTE if v > 0 else GOTE
        piece = variant.piece(abs(v))
        where = t.square_names[sq]
        if piece.royal:
            kings[color] += 1
        if t.dead[v][sq]:
            raise _fail(
                f"{COLOR_NAMES[color]} {piece.name.lower()} on {where} could never move",
                square=where,
            )
        if piece.kind in variant.drops.no_two_on_file:
            key = (color, piece.kind, t.file_of[sq])
            if key in nifu_files:
                file_no = variant.files - t.file_of[sq]
                raise _fail(
                    f"two {COLOR_NAMES[color]} {piece.name.lower()}s on file {file_no} "
                    f"({nifu_files[key]} and {where})"
                )
            nifu_files[key] = where
    for color in (SENTE, GOTE):
        if kings[color] > 1:
            royal = variant.piece(variant.royal_kind).name.lower()
            raise _fail(f"{kings[color]} {COLOR_NAMES[color]} {royal}s; a side has at most one")
    start = t.set_counts
    for kind, n in enumerate(piece_counts(variant, board, hands)):
        if kind and n > start[kind]:
            piece = variant.piece(kind)
            raise _fail(
                f"{n} {piece.name.lower()}s (promoted or not); a {variant.id} set has {start[kind]}"
            )


def piece_counts(variant: Variant, board: list[int], hands: list[list[int]]) -> list[int]:
    """How many pieces of each unpromoted kind are on the board and in both hands."""
    counts = [0] * (len(variant.pieces) + 1)
    for v in board:
        if v:
            counts[variant.piece(abs(v)).base] += 1
    for hand in hands:
        for kind, n in enumerate(hand):
            counts[kind] += n
    return counts


def format_sfen(pos: Position, with_move_number: bool = True) -> str:
    variant = pos.variant
    rows = []
    w = variant.files
    for r in range(variant.ranks):
        out = []
        empty = 0
        for v in plain(pos.board[r * w : (r + 1) * w]):
            if not v:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            letter = variant.piece(abs(v)).letter
            out.append(letter if v > 0 else letter.lower())
        if empty:
            out.append(str(empty))
        rows.append("".join(out))
    hand = ""
    for color in (SENTE, GOTE):
        # conventional order: most valuable first, i.e. the order of the variant file
        for piece in variant.pieces:
            n = pos.hands[color][piece.kind]
            if n:
                letter = piece.letter if color == SENTE else piece.letter.lower()
                hand += (str(n) if n > 1 else "") + letter
    fields = ["/".join(rows), "b" if pos.side == SENTE else "w", hand or "-"]
    if with_move_number:
        fields.append(str(pos.move_number))
    return " ".join(fields)
