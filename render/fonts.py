"""The shipped fonts (``data/fonts/``), loaded once per role and pixel size."""

from __future__ import annotations

import math
from enum import Enum
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageFont

from render.bytecache import byte_bounded_cache
from render.charset import label_chars
from rules.variant import data_dir

FontT = ImageFont.FreeTypeFont


class Face(Enum):
    """Which font a text is drawn in."""

    KOMA = "KomabotSerif-Bold.otf"  # kanji on pieces and rank labels
    LABEL = "KomabotSans-Regular.otf"  # names, legends
    BOLD = "KomabotSans-Bold.otf"  # header, Western codes, counts


def font_dir() -> Path:
    return data_dir() / "fonts"


def font_path(face: Face) -> Path:
    return font_dir() / face.value


@cache
def font(face: Face, px: int) -> FontT:
    """``face`` at ``px`` pixels (at least 4)."""
    return ImageFont.truetype(
        str(font_path(face)), max(4, px), layout_engine=ImageFont.Layout.BASIC
    )


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    face: Face,
    px: int,
    fill: tuple[int, ...],
    anchor: str = "la",
) -> None:
    """``ImageDraw.text`` with ``font(face, px)``, pixel for pixel, from a cache of drawn
    texts: a board draws the same names and captions again and again, and laying out and
    rasterising them was a tenth of drawing a board."""
    x, y = xy
    fx, fy = math.modf(x)[0], math.modf(y)[0]
    pixels, size, (dx, dy) = _text_mask(text, face, px, anchor, fx, fy)
    mask = Image.frombuffer("L", size, pixels, "raw", "L", 0, 1)
    img.paste(fill, (int(x) + dx, int(y) + dy), mask)


TEXT_CACHE_BYTES = 8 << 20
"""Pixels of drawn texts kept (about 2,000 names and captions of 1-7 KB).  A board's names and
captions are drawn only when the part of the header or strip that shows them is not kept
drawn already (``render.board.part_tile``, which holds them with the wood around): over the
4,000 boards of 1,000 games in turn (``bench/service.py``), with those parts kept, 6,050 texts
were drawn and 270 found here.  A text drawn afresh costs ~0.35 ms; the other images (piece
diagrams, leaderboards) draw the same few words again and again."""
_ENTRY_OVERHEAD = 200  # bytes of the tuples around a mask's pixels

Mask = tuple[bytes, tuple[int, int], tuple[int, int]]
"""A drawn text: its coverage (8-bit, row by row), the size, and where its top left lies from
the whole-pixel position.  Plain values, which the garbage collector does not walk."""


def _mask_bytes(mask: Mask) -> int:
    return len(mask[0]) + _ENTRY_OVERHEAD


@byte_bounded_cache(TEXT_CACHE_BYTES, _mask_bytes)
def _text_mask(text: str, face: Face, px: int, anchor: str, fx: float, fy: float) -> Mask:
    """The coverage of ``text`` drawn at fractional position (fx, fy), and its top left from
    the whole-pixel position: what ``ImageDraw.text`` draws there, asked of the font directly
    (the same call and arguments), without measuring the text first (measuring lays it out
    and loads every glyph once more: a text drawn afresh cost ~0.55 ms with it, ~0.34
    without, measured on 14 characters)."""
    core, offset = font(face, px).getmask2(text, "L", anchor=anchor, start=(fx, fy))
    mask = Image.Image()._new(core)  # Pillow's own wrapping of what it drew
    return mask.tobytes(), mask.size, offset


text_cache = _text_mask
"""The cache of drawn texts (its ``hits`` and ``misses`` for benchmarks)."""


@cache
def _covered() -> frozenset[str]:
    return frozenset(label_chars())


def printable(text: str, replacement: str = "?") -> str:
    """``text`` with every character the fonts lack replaced (players' names can hold anything)."""
    covered = _covered()
    out = "".join(c if c in covered else replacement for c in text if c.isprintable())
    return out


# No box on an image holds more characters than this (the widest, the header at the largest
# size, holds fewer than 150 of the narrowest): what lies beyond is cut before any other work.
NAME_CHARS = 256


def display_name(name: str, fallback: str) -> str:
    """``name`` as the fonts can draw it, or ``fallback`` when too little of it would show.

    Only the first ``NAME_CHARS`` characters are looked at, so a name of any length costs
    the same (no image box shows more)."""
    shown = printable(name.lstrip()[:NAME_CHARS].rstrip())
    return shown if sum(c.isalnum() for c in shown) >= 1 else fallback


@cache
def _narrowest(face: Face, px: int) -> float:
    """The smallest advance, in pixels, of any character the fonts cover (at least 1)."""
    f = font(face, px)
    return max(1.0, min(f.getlength(c) for c in _covered()))


def max_chars(face: Face, px: int, width: int) -> int:
    """More characters than this cannot fit ``width`` pixels, whatever they are (each printable
    character is at least as wide as the narrowest the fonts cover)."""
    return max(0, int(width / _narrowest(face, px)))


@lru_cache(maxsize=16384)
def text_length(text: str, face: Face, px: int) -> float:
    """``font(face, px).getlength(text)``, kept: a board measures the same captions and names
    again and again (measured by profile: 3% of the time drawing the boards of 1,000 games in
    turn, as bench/service.py plays them)."""
    return font(face, px).getlength(text)


def fit(text: str, face: Face, px: int, width: int) -> str:
    """``text`` shortened with an ellipsis until it is at most ``width`` pixels wide.

    ``text`` is first cut to what could possibly fit (``max_chars``), then the longest prefix
    that fits with the ellipsis is found by bisection: a few measurements of a bounded text,
    whatever the length of ``text``."""
    f = font(face, px)
    limit = max_chars(face, px, width)
    if len(text) <= limit and text_length(text, face, px) <= width:
        return text
    text = text[:limit]
    lo, hi = 0, len(text)  # text[:lo] + "…" fits (or lo is 0); text[:hi + 1] + "…" does not
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid] + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def fit_size(text: str, face: Face, px: int, width: int, smallest: int) -> tuple[str, int]:
    """``text`` and the largest size from ``px`` down to ``smallest`` at which it is at most
    ``width`` pixels wide: a long label is drawn smaller rather than cut.  Only what does not
    fit even at ``smallest`` (a player's very long name) is shortened with an ellipsis."""
    limit = max_chars(face, smallest, width)
    if len(text) <= limit:
        for size in range(px, smallest - 1, -1):
            if text_length(text, face, size) <= width:
                return text, size
    return fit(text, face, smallest, width), smallest
