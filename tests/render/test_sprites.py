"""Piece sprites: direction marks of the international style, and every piece looks different."""

from __future__ import annotations

from dataclasses import replace

import pytest

from render.board import palette_for
from render.options import BoardOptions
from render.sprites import (
    INK_LEVELS,
    DirectionMark,
    Mark,
    direction_marks,
    ink_ramp,
    piece_scale,
    piece_sprite,
)
from render.theme import DEFAULT_THEME
from rules import GOTE, SENTE, load_variant


def marks(variant_id: str, code: str) -> dict[tuple[int, int], DirectionMark]:
    piece = load_variant(variant_id).by_code[code]
    return {m.direction: m for m in direction_marks(piece)}


def test_cloud_eagle_marks() -> None:
    m = marks("wa", "CE")  # vRfF3bFsW
    assert m[(0, 1)].mark is Mark.SLIDE and m[(0, -1)].mark is Mark.SLIDE
    assert m[(1, 1)] == DirectionMark((1, 1), Mark.RANGE, 3)
    assert m[(-1, 1)] == DirectionMark((-1, 1), Mark.RANGE, 3)
    assert m[(1, -1)].mark is Mark.STEP and m[(1, 0)].mark is Mark.STEP
    assert len(m) == 8


def test_fox_steps_and_jumps_in_six_directions() -> None:
    m = marks("wa", "TF")  # FAvWvD
    assert set(m) == {(1, 1), (-1, 1), (1, -1), (-1, -1), (0, 1), (0, -1)}
    assert {x.mark for x in m.values()} == {Mark.STEP_JUMP}


def test_liberated_horse_and_knights() -> None:
    m = marks("wa", "LH")  # fRbW2
    assert m[(0, 1)].mark is Mark.SLIDE
    assert m[(0, -1)] == DirectionMark((0, -1), Mark.RANGE, 2)
    heavenly = marks("wa", "+LH")  # vN
    assert set(heavenly) == {(1, 2), (-1, 2), (1, -2), (-1, -2)}
    assert {x.mark for x in heavenly.values()} == {Mark.JUMP}
    assert set(marks("shogi", "N")) == {(1, 2), (-1, 2)}


def test_kings_are_the_biggest_koma() -> None:
    for vid in ("shogi", "wa"):
        v = load_variant(vid)
        scales = {p.code: piece_scale(v, p) for p in v.pieces}
        king = v.piece(v.royal_kind).code
        assert scales[king] == max(scales.values())
        assert all(0.8 < s <= 1.0 for s in scales.values())


@pytest.mark.parametrize("style", ["kanji", "international"])
@pytest.mark.parametrize("variant_id", ["shogi", "wa"])
def test_every_piece_looks_different(variant_id: str, style: str) -> None:
    """Readers of either style can tell every piece (and its promoted form) apart."""
    v = load_variant(variant_id)
    cell = (64, 70)
    for owner, turned in ((SENTE, False), (GOTE, True)):
        images = {
            p.code: piece_sprite(v.id, p.kind, owner, turned, style, cell, DEFAULT_THEME).tobytes()
            for p in v.pieces
        }
        assert len(set(images.values())) == len(images)


def test_gote_sprite_is_turned() -> None:
    v = load_variant("shogi")
    gold = v.by_code["G"].kind
    up = piece_sprite(v.id, gold, SENTE, False, "kanji", (64, 70), DEFAULT_THEME)
    down = piece_sprite(v.id, gold, GOTE, True, "kanji", (64, 70), DEFAULT_THEME)
    assert up.size == down.size == (64, 70)
    assert up.rotate(180).tobytes() == down.tobytes()


@pytest.mark.parametrize("code", ["K", "+R", "P"])
def test_kanji_edges_come_in_a_few_levels_the_palette_holds(code: str) -> None:
    """A kanji is anti-aliased (every level between face and ink shows: smooth edges, not
    jagged ones) in ``INK_LEVELS`` levels only, whose colours board palettes hold exactly
    (crisp edges after palette reduction: no stray colour from elsewhere on the board)."""
    v = load_variant("shogi")
    piece = v.by_code[code]
    flat = replace(DEFAULT_THEME, piece_face_dark=DEFAULT_THEME.piece_face)
    ink = flat.promoted_ink if piece.promoted else flat.ink
    levels = {*ink_ramp(ink, flat), ink}
    assert len(levels) == INK_LEVELS - 1
    w, h = 67, 73
    sprite = piece_sprite(v.id, piece.kind, SENTE, False, "kanji", (w, h), flat)
    inside = sprite.convert("RGB").crop((w // 4, h * 3 // 10, w * 3 // 4, h * 9 // 10))
    colors = {rgb for _, rgb in inside.getcolors(w * h) or []}
    assert colors - {flat.piece_face} == levels
    palette = palette_for(v, BoardOptions(theme=DEFAULT_THEME)).getpalette() or []
    held = {tuple(palette[i : i + 3]) for i in range(0, len(palette), 3)}
    assert {*ink_ramp(DEFAULT_THEME.ink, DEFAULT_THEME), DEFAULT_THEME.ink} <= held
    assert set(ink_ramp(DEFAULT_THEME.promoted_ink, DEFAULT_THEME)) <= held
