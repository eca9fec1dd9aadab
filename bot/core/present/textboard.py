"""The board as plain text: files on top, ranks on the right, hands below and above.

Sente's pieces are written with their SFEN letter (``P``, ``+R``), gote's with a leading ``v``
(``vP``, ``v+R``), as in the BOD diagrams of shogi books.
"""

from __future__ import annotations

from typing import Literal

from bot.core.messages import text
from render import Coordinates, coordinate_labels, moves_played
from rules import GOTE, SENTE, Position

CELL = 4
MarkMeaning = Literal["last_move", "targets"]  # what the squares marked ``*`` are


def _cell(pos: Position, value: int) -> str:
    if not value:
        return " ·".rjust(CELL - 1)
    letter = pos.variant.piece(abs(value)).letter
    return (letter if value > 0 else "v" + letter).rjust(CELL - 1)


def _hand(pos: Position, color: int) -> str:
    parts = []
    for kind, n in enumerate(pos.hands[color]):
        if n:
            letter = pos.variant.piece(kind).letter
            parts.append(letter if n == 1 else f"{letter}{n}")
    return " ".join(parts) if parts else "-"


def text_board(
    pos: Position,
    *,
    gote_bottom: bool = False,
    names: tuple[str, str] = ("", ""),
    marks: frozenset[int] = frozenset(),
    marks_mean: MarkMeaning = "last_move",
    lang: str = "en",
    coordinates: Coordinates = "western",
) -> str:
    """A fixed-width diagram under the move number; ``marks`` squares get a ``*``, which the
    key below explains as ``marks_mean`` says (the last move, or where a piece can go).  Ranks
    are labelled as ``coordinates`` writes them (a…i, or 一…九), as on the image; files stay
    ASCII digits, which keep the columns aligned in any font."""
    v = pos.variant
    rank_labels = coordinate_labels(v, coordinates)[1]
    files = [v.files - c for c in range(v.files)]
    ranks = list(range(v.ranks))
    columns = list(range(v.files))
    if gote_bottom:
        files.reverse()
        ranks.reverse()
        columns.reverse()
    drops = v.drops.enabled
    top, bottom = (SENTE, GOTE) if gote_bottom else (GOTE, SENTE)
    label = {SENTE: text("textboard.sente", lang), GOTE: text("textboard.gote", lang)}
    hand = text("textboard.hand", lang)
    lines = []
    n = moves_played(pos)
    if n > 0:  # as on the image: no "move 0" before the first move
        lines.append(text("board.move", lang, n=n))
    head = f"{label[top]} {names[top]}".rstrip()
    lines.append(head + (f"   {hand}: {_hand(pos, top)}" if drops else ""))
    lines.append(" " + "".join(str(f).rjust(CELL - 1) + " " for f in files))
    border = " +" + "-" * (CELL * v.files) + "+"
    lines.append(border)
    for r in ranks:
        row = []
        for c in columns:
            sq = r * v.files + c
            mark = "*" if sq in marks else " "
            row.append(_cell(pos, pos.board[sq]) + mark)
        lines.append(" |" + "".join(row) + "| " + rank_labels[r])
    lines.append(border)
    tail = f"{label[bottom]} {names[bottom]}".rstrip()
    lines.append(tail + (f"   {hand}: {_hand(pos, bottom)}" if drops else ""))
    lines.append(legend(pos, lang))
    if marks:
        lines.append(text(f"textboard.marks.{marks_mean}", lang))
    return "\n".join(lines)


def legend(pos: Position, lang: str = "en") -> str:
    """What the letters mean: ``K King, R Rook, ...; +X promoted, vX gote``."""
    pieces = [p for p in pos.variant.pieces if not p.promoted]
    keys = [f"{p.letter} {p.names.get(lang) or p.names['en']}" for p in pieces]
    return text("textboard.legend", lang, keys=keys)
