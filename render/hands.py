"""The strips above and below the board: a player's mark and name, and their komadai."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import Face, draw_text, fit_size, printable
from render.layout import BoardLayout, Box
from render.sprites import disc, draw_centered, piece_sprite
from render.theme import Theme
from rules import SENTE, Position, Variant

NAME_SHARE = 0.3  # part of a strip's width given to the name when there is a komadai


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


def hand_items(variant: Variant, pos: Position, color: int) -> list[tuple[int, int]]:
    """(kind, count) of the pieces ``color`` holds, strongest first as on a komadai."""
    hand = pos.hands[color]
    return [
        (p.kind, hand[p.kind])
        for p in variant.pieces
        if not p.promoted and not p.royal and hand[p.kind] > 0
    ]


def tray_box(layout: BoardLayout, strip: Box) -> Box:
    x0, y0, x1, y1 = strip
    return x0 + round((x1 - x0) * NAME_SHARE), y0, x1, y1


def draw_strip(
    img: Image.Image,
    variant: Variant,
    pos: Position,
    layout: BoardLayout,
    color: int,
    name: str,
    to_move: bool,
    style: str,
    theme: Theme,
) -> None:
    """Name (highlighted when ``to_move``) and, with drops, the pieces in hand with counts."""
    strip = layout.strip_of(color)
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = strip
    h = y1 - y0
    share = 0.42 if variant.drops.enabled else 0.56
    text_px = max(10, round(min(h * share, layout.width * 0.032)))
    icon_h = round(text_px * 1.05)
    icon_w = round(icon_h * 0.8)
    iy = y0 + (h - icon_h) // 2
    turn_icon(draw, (x0, iy, x0 + icon_w, iy + icon_h), color, theme)
    name_right = tray_box(layout, strip)[0] - layout.pad // 2 if variant.drops.enabled else x1
    face = Face.BOLD if to_move else Face.LABEL
    nx = x0 + icon_w + max(4, text_px // 3)
    smallest = max(8, round(text_px * 0.6))
    text, name_px = fit_size(printable(name), face, text_px, name_right - nx, smallest)
    fill = theme.turn_mark if to_move else theme.label_dim
    draw_text(img, (nx, y0 + h / 2), text, face, name_px, fill, "lm")
    if variant.drops.enabled:
        _draw_tray(img, variant, pos, layout, color, style, theme)


def _draw_tray(
    img: Image.Image,
    variant: Variant,
    pos: Position,
    layout: BoardLayout,
    color: int,
    style: str,
    theme: Theme,
) -> None:
    x0, y0, x1, y1 = tray_box(layout, layout.strip_of(color))
    items = hand_items(variant, pos, color)
    if not items:
        return
    cw, ch = layout.hand_cell
    inner = (x1 - x0) - cw // 3
    pitch = min(round(cw * 1.12), (inner - cw) // max(1, len(items) - 1)) if len(items) > 1 else cw
    upside_down = (color == SENTE) == layout.flipped
    top = y0 + (y1 - y0 - ch) // 2
    draw = ImageDraw.Draw(img)
    badge = max(10, round(cw * 0.4))
    for i, (kind, count) in enumerate(items):
        x = x0 + cw // 6 + i * pitch
        sprite = piece_sprite(variant.id, kind, color, upside_down, style, (cw, ch), theme)
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
