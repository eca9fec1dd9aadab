"""A mate problem as a player sees it: the board from the attacker's side (image and text),
the pieces in hand in words, moves in the chat's notation."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.api import Attachment
from bot.core.messages import plural, text
from bot.core.present.boards import board_options, coordinates
from bot.core.present.moves import color_name, format_move, piece_name
from bot.core.present.textboard import text_board
from bot.store.models import ChatSettings
from puzzles.puzzle import Puzzle
from render import render_board
from rules import GOTE, SENTE, Move, Position


def puzzle_image(
    pos: Position,
    settings: ChatSettings,
    names: tuple[str, str],
    attacker: int,
    highlights: tuple[int, ...] = (),
) -> Attachment:
    """The board PNG with the attacker at the bottom, whoever is to move."""
    options = board_options(settings, names, attacker == GOTE, highlights)
    return Attachment(render_board(pos, options), "puzzle.png", "image/png")


def puzzle_text_board(
    pos: Position,
    settings: ChatSettings,
    names: tuple[str, str],
    attacker: int,
    marks: frozenset[int] = frozenset(),
) -> str:
    """The board as text with the attacker at the bottom; ``marks``: the last move's squares."""
    return text_board(
        pos,
        gote_bottom=attacker == GOTE,
        names=names,
        marks=marks,
        lang=settings.language,
        coordinates=coordinates(settings),
    )


def hands_line(pos: Position, lang: str) -> str:
    """``In hand: Sente: gold, 2 × pawn; Gote: none``: both hands, pieces by name."""
    hands = []
    for color in (0, 1):
        pieces = []
        for kind, count in enumerate(pos.hands[color]):
            if count:
                name = piece_name(pos, pos.variant.piece(kind).letter, lang)
                pieces.append(
                    name if count == 1 else text("puzzle.hand_count", lang, count=count, piece=name)
                )
        held = (
            text("describe.list", lang).join(pieces) if pieces else text("puzzle.hand_empty", lang)
        )
        side = color_name(color, lang).capitalize()
        hands.append(text("puzzle.hand", lang, color=side, pieces=held))
    return text("puzzle.hands", lang, sente=hands[0], gote=hands[1])


def moves_text(pos: Position, moves: Sequence[Move], notation: str) -> str:
    """``moves`` played from ``pos`` (not changed), each in the chat's notation, numbered from
    1 as a tsume solution is (``1. G*2b 2. Kx2b 3. S*3c``)."""
    work = pos.copy()
    shown = []
    for n, move in enumerate(moves, 1):
        shown.append(f"{n}. {format_move(work, move, notation)}")
        work.make_unchecked(move)
    return " ".join(shown)


def attacker_of(puzzle: Puzzle) -> int:
    return SENTE if puzzle.side == "sente" else 1


def puzzle_names(puzzle: Puzzle, attacker_name: str, lang: str) -> tuple[str, str]:
    """The names on a puzzle's board: the attacker's (the solver) and the defence's."""
    names = [attacker_name, text("puzzle.defence", lang)]
    if attacker_of(puzzle) != SENTE:
        names.reverse()
    return names[0], names[1]


def task_line(puzzle: Puzzle, lang: str) -> str:
    """``Sente to play and mate in 3.``"""
    return text(
        "puzzle.task",
        lang,
        side=color_name(attacker_of(puzzle), lang).capitalize(),
        mate=plural("puzzle.mate_in", lang, puzzle.mate_in),
    )
