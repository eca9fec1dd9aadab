"""Every glyph the renderer draws exists in the font it is drawn with (no missing-glyph boxes)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from PIL import ImageFont

from render import board, cheatsheet, diagram, fonts, sprites
from render.board import render_board
from render.cheatsheet import render_cheatsheet
from render.diagram import render_piece
from render.options import BoardOptions, Labels
from rules import Position, load_variant
from tests.render.conftest import random_game


@cache
def covered(path: str) -> frozenset[str]:
    return frozenset(chr(c) for c in TTFont(path).getBestCmap())


@pytest.fixture
def drawn_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    """(text, font file) of every text a font draws (``getmask2``: ``ImageDraw.text`` and
    ``draw_text`` alike), with the caches emptied first."""
    clear_caches()
    calls: list[tuple[str, str]] = []
    original = ImageFont.FreeTypeFont.getmask2

    def spy(self: ImageFont.FreeTypeFont, text: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append((str(text), str(self.path)))
        return original(self, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", spy)
    yield calls
    clear_caches()


def clear_caches() -> None:
    sprites.piece_sprite.cache_clear()
    board.empty_board.cache_clear()
    board.board_palette.cache_clear()
    diagram._piece_png.cache_clear()
    cheatsheet._cheatsheet_png.cache_clear()
    fonts.text_cache.cache_clear()


@pytest.mark.slow
def test_no_drawn_character_is_missing_from_its_font(drawn_text: list[tuple[str, str]]) -> None:
    check = Position.from_sfen(load_variant("shogi"), "4k4/4G4/9/9/9/9/9/9/4K4 w RB2G3P2p 1")
    positions = [check, random_game("wa-drops", 60, seed=11), Position.start(load_variant("wa"))]
    for pos in positions:
        for style in ("kanji", "international"):
            options = BoardOptions(style=style, sente_name="Ōta Алёна", gote_name="🐉 さくら")  # type: ignore[arg-type]
            render_board(pos, options)
    russian = Labels(
        sente="Сэнтэ", gote="Готэ", move="Ход {n}", to_move="Ходит {name}", check="Шах!"
    )
    render_board(check, BoardOptions(labels=russian))
    over = BoardOptions(labels=russian, result="Мат: Алёна побеждает", coordinates="japanese")
    render_board(check, over)
    render_board(Position.start(load_variant("wa")), BoardOptions(coordinates="japanese"))
    for vid in ("shogi", "wa"):
        variant = load_variant(vid)
        render_cheatsheet(variant)
        for piece in variant.pieces:
            render_piece(variant, piece.kind)
    assert drawn_text
    fonts = {path for _, path in drawn_text}
    assert len(fonts) == 3
    missing = {
        (ch, path.rsplit("/", 1)[-1])
        for text, path in drawn_text
        for ch in text
        if ch not in covered(path)
    }
    assert not missing
