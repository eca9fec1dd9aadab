"""Piece sprites (koma with kanji, or Western codes with direction marks), drawn once and cached."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from render.fonts import Face, font
from render.theme import RGB, Theme, mix
from rules import SENTE, PieceType, Variant, load_variant

SS = 4  # supersampling factor: sprites are drawn large, then box-averaged down
# How much of a pixel a kanji's ink may cover: none, a quarter, a half, three quarters, all.
# The font's 256 levels of anti-aliasing, rounded to these, look the same at any zoom short
# of counting pixels and leave a PNG a third fewer colours to spell out around every stroke
# (boards ~10% smaller, measured); 4 levels show jagged diagonals when zoomed.
INK_LEVELS = 5
Point = tuple[float, float]
Box4 = tuple[float, float, float, float]  # x, y, width, height

# The koma outline inside its box, as fractions: apex, shoulders, base corners.
KOMA_SHAPE: tuple[Point, ...] = ((0.5, 0.0), (0.87, 0.17), (0.985, 1.0), (0.015, 1.0), (0.13, 0.17))


class Mark(Enum):
    """How the international style marks one direction of movement."""

    STEP = "step"  # a dot
    SLIDE = "slide"  # a bar
    RANGE = "range"  # a number: a slide of limited range
    JUMP = "jump"  # a ring
    STEP_JUMP = "step+jump"  # a dot in a ring


@dataclass(frozen=True)
class DirectionMark:
    direction: tuple[int, int]  # (dx, dy) signs, or an oblique vector for knight-like leaps
    mark: Mark
    limit: int = 0  # the range of a RANGE mark


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def direction_marks(piece: PieceType) -> tuple[DirectionMark, ...]:
    """The marks that show ``piece``'s moves on an international-style sprite."""
    steps: set[tuple[int, int]] = set()
    jumps: set[tuple[int, int]] = set()
    oblique: set[tuple[int, int]] = set()
    rides: dict[tuple[int, int], int] = {}
    for dx, dy in piece.moves.leaps:
        if dx and dy and abs(dx) != abs(dy):
            oblique.add((dx, dy))
        elif max(abs(dx), abs(dy)) == 1:
            steps.add((dx, dy))
        else:
            jumps.add((_sign(dx), _sign(dy)))
    for (dx, dy), limit in piece.moves.rides:
        if max(abs(dx), abs(dy)) != 1:
            (oblique if dx and dy and abs(dx) != abs(dy) else jumps).add((dx, dy))
        elif limit == 1:
            steps.add((dx, dy))
        else:
            rides[(dx, dy)] = limit
    out: list[DirectionMark] = []
    for d in sorted(steps | jumps | set(rides)):
        if d in rides:
            limit = rides[d]
            out.append(
                DirectionMark(d, Mark.SLIDE) if limit == 0 else DirectionMark(d, Mark.RANGE, limit)
            )
        elif d in steps and d in jumps:
            out.append(DirectionMark(d, Mark.STEP_JUMP))
        elif d in steps:
            out.append(DirectionMark(d, Mark.STEP))
        else:
            out.append(DirectionMark(d, Mark.JUMP))
    out.extend(DirectionMark(d, Mark.JUMP) for d in sorted(oblique))
    return tuple(out)


def piece_scale(variant: Variant, piece: PieceType) -> float:
    """Relative size of a koma: kings largest, pawns smallest, as on a real set."""
    base = variant.piece(piece.base)
    if base.royal:
        return 1.0
    power = len(base.moves.leaps) + sum(3 if n == 0 else n for _, n in base.moves.rides)
    return 0.87 + 0.11 * min(1.0, power / 12)


def glyph_text(piece: PieceType, owner: int) -> str:
    """The characters written on ``piece`` when ``owner`` holds it."""
    return piece.kanji if owner == SENTE else piece.kanji_gote


def draw_centered(
    draw: ImageDraw.ImageDraw,
    text: str,
    face: Face,
    center: Point,
    height: float,
    max_width: float,
    fill: RGB | int,
    em_ratio: float = 0.92,
) -> None:
    """Draw ``text`` with its ink centred on ``center``: ``height`` is the ink height of a full
    glyph (``em_ratio`` of the em), shrunk to fit ``max_width``."""
    px = max(4, round(height / em_ratio))
    f = font(face, px)
    left, top, right, bottom = f.getbbox(text)
    if right - left > max_width > 0:
        px = max(4, int(px * max_width / (right - left)))
        f = font(face, px)
        left, top, right, bottom = f.getbbox(text)
    draw.text(
        (center[0] - (left + right) / 2, center[1] - (top + bottom) / 2), text, font=f, fill=fill
    )


