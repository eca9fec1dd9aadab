"""A board to draw as plain values: what ``render_board`` needs of a position, small to pickle,
so another process can draw it (``bot.core.board_process``) as this one would.

The position's history is left out (a long game's is hundreds of moves): the board image uses
only the squares, the hands, the side to move, the move number and the last move, which goes
into the options (``BoardOptions.last_move``)."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from render.board import render_board
from render.options import BoardOptions
from render.theme import DEFAULT_THEME, Theme
from rules import Position, load_variant

_THEMES: dict[Theme, Theme] = {DEFAULT_THEME: DEFAULT_THEME}
"""The themes drawn in this process, each as one object.  A job that came through a pipe holds
a copy of its theme, equal but not the same object: every render cache key holds the theme,
and comparing a copy's 28 colours at each of the ~75 lookups of a board cost ~0.25 ms of it
(measured: a board whose bands are all cached, 0.97-1.0 ms against 0.70)."""


class BoardJob(NamedTuple):
    """One board image to draw: a position without its history, and how to draw it."""

    variant_id: str
    board: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    side: int
    move_number: int
    options: BoardOptions


def board_job(pos: Position, options: BoardOptions) -> BoardJob:
    """``pos`` drawn with ``options``, as values taken now (``pos`` may change after)."""
    if options.show_last_move and options.last_move is None and pos.last_move is not None:
        options = dataclasses.replace(options, last_move=pos.last_move)
    hands = (tuple(pos.hands[0]), tuple(pos.hands[1]))
    return BoardJob(pos.variant.id, tuple(pos.board), hands, pos.side, pos.move_number, options)


def draw_board_job(job: BoardJob) -> bytes:
    """The PNG of ``job``: the same bytes as ``render_board`` of the position it was made of."""
    options = job.options
    theme = _THEMES.setdefault(options.theme, options.theme)
    if theme is not options.theme:
        options = dataclasses.replace(options, theme=theme)
    variant = load_variant(job.variant_id)
    hands = [list(job.hands[0]), list(job.hands[1])]
    pos = Position(variant, list(job.board), hands, job.side, job.move_number)
    return render_board(pos, options)
