"""The words and numbers on a board image, worked out before anything is drawn.

Pure functions, so the bot and the tests read exactly what the image shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from render.options import BoardOptions, Coordinates
from rules import Position, Variant
from rules.notation.numerals import full_width, kanji_number

SIDE_MARKS = "☗☖"  # sente's and gote's marks, as the move lists and analyses write them


def moves_played(pos: Position) -> int:
    """The move number shown everywhere (image header, text board, /board, /games, replay
    frames): how many moves have been played, so the board after 22 moves says "Move 22" and
    its highlighted last move is move 22.  SFEN's move number counts the move about to be made,
    hence one less; a game set up from an SFEN keeps that SFEN's numbering."""
    return pos.move_number - 1


def coordinate_labels(
    variant: Variant, coordinates: Coordinates
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """File labels from sente's left (9 … 1) and rank labels from the top, as ``coordinates``
    writes squares: western (and USI) ``9``…``1`` and ``a``…``i``; japanese ``９``…``１`` and
    ``一``…``九`` (on 11x11: ``a``…``k`` or ``一``…``十一``)."""
    files = range(variant.files, 0, -1)
    ranks = range(1, variant.ranks + 1)
    if coordinates == "japanese":
        return tuple(full_width(f) for f in files), tuple(kanji_number(r) for r in ranks)
    return tuple(str(f) for f in files), tuple(chr(ord("a") + r - 1) for r in ranks)


@dataclass(frozen=True)
class Caption:
    """The header line: ``status`` (whose turn, or the result) on the left; ``move`` and
    ``check`` on the right, each empty when there is nothing to say."""

    status: str
    move: str
    check: str
    finished: bool


def header_caption(pos: Position, options: BoardOptions, mover_name: str) -> Caption:
    """What the header says for ``pos``; a finished game (``options.result``) shows its result
    in place of whose turn it is and of "Check!".  The move number alone ("Move 12"), or with
    ``options.last_move_text`` the move just played ("12. ☗P-7f", a replay's frames)."""
    labels = options.labels
    n = moves_played(pos)
    move = ""
    if n > 0 and options.last_move_text:
        mark = SIDE_MARKS[1 - pos.side]  # the side that played it, not the one to move
        move = labels.played.format(n=n, mark=mark, move=options.last_move_text)
    elif n > 0:
        move = labels.move.format(n=n)
    if options.result:
        return Caption(options.result, move, "", finished=True)
    check = labels.check if pos.is_check() else ""
    return Caption(labels.to_move.format(name=mover_name), move, check, finished=False)
