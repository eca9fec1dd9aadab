"""The move value type and its USI form."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final, NamedTuple

from rules.errors import InvalidMoveError

if TYPE_CHECKING:
    from rules.variant import Variant


class Move(NamedTuple):
    """A board move (``from_sq`` to ``to_sq``, maybe promoting) or a drop (``drop`` = kind).

    Squares are indices ``rank * files + column`` (rank 0 = ``a``, column 0 = the highest file).
    A drop has ``from_sq`` -1.
    """

    from_sq: int
    to_sq: int
    promote: bool = False
    drop: int = 0

    @property
    def is_drop(self) -> bool:
        return self.drop != 0


_USI: Final = re.compile(
    r"^(?:([0-9]{1,2}[a-z])([0-9]{1,2}[a-z])(\+?)|([A-Z])\*([0-9]{1,2}[a-z]))$"
)


def move_to_usi(variant: Variant, move: Move) -> str:
    """``7g7f``, ``8h2b+``, ``P*5e``; on 11x11 files may have two digits (``11k11j``)."""
    names = variant.tables.square_names
    if move.drop:
        return f"{variant.piece(move.drop).letter}*{names[move.to_sq]}"
    return f"{names[move.from_sq]}{names[move.to_sq]}{'+' if move.promote else ''}"


def parse_usi(variant: Variant, text: str) -> Move:
    """Read a USI move for ``variant`` (syntax and squares only, not legality)."""
    t = variant.tables
    m = _USI.match(text.strip())
    if not m:
        raise InvalidMoveError(
            f"{text!r} is not a USI move: write origin and destination like 7g7f, "
            "add + to promote (8h2b+), or a drop like P*5e",
            reason="bad_usi",
            text=text,
        )
    frm, to, plus, letter, drop_to = m.groups()
    if letter:
        piece = variant.by_letter.get(letter)
        if piece is None or piece.promoted or piece.royal:
            droppable = "".join(p.letter for p in variant.pieces if not p.promoted and not p.royal)
            raise InvalidMoveError(
                f"{text!r}: {letter!r} is not a piece that can be dropped in {variant.id} "
                f"(one of {droppable})",
                reason="bad_usi_drop",
                text=text,
                token=letter,
                letters=droppable,
                variant_id=variant.id,
            )
        return Move(-1, t.parse_square(drop_to), False, piece.kind)
    origin, dest = t.parse_square(frm), t.parse_square(to)
    if origin == dest:
        raise InvalidMoveError(
            f"{text!r}: origin and destination are the same square", reason="same_square", text=text
        )
    return Move(origin, dest, plus == "+", 0)
