"""Board images: sizes, pieces, highlights and perspective, checked by sampling pixels."""

from __future__ import annotations

import pytest

from render.board import compose_board, render_board
from render.layout import board_layout
from render.options import DEFAULT_SIZE, BoardOptions
from rules import GOTE, SENTE, Position, load_variant
from tests.render.helpers import greenish, open_png, red_pixels


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
@pytest.mark.parametrize("perspective", ["sente", "gote"])
def test_image_size_matches_layout(variant_id: str, perspective: str) -> None:
    variant = load_variant(variant_id)
    options = BoardOptions(perspective=perspective)  # type: ignore[arg-type]
    img = open_png(render_board(Position.start(variant), options))
    lay = board_layout(variant, DEFAULT_SIZE, perspective)
    assert img.size == (DEFAULT_SIZE, lay.height)
    assert lay.grid[2] - lay.grid[0] == variant.files * lay.cell_w
    assert lay.grid[3] - lay.grid[1] == variant.ranks * lay.cell_h


def test_custom_size_scales_the_image() -> None:
    pos = Position.start(load_variant("wa"))
    img = open_png(render_board(pos, BoardOptions(size=480)))
    assert img.width == 480


def test_promoted_pieces_are_red_exactly_where_they_stand(shogi_game: Position) -> None:
    variant = shogi_game.variant
    for perspective in ("sente", "gote"):
        options = BoardOptions(perspective=perspective)  # type: ignore[arg-type]
        img = open_png(render_board(shogi_game, options))
        lay = board_layout(variant, DEFAULT_SIZE, perspective)
        for sq, value in enumerate(shogi_game.board):
            reds = red_pixels(img, lay.square_box(sq))
            if value and variant.piece(abs(value)).promoted:
                assert reds > 40, (perspective, variant.tables.square_names[sq])
            else:
                assert reds == 0, (perspective, variant.tables.square_names[sq])


def test_gote_perspective_turns_the_board_around(shogi_game: Position) -> None:
    horse = shogi_game.variant.tables.parse_square("2c")
    sente = board_layout(shogi_game.variant, DEFAULT_SIZE, "sente")
    gote = board_layout(shogi_game.variant, DEFAULT_SIZE, "gote")
    assert sente.square_box(horse) != gote.square_box(horse)
    last = shogi_game.variant.files * shogi_game.variant.ranks - 1
    assert gote.square_box(last) == sente.square_box(0)
    img = open_png(render_board(shogi_game, BoardOptions(perspective="gote")))
    assert red_pixels(img, gote.square_box(horse)) > 40
    assert red_pixels(img, sente.square_box(horse)) == 0


def test_highlight_dots_sit_on_the_square_centres() -> None:
    pos = Position.start(load_variant("wa"))
    t = pos.variant.tables
    empty = [t.parse_square(s) for s in ("6f", "1g", "11e")]
    options = BoardOptions(highlight=tuple(empty))
    img = open_png(render_board(pos, options))
    plain = open_png(render_board(pos, BoardOptions()))
    lay = board_layout(pos.variant, DEFAULT_SIZE, "sente")
    for sq in empty:
        assert greenish(img.getpixel(lay.square_center(sq))), t.square_names[sq]  # type: ignore[arg-type]
        assert not greenish(plain.getpixel(lay.square_center(sq)))  # type: ignore[arg-type]
    other = t.parse_square("5f")
    assert not greenish(img.getpixel(lay.square_center(other)))  # type: ignore[arg-type]


