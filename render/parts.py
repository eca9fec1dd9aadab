"""The header and the strips in parts, each of which can be drawn on its own.

The header is whose turn it is (``Status``: the mover's mark and name, or a finished game's
result) and, on the right, "Check!" and the move number (``MoveWords``); each strip is a
player's mark and name (``Name``) and, with drops, the pieces they hold (``Tray``).  A part
draws only inside its own ``rows`` and ``columns``, which no other part of its band shares,
so a band is the empty board's pixels with each of its parts pasted where it belongs:
``render.board`` keeps parts it has drawn (in palette indices) and puts a board's header and
strips together from them, and the whole drawing draws every part on one picture.

What a part draws depends on its fields and on the board's look only (variant, size,
perspective, style, theme): the fields are worked out before anything is drawn (the words as
they fit, the column where the next part begins).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from render.captions import Caption
from render.fonts import Face, draw_text, fit, fit_size, max_chars, printable, text_length
from render.hands import tray_box
from render.layout import BoardLayout, Box
from render.sprites import disc, draw_centered, piece_sprite
from render.theme import Theme
from rules import SENTE, Variant


class Part(Protocol):
    """One part of the header or of a strip (see the module)."""

    def rows(self, lay: BoardLayout) -> tuple[int, int]:
        """The picture's rows the part draws in (end exclusive)."""
        ...

    def columns(self, lay: BoardLayout) -> tuple[int, int]:
        """The columns the part draws in (end exclusive), shared with no other part."""
        ...

    def draw(
        self, img: Image.Image, lay: BoardLayout, variant: Variant, style: str, theme: Theme
    ) -> None:
        """Draws the part on ``img`` laid out as ``lay``."""
        ...


def turn_icon(draw: ImageDraw.ImageDraw, box: Box, color: int, theme: Theme) -> None:
    """A small koma outline: filled dark for sente (☗), light for gote (☖)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pts = [
        (x0 + fx * w, y0 + fy * h)
        for fx, fy in ((0.5, 0), (0.9, 0.22), (1, 1), (0, 1), (0.1, 0.22))
    ]
    fill = theme.ink if color == SENTE else theme.label
    draw.polygon(pts, fill=fill, outline=theme.label, width=max(1, w // 10))


def tray_left(lay: BoardLayout) -> int:
    """The first column of either komadai (both strips span the same columns)."""
    return tray_box(lay, lay.top_strip)[0]


# The header ----------------------------------------------------------------------------------


def _header_px(lay: BoardLayout) -> int:
    assert lay.header is not None
    return max(10, round((lay.header[3] - lay.header[1]) * 0.5))


def _icon_size(px: int) -> tuple[int, int]:
    """The turn mark's width and height beside words of ``px`` pixels."""
    icon_h = round(px * 1.05)
    return round(icon_h * 0.8), icon_h


def _header_icon(lay: BoardLayout) -> tuple[int, int]:
    """The turn mark's width and height in the header."""
    return _icon_size(_header_px(lay))


class _InHeader:
    """A part of the header: its rows are the header's."""

    def rows(self, lay: BoardLayout) -> tuple[int, int]:
        assert lay.header is not None
        return lay.header[1], lay.header[3]


@dataclass(frozen=True)
class Status(_InHeader):
    """Left in the header: the mover's mark (``side``, None for a finished game) and ``text``
    (whose turn, or the result) as it fits; its columns end at ``end``."""

    side: int | None
    text: str
    end: int

    def columns(self, lay: BoardLayout) -> tuple[int, int]:
        return 0, self.end

    def draw(
        self, img: Image.Image, lay: BoardLayout, variant: Variant, style: str, theme: Theme
    ) -> None:
        assert lay.header is not None
        x0, y0, _, y1 = lay.header
        px = _header_px(lay)
        cy = (y0 + y1) / 2
        tx = x0
        if self.side is not None:
            icon_w, icon_h = _header_icon(lay)
            box = (x0, round(cy - icon_h / 2), x0 + icon_w, round(cy + icon_h / 2))
            turn_icon(ImageDraw.Draw(img), box, self.side, theme)
            tx += icon_w + px // 2
        draw_text(img, (tx, cy), self.text, Face.BOLD, px, theme.label, "lm")


@dataclass(frozen=True)
class MoveWords(_InHeader):
    """Right in the header: "Check!" (``check``) and the move number (``move``), either
    empty, from column ``start`` on."""

    check: str
    move: str
    start: int

    def columns(self, lay: BoardLayout) -> tuple[int, int]:
        return self.start, lay.width

    def draw(
        self, img: Image.Image, lay: BoardLayout, variant: Variant, style: str, theme: Theme
    ) -> None:
        assert lay.header is not None
        _, y0, right, y1 = lay.header
        px = _header_px(lay)
        for words, face, fill in (
            (self.check, Face.BOLD, theme.check_text),
            (self.move, Face.LABEL, theme.label_dim),
        ):
            if words:
                shown = printable(words)
                draw_text(img, (right, (y0 + y1) / 2), shown, face, px, fill, "rm")
                right -= round(text_length(shown, face, px)) + px


