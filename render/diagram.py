"""Piece diagrams: a piece's moves on a small grid, its promoted form beside it, its names."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import Face, fit_size, font
from render.options import DiagramWords
from render.sprites import SS, draw_centered, piece_sprite
from render.theme import DEFAULT_THEME, Theme
from rules import SENTE, PieceType, Variant, load_variant

DIAGRAM_WIDTH = 720
ENGLISH = DiagramWords()


def legend(pieces: list[PieceType], words: DiagramWords = ENGLISH) -> list[tuple[str, str]]:
    """The legend entries (symbol, meaning) that the move grids of ``pieces`` use."""
    leaps = [v for p in pieces for v in p.moves.leaps]
    limits = sorted({n for p in pieces for _, n in p.moves.rides if n > 1})
    out = []
    if any(max(abs(dx), abs(dy)) == 1 for dx, dy in leaps) or any(
        n == 1 for p in pieces for _, n in p.moves.rides
    ):
        out.append(("○", words.one_step))
    if any(max(abs(dx), abs(dy)) > 1 for dx, dy in leaps):
        out.append(("☆", words.jump))
    if any(n == 0 for p in pieces for _, n in p.moves.rides):
        out.append(("│", words.slide))
    for n in limits:
        out.append((str(n), words.slide_at_most.format(n=n)))
    return out


def reach(piece: PieceType) -> int:
    """How many squares from the centre a grid must show for ``piece`` (at least 2)."""
    far = [max(abs(dx), abs(dy)) for dx, dy in piece.moves.leaps]
    far += [max(abs(dx), abs(dy)) * n for (dx, dy), n in piece.moves.rides if n]
    return max([2, *far])


def pair_of(variant: Variant, kind: int) -> tuple[PieceType, PieceType | None]:
    """The unpromoted piece of ``kind`` and its promoted form (None if it does not promote)."""
    base = variant.piece(variant.piece(kind).base)
    return base, variant.piece(base.promotes_to) if base.promotes_to else None


def draw_moves(
    img: Image.Image,
    variant: Variant,
    piece: PieceType,
    origin: tuple[int, int],
    cell: int,
    radius: int,
    theme: Theme = DEFAULT_THEME,
) -> None:
    """``piece`` in the centre of a (2 * radius + 1)-square grid at ``origin``, with its moves:
    ○ a step, ☆ a jump, a line for a slide, a number at the end of a limited slide."""
    n = 2 * radius + 1
    ox, oy = origin
    side = n * cell
    draw = ImageDraw.Draw(img)
    draw.rectangle((ox, oy, ox + side, oy + side), fill=theme.board)
    for i in range(n + 1):
        w = 2 if i in (0, n) else 1
        draw.line((ox + i * cell, oy, ox + i * cell, oy + side), fill=theme.diagram_grid, width=w)
        draw.line((ox, oy + i * cell, ox + side, oy + i * cell), fill=theme.diagram_grid, width=w)

    def centre(dx: float, dy: float) -> tuple[float, float]:
        return ox + (radius + dx + 0.5) * cell, oy + (radius - dy + 0.5) * cell

    # lines are drawn supersampled on an overlay for smooth edges
    overlay = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    odraw = ImageDraw.Draw(overlay)
    width = max(2, cell // 9) * SS

    def o(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - ox) * SS, (p[1] - oy) * SS

    labels: list[tuple[str, tuple[float, float], tuple[int, int, int], float]] = []
    for (dx, dy), limit in piece.moves.rides:
        steps = limit or radius * 2
        end = 0
        for k in range(1, steps + 1):
            if max(abs(dx * k), abs(dy * k)) > radius:
                break
            end = k
        if end == 0:
            continue
        start, stop = o(centre(dx * 0.35, dy * 0.35)), o(centre(dx * end, dy * end))
        if limit and limit > 1:
            stop = o(centre(dx * (end - 0.3), dy * (end - 0.3)))
        odraw.line((*start, *stop), fill=(*theme.diagram_move, 255), width=width)
        if limit == 1:
            labels.append(("○", centre(dx, dy), theme.diagram_move, 0.62))
        elif limit:
            labels.append((str(limit), centre(dx * end, dy * end), theme.diagram_move, 0.5))
        else:
            _arrow_head(odraw, start, stop, width, theme)
    for dx, dy in piece.moves.leaps:
        if max(abs(dx), abs(dy)) > radius:
            continue
        jump = max(abs(dx), abs(dy)) > 1
        labels.append(
            (
                "☆" if jump else "○",
                centre(dx, dy),
                theme.diagram_jump if jump else theme.diagram_move,
                0.62,
            )
        )
    small = overlay.resize((side, side), Image.Resampling.LANCZOS)
    img.paste(small, (ox, oy), small)
    for text, at, color, scale in labels:
        face = Face.BOLD if text.isdigit() else Face.LABEL
        draw_centered(draw, text, face, at, cell * scale, cell * 0.9, color, em_ratio=0.8)
    sprite = piece_sprite(variant.id, piece.kind, SENTE, False, "kanji", (cell, cell), theme)
    cx, cy = centre(0, 0)
    img.paste(sprite, (round(cx - cell / 2), round(cy - cell / 2)), sprite)


def _arrow_head(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    stop: tuple[float, float],
    width: int,
    theme: Theme,
) -> None:
    vx, vy = stop[0] - start[0], stop[1] - start[1]
    length = (vx * vx + vy * vy) ** 0.5 or 1.0
    ux, uy = vx / length, vy / length
    size = width * 2.2
    tip = (stop[0] + ux * size * 0.6, stop[1] + uy * size * 0.6)
    left = (stop[0] - ux * size + uy * size * 0.8, stop[1] - uy * size - ux * size * 0.8)
    right = (stop[0] - ux * size - uy * size * 0.8, stop[1] - uy * size + ux * size * 0.8)
    draw.polygon([tip, left, right], fill=(*theme.diagram_move, 255))


def names_line(piece: PieceType, words: DiagramWords = ENGLISH) -> str:
    """Kanji and romaji on one line; an English diagram adds the Russian name (the heading has
    the name in the diagram's language)."""
    names = piece.names
    line = f"{names.get('ja', piece.kanji)} · {names.get('romaji', '')}"
    return f"{line} · {names.get('ru', '')}" if words.lang == "en" else line


def diagram_image(
    variant: Variant, kind: int, theme: Theme = DEFAULT_THEME, words: DiagramWords = ENGLISH
) -> Image.Image:
    """The diagram of ``kind`` (with its promoted or unpromoted partner) as an RGB image."""
    base, promoted = pair_of(variant, kind)
    panels = [p for p in (base, promoted) if p is not None]
    width = DIAGRAM_WIDTH
    pad = 24
    radius = max(reach(p) for p in panels)
    n = 2 * radius + 1
    gap = 56
    panel_w = (width - 2 * pad - gap) // 2
    cell = panel_w // n
    side = cell * n
    title_h, names_h, legend_h = 44, 64, 40
    height = pad + title_h + names_h + side + pad + legend_h + pad
    img = Image.new("RGB", (width, height), theme.diagram_paper)
    draw = ImageDraw.Draw(img)
    title = f"{words.name(base.names)} ({base.code}) · {words.name(variant.names)}"
    title, title_px = fit_size(title, Face.BOLD, 26, width - 2 * pad, 16)
    draw.text((pad, pad), title, font=font(Face.BOLD, title_px), fill=theme.ink)
    total = len(panels) * side + (len(panels) - 1) * gap
    x = (width - total) // 2
    top = pad + title_h
    for i, piece in enumerate(panels):
        color = theme.promoted_ink if piece.promoted else theme.ink
        name = words.name(piece.names)
        heading = words.promoted.format(name=name) if piece.promoted else name
        if piece.kind == kind and len(panels) > 1:
            draw.rounded_rectangle(
                (x - 8, top - 6, x + side + 8, top + names_h + side + 8),
                10,
                outline=theme.diagram_grid,
                width=2,
            )
        heading, heading_px = fit_size(heading, Face.BOLD, 20, side, 12)
        draw.text((x, top), heading, font=font(Face.BOLD, heading_px), fill=color)
        line, line_px = fit_size(
            f"{piece.code} · {names_line(piece, words)}", Face.LABEL, 16, side, 10
        )
        draw.text((x, top + 28), line, font=font(Face.LABEL, line_px), fill=theme.ink)
        draw_moves(img, variant, piece, (x, top + names_h), cell, radius, theme)
        if i == 0 and len(panels) > 1:
            draw_centered(
                draw,
                "→",
                Face.BOLD,
                (x + side + gap / 2, top + names_h + side / 2),
                26,
                gap,
                theme.diagram_grid,
                em_ratio=0.5,
            )
        x += side + gap
    if promoted is None:
        note = words.does_not_promote
        draw.text(
            (width // 2, top + names_h + side + 8),
            note,
            font=font(Face.LABEL, 16),
            fill=theme.diagram_grid,
            anchor="mt",
        )
    draw_legend(draw, (pad, height - pad - legend_h + 20), legend(panels, words), theme)
    return img


def draw_legend(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], entries: list[tuple[str, str]], theme: Theme
) -> None:
    """Legend entries left to right from ``at`` (the middle of the line)."""
    x, y = at
    f = font(Face.LABEL, 16)
    for symbol, meaning in entries:
        color = theme.diagram_jump if symbol == "☆" else theme.diagram_move
        face = Face.BOLD if symbol.isdigit() else Face.LABEL
        draw.text((x, y), symbol, font=font(face, 20), fill=color, anchor="lm")
        draw.text((x + 24, y), meaning, font=f, fill=theme.ink, anchor="lm")
        x += 24 + round(f.getlength(meaning)) + 36


def to_png(img: Image.Image, colors: int = 256) -> bytes:
    """``img`` reduced to a palette and PNG-encoded."""
    out = io.BytesIO()
    img.quantize(colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, "PNG")
    return out.getvalue()


def render_piece(
    variant: Variant, kind: int, theme: Theme = DEFAULT_THEME, words: DiagramWords = ENGLISH
) -> bytes:
    """PNG diagram of piece ``kind`` of ``variant``: its moves, its promotion, its names, with
    ``words`` drawn on it."""
    variant.piece(kind)  # an unknown kind raises IndexError here, not deep in drawing
    return _piece_png(variant.id, kind, theme, words)


@lru_cache(maxsize=128)
def _piece_png(variant_id: str, kind: int, theme: Theme, words: DiagramWords) -> bytes:
    return to_png(diagram_image(load_variant(variant_id), kind, theme, words))
