"""What the strips above and below the board hold: the pieces in hand, and where their komadai is
(the strips are drawn in ``render.parts``)."""

from __future__ import annotations

from render.layout import BoardLayout, Box
from rules import Position, Variant

NAME_SHARE = 0.3  # part of a strip's width given to the name when there is a komadai


def hand_items(variant: Variant, pos: Position, color: int) -> list[tuple[int, int]]:
    """(kind, count) of the pieces ``color`` holds, strongest first as on a komadai."""
    hand = pos.hands[color]
    return [
        (p.kind, hand[p.kind])
        for p in variant.pieces
        if not p.promoted and not p.royal and hand[p.kind] > 0
    ]


def tray_box(layout: BoardLayout, strip: Box) -> Box:
    """The komadai in ``strip``: the strip's right part, the name's share left of it."""
    x0, y0, x1, y1 = strip
    return x0 + round((x1 - x0) * NAME_SHARE), y0, x1, y1
