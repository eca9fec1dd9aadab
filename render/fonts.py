"""The shipped fonts (``data/fonts/``), loaded once per role and pixel size."""

from __future__ import annotations

from enum import Enum
from functools import cache
from pathlib import Path

from PIL import ImageFont

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


@cache
def _covered() -> frozenset[str]:
    return frozenset(label_chars())


def printable(text: str, replacement: str = "?") -> str:
    """``text`` with every character the fonts lack replaced (players' names can hold anything)."""
    covered = _covered()
    out = "".join(c if c in covered else replacement for c in text if c.isprintable())
    return out


def display_name(name: str, fallback: str) -> str:
    """``name`` as the fonts can draw it, or ``fallback`` when too little of it would show."""
    shown = printable(name.strip())
    return shown if sum(c.isalnum() for c in shown) >= 1 else fallback


def fit(text: str, face: Face, px: int, width: int) -> str:
    """``text`` shortened with an ellipsis until it is at most ``width`` pixels wide."""
    f = font(face, px)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
