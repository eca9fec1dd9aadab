"""The leaderboard image: its words are drawable in every language, its names are cut."""

from __future__ import annotations

import io

from PIL import Image

from bot.core import present
from bot.core.commands import VARIANT_CHOICES
from bot.core.messages import LANGUAGES, text
from render.fonts import printable
from render.leaderboard import HEAD_H, PAD, ROW_H, TITLE_H, Entry, render_leaderboard


def test_every_word_it_draws_is_in_the_fonts() -> None:
    for lang in LANGUAGES:
        words = [text(f"leaderboard.head.{k}", lang) for k in ("player", "rating", "games")]
        for variant in VARIANT_CHOICES:
            for where in ("rating.where.here", "rating.where.server"):
                words.append(
                    text(
                        "leaderboard.title", lang, variant=present.variant_name(variant, lang),
                        where=text(where, lang), page=12, pages=345,
                    )
                )  # fmt: skip
        for word in words:
            assert printable(word) == word, (lang, word)


def test_a_page_of_any_names_draws() -> None:
    entries = [
        Entry(1, "Алёна 🐉", "2011", "40"),
        Entry(2, "さくら" * 80, "1999", "12", own=True),
        Entry(3, "\u200b\u0000", "1850?", "3"),
    ]
    data = render_leaderboard("Wa Shogi leaderboard", entries, ("Player", "Rating", "Games"))
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.height == TITLE_H + HEAD_H + 3 * ROW_H + PAD
