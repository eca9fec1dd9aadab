"""Cheat sheets: every piece of a variant with its moves and its promotion, in one image."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.diagram import draw_legend, draw_moves, legend, reach, to_png
from render.fonts import Face, fit_size, font
from render.options import DiagramWords
from render.sprites import draw_centered
from render.theme import DEFAULT_THEME, Theme
from rules import PieceType, Variant, load_variant

COLUMNS = 3
CARD_GRID = 168  # pixels per move grid


def _caption(
    draw: ImageDraw.ImageDraw,
    piece: PieceType,
    at: tuple[int, int],
    width: int,
    theme: Theme,
    words: DiagramWords,
) -> None:
    x, y = at
    color = theme.promoted_ink if piece.promoted else theme.ink
    name, name_px = fit_size(words.name(piece.names), Face.BOLD, 15, width, 9)
    draw.text((x, y), name, font=font(Face.BOLD, name_px), fill=color)
    line = f"{piece.code} · {piece.kanji} · {piece.names.get('romaji', '')}"
    line, line_px = fit_size(line, Face.LABEL, 13, width, 9)
    draw.text((x, y + 20), line, font=font(Face.LABEL, line_px), fill=theme.ink)


def cheatsheet_image(
    variant: Variant, theme: Theme = DEFAULT_THEME, words: DiagramWords | None = None
) -> Image.Image:
    """Every unpromoted piece of ``variant`` beside its promoted form, as an RGB image."""
    bases = [p for p in variant.pieces if not p.promoted]
    radius = max(reach(p) for p in variant.pieces)
    n = 2 * radius + 1
    cell = CARD_GRID // n
    side = cell * n
    arrow = 30
    caption_h = 42
    card_w, card_h = 2 * side + arrow, side + caption_h
    gap, pad, title_h, legend_h = 28, 24, 48, 36
    rows = -(-len(bases) // COLUMNS)
    width = 2 * pad + COLUMNS * card_w + (COLUMNS - 1) * gap
    height = pad + title_h + rows * card_h + (rows - 1) * gap + gap + legend_h + pad
    img = Image.new("RGB", (width, height), theme.diagram_paper)
    draw = ImageDraw.Draw(img)
    words = words or DiagramWords()
    shown = dict.fromkeys((words.name(variant.names), variant.names.get("ja", "")))
    title = " — ".join([*(n for n in shown if n), words.pieces_and_promotions])
    title, title_px = fit_size(title, Face.BOLD, 28, width - 2 * pad, 16)
    draw.text((pad, pad), title, font=font(Face.BOLD, title_px), fill=theme.ink)
    for i, base in enumerate(bases):
        row, col = divmod(i, COLUMNS)
        x = pad + col * (card_w + gap)
        y = pad + title_h + row * (card_h + gap)
        _caption(draw, base, (x, y), side, theme, words)
        draw_moves(img, variant, base, (x, y + caption_h), cell, radius, theme)
        px = x + side + arrow
        if base.promotes_to:
            promoted = variant.piece(base.promotes_to)
            draw_centered(
                draw,
                "→",
                Face.BOLD,
                (x + side + arrow / 2, y + caption_h + side / 2),
                18,
                arrow,
                theme.diagram_grid,
                em_ratio=0.5,
            )
            _caption(draw, promoted, (px, y), side, theme, words)
            draw_moves(img, variant, promoted, (px, y + caption_h), cell, radius, theme)
        else:
            note = words.king if base.royal else words.does_not_promote
            draw.text(
                (px + side / 2, y + caption_h + side / 2),
                note,
                font=font(Face.LABEL, 14),
                fill=theme.diagram_grid,
                anchor="mm",
            )
    entries = legend(list(variant.pieces), words)
    draw_legend(draw, (pad, height - pad - legend_h + 20), entries, theme)
    return img


def render_cheatsheet(
    variant: Variant, theme: Theme = DEFAULT_THEME, words: DiagramWords | None = None
) -> bytes:
    """PNG cheat sheet of ``variant``'s pieces and promotions, with ``words`` drawn on it."""
    return _cheatsheet_png(variant.id, theme, words or DiagramWords())


@lru_cache(maxsize=16)
def _cheatsheet_png(variant_id: str, theme: Theme, words: DiagramWords) -> bytes:
    return to_png(cheatsheet_image(load_variant(variant_id), theme, words))
