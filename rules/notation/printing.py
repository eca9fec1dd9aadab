"""Printing moves in each style, with just enough disambiguation."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.move import Move
from rules.notation.names import piece_names
from rules.notation.query import Style
from rules.notation.relative import marks_for, uses_straight
from rules.notation.squares import japanese_square, kif_origin
from rules.position import Position


def as_style(style: str | Style) -> Style:
    """``Style`` from its name (``usi``, ``western``, ``japanese``); ValueError otherwise."""
    if isinstance(style, Style):
        return style
    try:
        return Style(style.lower())
    except ValueError:
        names = ", ".join(s.value for s in Style)
        raise ValueError(f"unknown notation style {style!r} (one of {names})") from None


@dataclass
class Printer:
    """Formats moves of one position; knows the legal moves to disambiguate against.

    The moves grouped by piece and target square, and the set of them, are built on first use:
    most printers format one move, and a move that no other piece could make is written
    without them."""

    pos: Position
    legal: list[Move] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.legal:
            self.legal = self.pos.legal_moves()

    def kind(self, move: Move) -> int:
        return move.drop or abs(self.pos.piece_at(move.from_sq))

    def board_moves_to(self, kind: int, to_sq: int) -> list[Move]:
        """Legal board moves of a ``kind`` piece to ``to_sq``."""
        return [
            m for m in self.legal if m.to_sq == to_sq and not m.is_drop and self.kind(m) == kind
        ]

    def rivals(self, move: Move) -> list[Move]:
        """Legal board moves of the same kind of piece to the same square, from elsewhere."""
        seen: dict[int, Move] = {}
        for m in self.board_moves_to(self.kind(move), move.to_sq):
            if m.from_sq != move.from_sq:
                seen.setdefault(m.from_sq, m)
        return list(seen.values())

    def could_promote_instead(self, move: Move) -> bool:
        return not move.is_drop and move._replace(promote=not move.promote) in self.legal

    def format(self, move: Move, style: Style) -> str:
        if style is Style.USI:
            return self.pos.usi(move)
        if style is Style.WESTERN:
            return self.western(move)
        return self.japanese(move)

    def western(self, move: Move) -> str:
        """Shortest Hodges: ``P-7f``, ``Bx2b+``, ``S*5e``, ``G6i-5h``, ``N-3c=``."""
        v = self.pos.variant
        names = v.tables.square_names
        code = v.piece(self.kind(move)).code
        if move.is_drop:
            return f"{code}*{names[move.to_sq]}"
        origin = names[move.from_sq] if self.rivals(move) else ""
        sep = "x" if self.pos.board[move.to_sq] else "-"
        suffix = "+" if move.promote else ("=" if self.could_promote_instead(move) else "")
        return f"{code}{origin}{sep}{names[move.to_sq]}{suffix}"

    def japanese(self, move: Move) -> str:
        """KI2 style: ``７六歩``, ``同　歩``, ``５五角打``, ``５八金右``, ``２三銀不成``."""
        pos = self.pos
        v = pos.variant
        last = pos.last_move
        square = "同　" if last is not None and last.to_sq == move.to_sq else None
        square = square or japanese_square(v, move.to_sq)
        name = piece_names(v).japanese[self.kind(move)]
        if move.is_drop:
            board_alternative = bool(self.board_moves_to(move.drop, move.to_sq))
            return f"{square}{name}{'打' if board_alternative else ''}"
        straight = uses_straight(v.piece(self.kind(move)))
        marks = marks_for(pos.side, v.files, move, self.rivals(move), straight)
        if marks is None:
            marks = f"({kif_origin(v, move.from_sq)})"
        suffix = "成" if move.promote else ("不成" if self.could_promote_instead(move) else "")
        if marks.startswith("("):
            return f"{square}{name}{suffix}{marks}"
        return f"{square}{name}{marks}{suffix}"


def format_move(pos: Position, move: Move, style: str | Style) -> str:
    """``move`` (legal in ``pos``, the position before it) in ``usi``, ``western`` or
    ``japanese``; ValueError for an unknown style."""
    return Printer(pos).format(move, as_style(style))


def legal_move_texts(pos: Position, style: str | Style) -> list[str]:
    """Every legal move of ``pos`` as text in ``style``: board moves by piece (in the variant's
    order) then destination, drops last."""
    st = as_style(style)
    printer = Printer(pos)
    w = pos.variant.files

    def key(m: Move) -> tuple[int, int, int, int, int, bool]:
        col_from, col_to = (m.from_sq % w, m.to_sq % w) if m.from_sq >= 0 else (0, m.to_sq % w)
        return (m.is_drop, printer.kind(m), -col_to, m.to_sq // w, -col_from, m.promote)

    return [printer.format(m, st) for m in sorted(printer.legal, key=key)]