def _koma(size: tuple[int, int], scale: float, theme: Theme) -> tuple[Image.Image, Box4]:
    """A blank koma at SS times ``size`` and the box of its body."""
    w, h = size[0] * SS, size[1] * SS
    pw, ph = w * 0.88 * scale, h * 0.9 * scale
    x0, y0 = (w - pw) / 2, (h - ph) / 2 + h * 0.015
    pts = [(x0 + fx * pw, y0 + fy * ph) for fx, fy in KOMA_SHAPE]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    shadow = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    off = max(1.0, 0.035 * pw)
    ImageDraw.Draw(shadow).polygon([(x + off * 0.6, y + off) for x, y in pts], fill=(0, 0, 0, 90))
    img = Image.alpha_composite(img, shadow)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(pts, fill=255)
    gradient = Image.linear_gradient("L").resize((w, h))
    light = Image.new("RGBA", (w, h), (*theme.piece_face, 255))
    dark = Image.new("RGBA", (w, h), (*theme.piece_face_dark, 255))
    face = Image.composite(dark, light, gradient)
    img.paste(face, (0, 0), mask)
    draw = ImageDraw.Draw(img)
    draw.line(
        [*pts, pts[0]], fill=(*theme.piece_edge, 255), width=max(SS, round(pw / 42)), joint="curve"
    )
    return img, (x0, y0, pw, ph)


def _scaled(body: Box4, k: float) -> Box4:
    return body[0] * k, body[1] * k, body[2] * k, body[3] * k


def ink_ramp(ink: RGB, theme: Theme) -> tuple[RGB, ...]:
    """The colours of a kanji's partly covered pixels, lightest first: ``ink`` at each level
    between none and all (``INK_LEVELS``) over the middle tone of the piece's face.  Board
    palettes hold them exactly."""
    face = mix(theme.piece_face, theme.piece_face_dark, 0.5)
    return tuple(mix(face, ink, i / (INK_LEVELS - 1)) for i in range(1, INK_LEVELS - 1))


def _kanji_coverage(draw: ImageDraw.ImageDraw, text: str, body: Box4) -> None:
    """``text`` drawn in full coverage (255) on a mask: one character large, or a column."""
    x0, y0, pw, ph = body
    cx = x0 + pw / 2
    if len(text) == 1:
        draw_centered(draw, text, Face.KOMA, (cx, y0 + ph * 0.6), ph * 0.54, pw * 0.8, 255)
        return
    slot = 0.79 / len(text)
    for i, ch in enumerate(text):
        cy = y0 + ph * (0.2 + slot * (i + 0.5))
        draw_centered(draw, ch, Face.KOMA, (cx, cy), ph * slot * 0.93, pw * 0.8, 255)


def _kanji(img: Image.Image, text: str, body: Box4, color: RGB, theme: Theme) -> None:
    """``text`` in ``color`` on the piece: pixels the ink covers in part get the colour of
    their level in ``ink_ramp`` (a level's colour whatever the face's shade beneath), those
    it covers nearly all get ``color``, those it barely touches are left alone."""
    coverage = Image.new("L", img.size, 0)
    _kanji_coverage(ImageDraw.Draw(coverage), text, body)
    level = [round(v * (INK_LEVELS - 1) / 255) for v in range(256)]
    colors = ((0, 0, 0), *ink_ramp(color, theme), color)
    layer = Image.merge(
        "RGB", [coverage.point([colors[level[v]][c] for v in range(256)]) for c in range(3)]
    )
    img.paste(layer, (0, 0), coverage.point([255 if level[v] else 0 for v in range(256)]))


def _mark_spots(piece: PieceType, body: Box4) -> list[tuple[DirectionMark, Point, float]]:
    """Each direction mark of ``piece`` with its centre and radius inside ``body``."""
    x0, y0, pw, ph = body
    cx, cy = x0 + pw / 2, y0 + ph * 0.58
    rx, ry, r = pw * 0.35, ph * 0.35, pw * 0.062
    out = []
    for dm in direction_marks(piece):
        dx, dy = dm.direction
        if abs(dx) > 1 or abs(dy) > 1:  # knight-like leap: ring toward its oblique direction
            px = cx + _sign(dx) * rx * (0.42 if abs(dy) > abs(dx) else 1.0)
            py = cy - _sign(dy) * ry * (1.1 if abs(dy) > abs(dx) else 0.5)
        else:
            k = (0.86 if dy > 0 else 0.94) if dx and dy else 1.0
            if dm.mark is Mark.SLIDE and not dy:
                k = 1.1  # sideways bars sit outside the code
            px, py = cx + dx * rx * k, cy - dy * ry * k
        out.append((dm, (px, py), r))
    return out


def _international_marks(
    draw: ImageDraw.ImageDraw, piece: PieceType, body: Box4, theme: Theme
) -> None:
    for dm, at, r in _mark_spots(piece, body):
        _mark(draw, dm, at, r, theme.mark)