def test_highlight_on_an_occupied_square_rings_the_piece() -> None:
    pos = Position.start(load_variant("shogi"))
    sq = pos.variant.tables.parse_square("7g")
    img = open_png(render_board(pos, BoardOptions(highlight=(sq,))))
    lay = board_layout(pos.variant, DEFAULT_SIZE, "sente")
    x0, y0, _x1, y1 = lay.square_box(sq)
    ring = [img.getpixel((x, (y0 + y1) // 2)) for x in range(x0, x0 + lay.cell_w // 6)]
    assert any(greenish(p) for p in ring)  # type: ignore[arg-type]


def _corner(img_bytes: bytes, variant_id: str, sq: int, top: bool = True) -> tuple[int, ...]:
    """A pixel near a corner of ``sq`` that a piece does not cover (an upright koma leaves
    its top corners free, an upside-down one its bottom corners)."""
    img = open_png(img_bytes)
    lay = board_layout(load_variant(variant_id), DEFAULT_SIZE, "sente")
    x0, y0, _, y1 = lay.square_box(sq)
    inset = max(5, lay.cell_w // 10)
    return img.getpixel((x0 + inset, y0 + inset if top else y1 - inset))  # type: ignore[return-value]


def test_last_move_squares_are_tinted(shogi_game: Position) -> None:
    last = shogi_game.last_move
    assert last is not None
    shown = render_board(shogi_game, BoardOptions())
    hidden = render_board(shogi_game, BoardOptions(show_last_move=False))
    for sq in (last.from_sq, last.to_sq):
        lit, plain = _corner(shown, "shogi", sq), _corner(hidden, "shogi", sq)
        assert lit[2] < plain[2] - 8  # yellower: less blue
    untouched = shogi_game.variant.tables.parse_square("5e")
    assert _corner(shown, "shogi", untouched) == _corner(hidden, "shogi", untouched)


def test_a_drop_tints_only_its_square() -> None:
    variant = load_variant("shogi")
    pos = Position.from_sfen(variant, "4k4/9/9/9/9/9/9/9/4K4 b G 1")
    pos.push_usi("G*5e")
    shown = render_board(pos, BoardOptions())
    hidden = render_board(pos, BoardOptions(show_last_move=False))
    assert open_png(shown).size == open_png(hidden).size
    lay = board_layout(variant, DEFAULT_SIZE, "sente")
    a, b = open_png(shown), open_png(hidden)
    changed = [
        sq
        for sq in range(81)
        if a.crop(lay.square_box(sq)).tobytes() != b.crop(lay.square_box(sq)).tobytes()
    ]
    assert changed == [variant.tables.parse_square("5e")]


def test_highlight_off_the_board_is_refused() -> None:
    pos = Position.start(load_variant("shogi"))
    with pytest.raises(ValueError, match="off this 9x9 board"):
        render_board(pos, BoardOptions(highlight=(81,)))


def test_king_in_check_is_marked() -> None:
    variant = load_variant("shogi")
    pos = Position.from_sfen(variant, "4k4/4G4/9/9/9/9/9/9/4K4 w - 1")
    assert pos.is_check()
    king = pos.kings[GOTE]
    checked = _corner(render_board(pos), "shogi", king, top=False)
    calm = Position.from_sfen(variant, "4k4/9/9/4G4/9/9/9/9/4K4 w - 1")
    assert not calm.is_check()
    plain = _corner(render_board(calm), "shogi", king, top=False)
    assert checked[0] >= plain[0] and checked[1] < plain[1] - 20


def test_hands_are_drawn_with_counts() -> None:
    variant = load_variant("shogi")
    empty = Position.from_sfen(variant, "4k4/9/9/9/9/9/9/9/4K4 b - 1")
    full = Position.from_sfen(variant, "4k4/9/9/9/9/9/9/9/4K4 b RB2G3P2p 1")
    lay = board_layout(variant, DEFAULT_SIZE, "sente")
    a, b = open_png(render_board(empty)), open_png(render_board(full))
    for color in (SENTE, GOTE):
        box = lay.strip_of(color)
        assert a.crop(box).tobytes() != b.crop(box).tobytes()
    board_area = lay.wood
    assert a.crop(board_area).tobytes() == b.crop(board_area).tobytes()


def test_wa_without_drops_has_no_komadai_but_names() -> None:
    pos = Position.start(load_variant("wa"))
    img = compose_board(pos, BoardOptions(sente_name="Alice", gote_name="Bob"))
    lay = board_layout(pos.variant, DEFAULT_SIZE, "sente")
    assert lay.bottom_strip[3] - lay.bottom_strip[1] < lay.cell_h
    assert img.size[1] == lay.height


def test_names_with_unknown_characters_render() -> None:
    pos = Position.start(load_variant("shogi"))
    data = render_board(pos, BoardOptions(sente_name="🐉" * 50, gote_name="Алёна"))
    assert open_png(data).width == DEFAULT_SIZE


@pytest.mark.parametrize("variant_id", ["shogi", "wa-drops"])
@pytest.mark.parametrize("style", ["kanji", "international"])
def test_default_midgame_png_is_small(variant_id: str, style: str, wa_game: Position) -> None:
    pos = wa_game if variant_id == "wa-drops" else Position.start(load_variant("shogi"))
    assert len(render_board(pos, BoardOptions(style=style))) < 60_000  # type: ignore[arg-type]


def test_styles_differ_and_repeat_identically(wa_game: Position) -> None:
    kanji = render_board(wa_game, BoardOptions())
    assert kanji == render_board(wa_game, BoardOptions())
    assert kanji != render_board(wa_game, BoardOptions(style="international"))


@pytest.mark.parametrize(
    "kwargs", [{"perspective": "north"}, {"style": "emoji"}, {"size": 10}, {"size": 100_000}]
)
def test_bad_options_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        BoardOptions(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("variant_id", "lines"), [("shogi", (3, 6)), ("wa", (3, 8))])
def test_star_points_mark_the_zone_lines(variant_id: str, lines: tuple[int, int]) -> None:
    variant = load_variant(variant_id)
    lay = board_layout(variant, DEFAULT_SIZE, "sente")
    expected = {
        (lay.grid[0] + x * lay.cell_w, lay.grid[1] + y * lay.cell_h) for x in lines for y in lines
    }
    assert set(lay.star_points(variant.zone_depth)) == expected
    img = open_png(render_board(Position.from_sfen(variant, _kings_only(variant_id))))
    d = max(2, int(lay.cell_w * 0.065 * 0.65))  # inside the dot, off the grid lines
    for x, y in expected:
        assert sum(img.getpixel((x + d, y + d))) < 250  # type: ignore[arg-type]
    x, y = lay.grid[0] + lay.cell_w, lay.grid[1] + lay.cell_h  # a plain crossing: wood there
    assert sum(img.getpixel((x + d, y + d))) > 400  # type: ignore[arg-type]


def _kings_only(variant_id: str) -> str:
    if variant_id == "shogi":
        return "4k4/9/9/9/9/9/9/9/4K4 b - 1"
    return "5k5/11/11/11/11/11/11/11/11/11/5K5 b - 1"