def header_parts(lay: BoardLayout, side: int, caption: Caption) -> list[Part]:
    """The header's parts for ``caption`` with ``side`` to move: the status (the result's or
    whose turn it is, cut to what fits left of the words on the right) and those words."""
    assert lay.header is not None
    x0, _, right, _ = lay.header
    px = _header_px(lay)
    for words, face in ((caption.check, Face.BOLD), (caption.move, Face.LABEL)):
        if words:
            right -= round(text_length(printable(words), face, px)) + px
    tx = x0 if caption.finished else x0 + _header_icon(lay)[0] + px // 2
    # a result names the winner as typed: cut it to what could fit before looking at it
    status = caption.status[: max_chars(Face.BOLD, px, right - tx) + 1]
    text = fit(printable(status), Face.BOLD, px, right - tx)
    # between the two a gap of ``px``: each part takes half of it, room for glyphs whose ink
    # reaches past their advance
    split = min(lay.width, right + px // 2)
    end = min(split, tx + math.ceil(text_length(text, Face.BOLD, px)) + px // 2)
    side_shown = None if caption.finished else side
    parts: list[Part] = [Status(side_shown, text, end)]
    if caption.check or caption.move:
        parts.append(MoveWords(caption.check, caption.move, split))
    return parts


# The strips ----------------------------------------------------------------------------------


def _name_px(lay: BoardLayout, variant: Variant) -> int:
    _, y0, _, y1 = lay.top_strip
    share = 0.42 if variant.drops.enabled else 0.56
    return max(10, round(min((y1 - y0) * share, lay.width * 0.032)))


def _name_icon(lay: BoardLayout, variant: Variant) -> tuple[int, int]:
    """The turn mark's width and height in a strip."""
    return _icon_size(_name_px(lay, variant))


class _InStrip:
    """A part of ``color``'s strip: its rows are the strip's."""

    color: int

    def rows(self, lay: BoardLayout) -> tuple[int, int]:
        strip = lay.strip_of(self.color)
        return strip[1], strip[3]


@dataclass(frozen=True)
class Name(_InStrip):
    """A player's mark and name in their strip (``color``'s), highlighted when ``to_move``;
    ``text`` as it fits, at ``px`` pixels; its columns end at ``end``."""

    color: int
    text: str
    px: int
    to_move: bool
    end: int

    def columns(self, lay: BoardLayout) -> tuple[int, int]:
        return 0, self.end

    def draw(
        self, img: Image.Image, lay: BoardLayout, variant: Variant, style: str, theme: Theme
    ) -> None:
        x0, y0, _, y1 = lay.strip_of(self.color)
        h = y1 - y0
        icon_w, icon_h = _name_icon(lay, variant)
        iy = y0 + (h - icon_h) // 2
        turn_icon(ImageDraw.Draw(img), (x0, iy, x0 + icon_w, iy + icon_h), self.color, theme)
        face = Face.BOLD if self.to_move else Face.LABEL
        fill = theme.turn_mark if self.to_move else theme.label_dim
        draw_text(img, (_name_left(lay, variant), y0 + h / 2), self.text, face, self.px, fill, "lm")


def _name_left(lay: BoardLayout, variant: Variant) -> int:
    text_px = _name_px(lay, variant)
    return lay.top_strip[0] + _name_icon(lay, variant)[0] + max(4, text_px // 3)


@dataclass(frozen=True)
class Tray(_InStrip):
    """The pieces in hand on ``color``'s komadai: (kind, count), strongest first."""

    color: int
    items: tuple[tuple[int, int], ...]

    def columns(self, lay: BoardLayout) -> tuple[int, int]:
        return tray_left(lay), lay.width

    def draw(
        self, img: Image.Image, lay: BoardLayout, variant: Variant, style: str, theme: Theme
    ) -> None:
        _, y0, x1, y1 = lay.strip_of(self.color)
        x0 = tray_left(lay)
        cw, ch = lay.hand_cell
        n = len(self.items)
        inner = (x1 - x0) - cw // 3
        pitch = min(round(cw * 1.12), (inner - cw) // max(1, n - 1)) if n > 1 else cw
        upside_down = (self.color == SENTE) == lay.flipped
        top = y0 + (y1 - y0 - ch) // 2
        draw = ImageDraw.Draw(img)
        badge = max(10, round(cw * 0.4))
        for i, (kind, count) in enumerate(self.items):
            x = x0 + cw // 6 + i * pitch
            sprite = piece_sprite(variant.id, kind, self.color, upside_down, style, (cw, ch), theme)
            img.paste(sprite, (x, top), sprite)
            if count > 1:
                bx, by = x + cw - badge * 3 // 4, top + ch - badge
                dot = disc(badge, (*theme.ink, 235))
                img.paste(dot, (bx, by), dot)
                draw_centered(
                    draw,
                    str(count),
                    Face.BOLD,
                    (bx + badge / 2, by + badge / 2),
                    badge * 0.56,
                    badge * 0.8,
                    theme.label,
                    em_ratio=0.72,
                )


def strip_parts(
    lay: BoardLayout,
    variant: Variant,
    color: int,
    name: str,
    to_move: bool,
    items: tuple[tuple[int, int], ...],
) -> list[Part]:
    """``color``'s strip: the name (highlighted when ``to_move``, drawn smaller rather than
    cut, up to the komadai when there is one) and, with drops, the pieces in hand ``items``
    (none drawn when empty)."""
    x1 = lay.top_strip[2]
    text_px = _name_px(lay, variant)
    right = tray_left(lay) - lay.pad // 2 if variant.drops.enabled else x1
    face = Face.BOLD if to_move else Face.LABEL
    nx = _name_left(lay, variant)
    smallest = max(8, round(text_px * 0.6))
    text, px = fit_size(printable(name), face, text_px, right - nx, smallest)
    split = tray_left(lay) if variant.drops.enabled else lay.width
    end = min(split, nx + math.ceil(text_length(text, face, px)) + text_px // 2)
    parts: list[Part] = [Name(color, text, px, to_move, end)]
    if items:
        parts.append(Tray(color, items))
    return parts
