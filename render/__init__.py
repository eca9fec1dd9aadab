"""Images for Komabot: boards, piece diagrams, cheat sheets and game replays (Pillow only).

Every function returns encoded bytes (PNG, or GIF for replays) ready to attach to a message.
"""

from render.board import render_board, warm
from render.captions import coordinate_labels, moves_played
from render.cheatsheet import render_cheatsheet
from render.diagram import render_piece
from render.layout import BoardLayout, board_layout
from render.options import BoardOptions, Coordinates, DiagramWords, Labels
from render.replay import render_replay

__all__ = [
    "BoardLayout",
    "BoardOptions",
    "Coordinates",
    "DiagramWords",
    "Labels",
    "board_layout",
    "coordinate_labels",
    "moves_played",
    "render_board",
    "render_cheatsheet",
    "render_piece",
    "render_replay",
    "warm",
]