def _international_text(
    img: Image.Image, piece: PieceType, body: Box4, theme: Theme, turned: bool
) -> None:
    """The code and range numbers, upright even on a turned piece (``turned``: the sprite has
    been rotated, so positions are mirrored through the centre)."""
    draw = ImageDraw.Draw(img)
    w, h = img.size

    def at(p: Point) -> Point:
        return (w - p[0], h - p[1]) if turned else p

    x0, y0, pw, ph = body
    color = theme.promoted_ink if piece.promoted else theme.ink
    center = at((x0 + pw / 2, y0 + ph * 0.58))
    _code(draw, piece.code, center, ph * 0.27, pw * 0.5, color)
    for dm, spot, r in _mark_spots(piece, body):
        if dm.mark is Mark.RANGE:
            draw_centered(
                draw, str(dm.limit), Face.BOLD, at(spot), r * 2.8, r * 3, theme.mark, em_ratio=0.72
            )


def _code(
    draw: ImageDraw.ImageDraw, code: str, center: Point, height: float, width: float, color: RGB
) -> None:
    """A Western code centred on ``center``; a promoted one's ``+`` drawn smaller before it."""
    plus, letters = ("+", code[1:]) if code.startswith("+") else ("", code)
    px = max(4, round(height / 0.74))
    f = font(Face.BOLD, px)
    fp = font(Face.BOLD, max(4, round(px * 0.9)))
    total = f.getlength(letters) + (fp.getlength(plus) if plus else 0)
    if total > width:
        px = max(4, int(px * width / total))
        f, fp = font(Face.BOLD, px), font(Face.BOLD, max(4, round(px * 0.9)))
        total = f.getlength(letters) + (fp.getlength(plus) if plus else 0)
    x = center[0] - total / 2
    _, top, _, bottom = f.getbbox("H")
    y = center[1] - (top + bottom) / 2
    if plus:
        draw.text((x, y + px * 0.03), plus, font=fp, fill=color)
        x += fp.getlength(plus)
    draw.text((x, y), letters, font=f, fill=color)


def _mark(draw: ImageDraw.ImageDraw, dm: DirectionMark, at: Point, r: float, color: RGB) -> None:
    px, py = at
    if dm.mark in (Mark.STEP, Mark.STEP_JUMP):
        rr = r * (0.75 if dm.mark is Mark.STEP_JUMP else 1.0)
        draw.ellipse((px - rr, py - rr, px + rr, py + rr), fill=color)
    if dm.mark in (Mark.JUMP, Mark.STEP_JUMP):
        rr = r * 1.45
        width = max(1, round(r * 0.5))
        draw.ellipse((px - rr, py - rr, px + rr, py + rr), outline=color, width=width)
    if dm.mark is Mark.SLIDE:
        dx, dy = dm.direction
        n = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / n * r * 1.35, -dy / n * r * 1.35
        draw.line((px - ux, py - uy, px + ux, py + uy), fill=color, width=max(1, round(r * 1.1)))
        rr = r * 0.55
        for ex, ey in ((px - ux, py - uy), (px + ux, py + uy)):
            draw.ellipse((ex - rr, ey - rr, ex + rr, ey + rr), fill=color)


@lru_cache(maxsize=4096)
def piece_sprite(
    variant_id: str,
    kind: int,
    owner: int,
    upside_down: bool,
    style: str,
    cell: tuple[int, int],
    theme: Theme,
) -> Image.Image:
    """An RGBA sprite the size of ``cell`` with the piece centred; rotated when ``upside_down``."""
    variant = load_variant(variant_id)
    piece = variant.piece(kind)
    big, body = _koma(cell, piece_scale(variant, piece), theme)
    if style == "international":
        _international_marks(ImageDraw.Draw(big), piece, body, theme)
    img = big.resize(cell, Image.Resampling.BOX)  # a plain average: no ringing, fewer colours
    body = _scaled(body, 1 / SS)
    if style == "international":
        # marks turn with the piece; the code stays upright so it reads at a glance
        if upside_down:
            img = img.transpose(Image.Transpose.ROTATE_180)
        _international_text(img, piece, body, theme, upside_down)
        return img
    color = theme.promoted_ink if piece.promoted else theme.ink
    _kanji(img, glyph_text(piece, owner), body, color, theme)
    return img.transpose(Image.Transpose.ROTATE_180) if upside_down else img


@cache
def disc(diameter: int, color: tuple[int, int, int, int], ring: int = 0) -> Image.Image:
    """An anti-aliased filled disc (or a ring ``ring`` pixels thick) as an RGBA sprite."""
    d = diameter * SS
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    if ring:
        draw.ellipse((0, 0, d - 1, d - 1), outline=color, width=ring * SS)
    else:
        draw.ellipse((0, 0, d - 1, d - 1), fill=color)
    return img.resize((diameter, diameter), Image.Resampling.BOX)
