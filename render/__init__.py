"""Images for Komabot: boards, piece diagrams, cheat sheets and game replays (Pillow only).

Every function returns encoded bytes (PNG, or GIF for replays) ready to attach to a message.
The names load on first use, so that ``render.options`` alone (``komabot --help``, a process
that has drawn nothing yet) does not import Pillow.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from render.board import render_board, warm
    from render.captions import coordinate_labels, moves_played
    from render.cheatsheet import render_cheatsheet
    from render.diagram import render_piece
    from render.layout import BoardLayout, board_layout
    from render.options import BoardOptions, Coordinates, DiagramWords, Labels
    from render.replay import render_replay

_EXPORTS = {
    "render_board": "render.board",
    "warm": "render.board",
    "coordinate_labels": "render.captions",
    "moves_played": "render.captions",
    "render_cheatsheet": "render.cheatsheet",
    "render_piece": "render.diagram",
    "BoardLayout": "render.layout",
    "board_layout": "render.layout",
    "BoardOptions": "render.options",
    "Coordinates": "render.options",
    "DiagramWords": "render.options",
    "Labels": "render.options",
    "render_replay": "render.replay",
}

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


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
