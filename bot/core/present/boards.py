"""Boards as a chat's settings draw them: the options of the PNG image (``render``) and the
text board, with the catalogue's words on them; piece diagram words."""

from __future__ import annotations

from bot.core.messages import text
from bot.core.present.textboard import MarkMeaning, text_board
from bot.store.models import ChatSettings
from render import BoardOptions, Coordinates, DiagramWords, Labels
from rules import GOTE, SENTE, Position


def gote_at_bottom(pos: Position, settings: ChatSettings) -> bool:
    return settings.perspective == "mover" and pos.side == GOTE


def board_text(
    pos: Position,
    settings: ChatSettings,
    names: tuple[str, str],
    marks: frozenset[int] | None = None,
) -> str:
    """The board as text; ``marks`` are squares a piece can go to, by default the last move's
    squares are marked instead."""
    meaning: MarkMeaning = "targets"
    if marks is None:
        last = pos.last_move
        marks = frozenset(s for s in (last.from_sq, last.to_sq) if s >= 0) if last else frozenset()
        meaning = "last_move"
    return text_board(
        pos,
        gote_bottom=gote_at_bottom(pos, settings),
        names=names,
        marks=marks,
        marks_mean=meaning,
        lang=settings.language,
        coordinates=coordinates(settings),
    )


def coordinates(settings: ChatSettings) -> Coordinates:
    """How the chat's notation writes squares on a board (USI writes them as western does)."""
    return "japanese" if settings.notation == "japanese" else "western"


def board_options(
    settings: ChatSettings,
    names: tuple[str, str],
    gote_bottom: bool = False,
    highlights: tuple[int, ...] = (),
    result: str = "",
) -> BoardOptions:
    """Drawing options from the chat's settings, with the catalogue's words on the image:
    coordinates as the chat's notation writes squares (USI and western alike), ``result`` (see
    ``result_caption``) on a finished game's image."""
    lang = settings.language
    labels = Labels(
        sente=text("board.sente", lang),
        gote=text("board.gote", lang),
        move=text("board.move", lang),
        played=text("board.played", lang),
        to_move=text("board.to_move", lang),
        check=text("move.check", lang),
    )
    return BoardOptions(
        perspective="gote" if gote_bottom else "sente",
        style="international" if settings.piece_style == "international" else "kanji",
        coordinates=coordinates(settings),
        highlight=highlights,
        sente_name=names[SENTE],
        gote_name=names[GOTE],
        labels=labels,
        result=result,
    )


def diagram_words(lang: str) -> DiagramWords:
    """The catalogue's words for piece diagrams and cheat sheets in ``lang``."""
    return DiagramWords(
        lang=lang,
        **{f: text(f"diagram.{f}", lang) for f in DIAGRAM_FIELDS},
    )


DIAGRAM_FIELDS = (
    "pieces_and_promotions",
    "promoted",
    "does_not_promote",
    "king",
    "one_step",
    "jump",
    "slide",
    "slide_at_most",
)
