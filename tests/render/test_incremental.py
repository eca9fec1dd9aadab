"""A board drawn from what the caches hold (compressed bands of earlier boards, squares and
the header's and strips' parts drawn on their own as palette tiles) is pixel for pixel the
board drawn whole (every square, the header and the strips on the full picture, then mapped
to the palette), over random games of every variant played in turn, as the bot draws the
boards of many games; and no part of a header or strip draws outside its own box."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from PIL import ImageChops

from render import board
from render.board import (
    BAND_CACHE,
    _header_parts,
    _strip_parts,
    _words,
    board_image,
    render_board,
)
from render.layout import board_layout
from render.options import MAX_SIZE, MIN_SIZE, BoardOptions, Labels
from rules import GOTE, SENTE
from tests.render.conftest import game_positions
from tests.render.helpers import open_png


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_boards_from_the_caches_are_the_whole_drawing(variant_id: str) -> None:
    BAND_CACHE.clear()
    board.square_tile.cache_clear()
    board.part_tile.cache_clear()
    rng = random.Random(variant_id)
    games = [game_positions(variant_id, 40, seed) for seed in (21, 22, 23, 24, 25, 26)]
    russian = Labels(
        sente="Сэнтэ", gote="Готэ", move="Ход {n}", to_move="Ходит {name}", check="Шах!"
    )
    looks = [
        BoardOptions(sente_name="Hanako", gote_name="Алексей"),
        BoardOptions(sente_name="B", gote_name="Ann", perspective="gote", style="international"),
        BoardOptions(sente_name="Hanako", gote_name="Z", coordinates="japanese"),
        # long names (drawn smaller, then cut), another size, the words of another language
        BoardOptions(sente_name="Wojciech " * 9, gote_name="jjjj" * 30, size=MIN_SIZE),
        BoardOptions(sente_name="", gote_name="🐉", labels=russian, size=1001),
        # a replay's frames: the move just played in the header; a finished game; no header
        BoardOptions(
            sente_name="Ōta", gote_name="Alëna", last_move_text="☗P-7f", result="Sente wins"
        ),
    ]
    looks += [replace(looks[0], show_header=False, size=MAX_SIZE)]
    games += games[:1]
    squares = len(games[0][0].board)
    compared = 0
    for ply in range(10, 40, 2):  # the games in turn, a move apart
        for positions, options in zip(games, looks, strict=True):
            if ply >= len(positions):
                continue
            pos = positions[ply]
            if rng.random() < 0.3:  # highlight marks, as /moves draws them
                marks = tuple(rng.sample(range(squares), 4))
                options = replace(options, highlight=marks)
            whole = board_image(pos, options).convert("RGB")
            shown = open_png(render_board(pos, options))
            assert ImageChops.difference(shown, whole).getbbox() is None, (variant_id, ply)
            compared += 1
    assert compared >= 90
    assert BAND_CACHE.hits > 0 and board.square_tile.hits > 0  # the caches were used
    assert board.part_tile.hits > 0


@pytest.mark.parametrize("variant_id", ["shogi", "wa-drops"])
def test_no_part_draws_outside_its_box(variant_id: str) -> None:
    """Each part of the header and strips, drawn alone on the empty board, changes pixels of
    its own rows and columns only (what lets ``render_board`` paste them side by side)."""
    names = ["W", "Wojciech " * 9, "jjjj" * 30, "Ωg", "Алексей", "ÿ", "🐉"]
    positions = game_positions(variant_id, 60, 31)[::6]
    for size in (MIN_SIZE, 720, 1001):
        for i, pos in enumerate(positions):
            options = BoardOptions(
                sente_name=names[i % len(names)],
                gote_name=names[(i + 3) % len(names)],
                size=size,
                result="Gote wins by resignation after a long fight" if i % 4 == 3 else "",
            )
            lay = board_layout(pos.variant, size, options.perspective, options.show_header)
            empty = board.empty_board(
                pos.variant.id, size, "sente", True, options.coordinates, options.theme
            )
            names, caption = _words(pos, options)
            parts = _header_parts(pos, lay, caption)
            parts += [p for c in (SENTE, GOTE) for p in _strip_parts(pos, lay, c, names, caption)]
            for part in parts:
                img = empty.copy()
                part.draw(img, lay, pos.variant, options.style, options.theme)
                (r0, r1), (c0, c1) = part.rows(lay), part.columns(lay)
                changed = ImageChops.difference(img, empty).getbbox()
                assert changed is not None, part  # every part draws something
                x0, y0, x1, y1 = changed
                assert c0 <= x0 and x1 <= c1 and r0 <= y0 and y1 <= r1, (part, changed, size)
