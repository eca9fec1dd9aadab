"""The shipped fonts cover every character the variants and the renderer use."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw

from render.charset import RENDER_SYMBOLS, label_chars, required_chars, variant_chars
from render.fonts import Face, display_name, draw_text, font, font_dir, font_path, printable


def cmap(face: Face) -> set[str]:
    return {chr(c) for c in TTFont(str(font_path(face))).getBestCmap()}


@pytest.mark.parametrize("face", list(Face))
def test_every_variant_character_is_in_the_shipped_font(face: Face) -> None:
    missing = variant_chars() - cmap(face)
    assert not missing, f"{face.value} lacks {''.join(sorted(missing))}"


@pytest.mark.parametrize("face", list(Face))
def test_renderer_symbols_are_in_the_shipped_font(face: Face) -> None:
    assert not (required_chars() - cmap(face))


def test_label_fonts_cover_kana_for_names() -> None:
    for face in (Face.LABEL, Face.BOLD):
        assert not (label_chars() - cmap(face))


def test_variant_chars_include_wa_kanji_and_russian() -> None:
    chars = variant_chars()
    assert {"靏", "鷲", "萑", "歬", "ё", "Ж".lower()} <= chars
    assert {"☗", "☖", "○", "☆"} <= set(RENDER_SYMBOLS)


def test_fonts_are_small_and_licensed() -> None:
    folder = font_dir()
    total = sum(p.stat().st_size for p in folder.glob("*.otf"))
    assert 0 < total < 400_000
    licence = (folder / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert (folder / "README.md").exists()


def test_printable_replaces_what_the_fonts_lack() -> None:
    assert printable("Алёна 🐉 Ōta") == "Алёна ? Ōta"
    assert printable("さくら") == "さくら"


def test_font_files_exist() -> None:
    for face in Face:
        assert Path(font_path(face)).is_file()


def test_display_name_falls_back_when_nothing_would_show() -> None:
    assert display_name("🐉🐉", "Sente") == "Sente"
    assert display_name("  ", "Gote") == "Gote"
    assert display_name("Ōta 🐉", "Sente") == "Ōta ?"


def test_cached_text_draws_what_pillow_draws_pixel_for_pixel() -> None:
    """``draw_text`` (drawn once, pasted from a cache) is ``ImageDraw.text`` exactly: at
    whole and fractional positions, every anchor the renderer uses, at the image's edges."""
    rng = random.Random(7)
    texts = ("Hanako to move", "Move 70", "Алексей", "Check!", "王手", "g", "Sente wins")
    for _ in range(150):
        plain = Image.new("RGB", (300, 90), (200, 150, 100))
        cached = plain.copy()
        text, face = rng.choice(texts), rng.choice(list(Face))
        px, anchor = rng.randint(8, 40), rng.choice(("la", "lm", "rm", "ls", "mm"))
        xy = (rng.choice((0, 7, 150.5, 299, 33.25)), rng.choice((0, 5, 45.5, 89, 60.75)))
        fill = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        ImageDraw.Draw(plain).text(xy, text, font=font(face, px), fill=fill, anchor=anchor)
        draw_text(cached, xy, text, face, px, fill, anchor)
        assert cached.tobytes() == plain.tobytes(), (text, face, px, anchor, xy)
