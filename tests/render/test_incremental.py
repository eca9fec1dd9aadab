"""A board drawn from what the caches hold (compressed bands of earlier boards, squares drawn
on their own as palette tiles, only the rows still to draw in RGB) is pixel for pixel the
board drawn whole (every square on the full picture, then mapped to the palette), over random
games of every variant played in turn, as the bot draws the boards of many games."""

from __future__ import annotations

import dataclasses
import random

import pytest
from PIL import ImageChops

from render import board
from render.board import BAND_CACHE, board_image, render_board
from render.options import BoardOptions
from tests.render.conftest import game_positions
from tests.render.helpers import open_png


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_boards_from_the_caches_are_the_whole_drawing(variant_id: str) -> None:
    BAND_CACHE.clear()
    board.square_tile.cache_clear()
    rng = random.Random(variant_id)
    games = [game_positions(variant_id, 40, seed) for seed in (21, 22, 23)]
    looks = [
        BoardOptions(sente_name="Hanako", gote_name="Алексей"),
        BoardOptions(sente_name="B", gote_name="Ann", perspective="gote", style="international"),
        BoardOptions(sente_name="Hanako", gote_name="Z", coordinates="japanese"),
    ]
    squares = len(games[0][0].board)
    compared = 0
    for ply in range(10, 40, 2):  # the games in turn, a move apart
        for positions, options in zip(games, looks, strict=True):
            if ply >= len(positions):
                continue
            pos = positions[ply]
            if rng.random() < 0.3:  # highlight marks, as /moves draws them
                marks = tuple(rng.sample(range(squares), 4))
                options = dataclasses.replace(options, highlight=marks)
            whole = board_image(pos, options).convert("RGB")
            shown = open_png(render_board(pos, options))
            assert ImageChops.difference(shown, whole).getbbox() is None, (variant_id, ply)
            compared += 1
    assert compared >= 30
    assert BAND_CACHE.hits > 0 and board.square_tile.hits > 0  # the caches were used
