"""Images for Komabot: boards, piece diagrams, cheat sheets and game replays (Pillow only)."""

from render.board import render_board
from render.options import BoardOptions, Labels

__all__ = ["BoardOptions", "Labels", "render_board"]
