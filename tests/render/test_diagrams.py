"""Piece diagrams, cheat sheets and replays."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.cheatsheet import render_cheatsheet
from render.diagram import DIAGRAM_WIDTH, diagram_image, pair_of, reach, render_piece
from render.options import BoardOptions
from render.replay import FINAL_MS, MOVE_MS, render_replay
from rules import IllegalMoveError, InvalidMoveError, load_variant
from tests.render.conftest import SHOGI_MOVES
from tests.render.helpers import open_png, red_pixels


@pytest.mark.parametrize("variant_id", ["shogi", "wa"])
def test_every_piece_has_a_diagram(variant_id: str) -> None:
    variant = load_variant(variant_id)
    for piece in variant.pieces:
        img = open_png(render_piece(variant, piece.kind))
        assert img.width == DIAGRAM_WIDTH
        assert 300 < img.height < 800


def test_diagram_pairs_piece_and_promotion() -> None:
    wa = load_variant("wa")
    falcon = wa.by_code["FF"]
    assert pair_of(wa, falcon.kind) == (falcon, wa.by_code["+FF"])
    assert pair_of(wa, wa.by_code["+FF"].kind) == (falcon, wa.by_code["+FF"])
    assert pair_of(wa, wa.by_code["CE"].kind) == (wa.by_code["CE"], None)
    assert reach(wa.by_code["CE"]) == 3  # a diagonal slide of up to three
    assert reach(wa.by_code["TF"]) == 2


def test_promoted_half_of_a_diagram_is_red() -> None:
    shogi = load_variant("shogi")
    img = diagram_image(shogi, shogi.by_code["R"].kind)
    left = img.crop((0, 0, img.width // 2, img.height))
    right = img.crop((img.width // 2, 0, img.width, img.height))
    assert red_pixels(left.convert("RGB"), (0, 0, *left.size)) == 0
    assert red_pixels(right.convert("RGB"), (0, 0, *right.size)) > 100


@pytest.mark.parametrize("variant_id", ["shogi", "wa-drops"])
def test_cheatsheet(variant_id: str) -> None:
    variant = load_variant(variant_id)
    img = open_png(render_cheatsheet(variant))
    assert img.width > 1000
    assert red_pixels(img, (0, 0, *img.size)) > 500  # every promoted name and kanji is red


def _frames(data: bytes) -> Image.Image:
    assert data[:6] in (b"GIF87a", b"GIF89a")
    return Image.open(io.BytesIO(data))


def test_replay_has_a_frame_per_move_and_a_long_final_pause() -> None:
    shogi = load_variant("shogi")
    gif = _frames(render_replay(shogi, None, SHOGI_MOVES, options=BoardOptions(size=360)))
    assert gif.n_frames == len(SHOGI_MOVES) + 1
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations[-1] == FINAL_MS
    assert set(durations[1:-1]) == {MOVE_MS}
    assert gif.size[0] == 360


def test_replay_shrinks_to_fit_the_limit() -> None:
    shogi = load_variant("shogi")
    big = render_replay(shogi, None, SHOGI_MOVES, options=BoardOptions(size=720))
    limit = len(big) // 3
    small = render_replay(shogi, None, SHOGI_MOVES, max_bytes=limit)
    assert len(small) <= limit
    assert _frames(small).size[0] < 720


def test_replay_from_a_position_and_bad_moves() -> None:
    shogi = load_variant("shogi")
    sfen = "4k4/9/9/9/9/9/9/9/4K4 b G 1"
    gif = _frames(render_replay(shogi, sfen, ["G*5b"], options=BoardOptions(size=300)))
    assert gif.n_frames == 2
    with pytest.raises(IllegalMoveError, match="move 2"):
        render_replay(shogi, None, ["7g7f", "7g7f"])
    with pytest.raises(InvalidMoveError, match="move 1"):
        render_replay(shogi, None, ["hello"])
