"""Board images: ``render_board(pos, options) -> PNG bytes``."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Hashable, Iterable
from functools import lru_cache
from itertools import product

from PIL import Image, ImageDraw

from render.bytecache import byte_bounded_cache
from render.captions import Caption, coordinate_labels, header_caption
from render.fonts import (
    Face,
    display_name,
    font,
    text_cache,
)
from render.hands import hand_items, tray_box
from render.layout import BoardLayout, Box, board_layout
from render.options import (
    DEFAULT_SIZE,
    PERSPECTIVES,
    STYLES,
    BoardOptions,
    Coordinates,
    Perspective,
    Style,
)
from render.parts import Part, header_parts, strip_parts
from render.png import Band, BandCache, encode_png
from render.sprites import disc, draw_centered, ink_ramp, piece_sprite
from render.theme import RGB, Theme
from render.woodgrain import wood
from rules import GOTE, SENTE, Move, Position, Variant, load_variant

# Enough for wood, ink, red and highlights; fewer colours, smaller PNGs: 128 rather than 160
# makes boards ~2.5% smaller and looks the same (mean error against the RGB drawing stays
# ~0.7-0.9 of 255, measured on bench/render.py's games).
PALETTE_COLORS = 128
# Deflate effort for board PNGs (zlib-ng, see render.png), chosen by measurement
# (bench/render.py, same run): zlib-ng at 6 draws a board never seen before in 6.0-7.5 ms
# against 8.4-10.1 for zlib at 6, warm p50 2.1-3.6 against 2.8-4.3, for 1-2% more bytes
# (shogi kanji 30.3 KB, wa-drops kanji 37.5 KB).  On the bands that bench/service.py's moves
# draw (ranks, strips, headers; CPU time, the same bands in turn), 5 takes 148-150 us a band
# against 197-231 at 6 (a quarter of the deflating saved, about 0.25 ms a board) for 1.3%
# more bytes (2,562 against 2,529 a band); 4 takes 126 us for 7.7% more.
PNG_COMPRESS_LEVEL = 5
# The header's and the strips' bands (mostly the plain table, a few words, a komadai) at 3
# instead: measured on 60 bands of each kind from three variants (bench/render.py's games),
# zlib-ng at 5 and 3 took 150 and 70 us a header for 1,213 and 1,257 bytes, 162 and 84 us a
# strip for 1,237 and 1,392; a rank of pieces at 3, 174 us for 3,300 bytes against 278 for
# 2,915, grows too much (a board has nine to eleven).  A board draws its header and one or two
# strips every move: about 0.2 ms less for 1.8% more bytes (bench/render.py's medians).
PLAIN_BAND_LEVEL = 3


def _tile(size: tuple[int, int], color: tuple[int, int, int, int]) -> Image.Image:
    return Image.new("RGBA", size, color)


@lru_cache(maxsize=64)
def empty_board(
    variant_id: str,
    size: int,
    perspective: str,
    show_header: bool,
    coordinates: Coordinates,
    theme: Theme,
) -> Image.Image:
    """The image without pieces, names or highlights: table, board, grid, coordinates, trays."""
    variant = load_variant(variant_id)
    lay = board_layout(variant, size, perspective, show_header)
    img = Image.new("RGB", (lay.width, lay.height), theme.background)
    draw = ImageDraw.Draw(img)
    # the board, with a soft shadow and a darker rim
    x0, y0, x1, y1 = lay.wood
    sh = max(2, lay.cell_w // 12)
    draw.rectangle((x0 + sh, y0 + sh, x1 + sh, y1 + sh), fill=_shade(theme.background, 0.6))
    img.paste(wood((x1 - x0, y1 - y0), theme.board, theme.board_grain), (x0, y0))
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=theme.frame, width=max(1, lay.cell_w // 28))
    _grid(draw, lay, variant, theme)
    _coordinates(draw, lay, variant, coordinates, theme)
    if variant.drops.enabled:
        for strip in (lay.top_strip, lay.bottom_strip):
            tx0, ty0, tx1, ty1 = tray_box(lay, strip)
            tray = wood(
                (tx1 - tx0, ty1 - ty0), theme.komadai, theme.komadai_grain, seed=11, vertical=False
            )
            mask = Image.new("L", tray.size, 0)
            radius = max(2, lay.cell_w // 8)
            ImageDraw.Draw(mask).rounded_rectangle(
                (0, 0, tray.width - 1, tray.height - 1), radius, fill=255
            )
            img.paste(tray, (tx0, ty0), mask)
    return img


def _shade(c: RGB, k: float) -> RGB:
    return (round(c[0] * k), round(c[1] * k), round(c[2] * k))


def _grid(draw: ImageDraw.ImageDraw, lay: BoardLayout, variant: Variant, theme: Theme) -> None:
    gx0, gy0, gx1, gy1 = lay.grid
    thin = max(1, round(lay.cell_w / 36))
    for i in range(1, lay.files):
        x = gx0 + i * lay.cell_w
        draw.line((x, gy0, x, gy1), fill=theme.grid, width=thin)
    for j in range(1, lay.ranks):
        y = gy0 + j * lay.cell_h
        draw.line((gx0, y, gx1, y), fill=theme.grid, width=thin)
    draw.rectangle(
        (gx0 - thin, gy0 - thin, gx1 + thin - 1, gy1 + thin - 1), outline=theme.grid, width=thin * 2
    )
    r = max(2, round(lay.cell_w * 0.065))
    for x, y in lay.star_points(variant.zone_depth):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=theme.grid)


def _coordinates(
    draw: ImageDraw.ImageDraw,
    lay: BoardLayout,
    variant: Variant,
    coordinates: Coordinates,
    theme: Theme,
) -> None:
    """File labels above the board and rank labels on its right, as ``coordinates`` writes
    them (both read from the bottom player's side)."""
    files, ranks = coordinate_labels(variant, coordinates)
    if lay.flipped:
        files, ranks = files[::-1], ranks[::-1]
    _, fy0, _, fy1 = lay.file_row
    px = lay.cell_w * 0.3
    for col, label in enumerate(files):
        cx = lay.grid[0] + col * lay.cell_w + lay.cell_w / 2
        room = (lay.cell_w * 0.8, fy1 - fy0)
        _label(draw, label, (cx, (fy0 + fy1) / 2), px, room, False, theme)
    lx = lay.wood[2] + lay.label_col / 2 + 1
    for row, label in enumerate(ranks):
        cy = lay.grid[1] + row * lay.cell_h + lay.cell_h / 2
        _label(draw, label, (lx, cy), px, (lay.label_col * 0.9, lay.cell_h * 0.8), True, theme)


def _label(
    draw: ImageDraw.ImageDraw,
    label: str,
    center: tuple[float, float],
    px: float,
    room: tuple[float, float],
    vertical: bool,
    theme: Theme,
) -> None:
    """One coordinate centred in ``room`` (width, height): Latin letters and digits in the bold
    sans; kanji and full-width digits in the piece serif a character at a time, so that two
    (十一, １１) sit close together, one under the other for ranks (``vertical``)."""
    if label.isascii():
        draw_centered(draw, label, Face.BOLD, center, px, room[0], theme.coord, em_ratio=0.72)
        return
    n = len(label)
    height = min(px * 1.1, room[1] / (n * 1.15)) if vertical else px * 1.1
    step = height * (1.15 if vertical else 0.75)
    for i, char in enumerate(label):
        offset = (i - (n - 1) / 2) * step
        at = (center[0], center[1] + offset) if vertical else (center[0] + offset, center[1])
        width = room[0] if vertical else room[0] / n
        draw_centered(draw, char, Face.KOMA, at, height, width, theme.coord, em_ratio=0.92)


@lru_cache(maxsize=64)
def board_palette(
    variant_id: str,
    size: int,
    perspective: str,
    show_header: bool,
    style: str,
    coordinates: Coordinates,
    theme: Theme,
) -> Image.Image:
    """A 256-colour palette image fitted to this board's wood, pieces and highlight colours."""
    variant = load_variant(variant_id)
    lay = board_layout(variant, size, perspective, show_header)
    sample = empty_board(variant_id, size, perspective, show_header, coordinates, theme).copy()
    cell = (lay.cell_w, lay.cell_h)
    squares = variant.files * variant.ranks
    n = 0
    for tint in (theme.last_move, theme.check):
        for _ in range(3):
            _tint(sample, lay, n % squares, tint)
            n += 7
    for piece in variant.pieces:
        for owner in (SENTE, GOTE):
            for up in (False, True):
                sprite = piece_sprite(variant_id, piece.kind, owner, up, style, cell, theme)
                sq = n % squares
                sample.paste(sprite, lay.square_box(sq)[:2], sprite)
                n += 5
    _dots(sample, lay, [1, 2, 3], {3}, theme)
    swatch = max(8, lay.cell_w // 2)
    for i, rgba in enumerate((theme.dot, theme.ring, theme.last_move, theme.check)):
        block = Image.new("RGBA", (swatch, swatch), rgba)
        for j in range(4):
            sample.paste(block, (lay.grid[0] + j * swatch, lay.grid[1] + i * swatch), block)
    draw = ImageDraw.Draw(sample)
    for i, color in enumerate(
        (theme.label, theme.label_dim, theme.turn_mark, theme.check_text, theme.ink)
    ):
        draw.text((lay.pad + i * 60, lay.pad), "Ag8", font=font(Face.BOLD, 30), fill=color)
    fixed = _fixed_colors(theme, style)
    cut = sample.quantize(
        PALETTE_COLORS - len(fixed), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    colors = (cut.getpalette() or [])[: 3 * (PALETTE_COLORS - len(fixed))]
    palette = Image.new("P", (1, 1))
    palette.putpalette(colors + [c for rgb in fixed for c in rgb])
    return palette


def _over(top: tuple[int, int, int, int], under: RGB) -> RGB:
    a = top[3] / 255
    return (
        round(top[0] * a + under[0] * (1 - a)),
        round(top[1] * a + under[1] * (1 - a)),
        round(top[2] * a + under[2] * (1 - a)),
    )


def _fixed_colors(theme: Theme, style: str) -> list[RGB]:
    """Colours every board palette holds exactly, whatever the median cut makes of the rest:
    the highlights on the wood (small areas the cut would merge away), the text colours and
    the edges of kanji (else they come out in whatever the cut has near, greens among them)."""
    out: list[RGB] = []
    for mark in (theme.dot, theme.ring, theme.last_move, theme.check):
        for wood_tone in (theme.board, theme.board_grain):
            out.append(_over(mark, wood_tone))
    for face in (theme.piece_face, theme.piece_face_dark):
        out.append(_over(theme.ring, face))
    out += [theme.label, theme.label_dim, theme.turn_mark, theme.check_text, theme.ink]
    out.append(theme.promoted_ink)
    if style == "kanji":
        out += [*ink_ramp(theme.ink, theme), *ink_ramp(theme.promoted_ink, theme)]
    return out


def _tint(img: Image.Image, lay: BoardLayout, sq: int, color: tuple[int, int, int, int]) -> None:
    """``color`` over a square but for its first column and row (grid lines) and its last
    row, left as the empty board has it (see ``board_bands``)."""
    _tint_at(img, lay, lay.square_box(sq)[:2], color)


def _tint_at(
    img: Image.Image, lay: BoardLayout, at: tuple[int, int], color: tuple[int, int, int, int]
) -> None:
    """``_tint`` of the square whose box has its top left at ``at`` in ``img``."""
    tile = _tile_cached((lay.cell_w - 1, lay.cell_h - 2), color)
    img.paste(tile, (at[0] + 1, at[1] + 1), tile)


@lru_cache(maxsize=32)
def _tile_cached(size: tuple[int, int], color: tuple[int, int, int, int]) -> Image.Image:
    return _tile(size, color)


def _dots(
    img: Image.Image, lay: BoardLayout, squares: list[int], occupied: set[int], theme: Theme
) -> None:
    for sq in squares:
        _mark_at(img, lay, lay.square_box(sq)[:2], sq in occupied, theme)


def _mark_at(
    img: Image.Image, lay: BoardLayout, at: tuple[int, int], occupied: bool, theme: Theme
) -> None:
    """A highlight mark on the square whose box has its top left at ``at``: a ring round a
    piece, a dot on an empty square; it stays inside the box."""
    if occupied:
        sprite = disc(
            round(min(lay.cell_w, lay.cell_h) * 0.94), theme.ring, max(2, lay.cell_w // 16)
        )
    else:
        sprite = disc(max(6, round(lay.cell_w * 0.3)), theme.dot)
    cx, cy = at[0] + lay.cell_w // 2, at[1] + lay.cell_h // 2  # as ``square_center``
    img.paste(sprite, (cx - sprite.width // 2, cy - sprite.height // 2), sprite)


SquareState = tuple[int, int, bool, bool, bool]
"""What one square shows: its index, the piece on it (0: none), whether the last move's tint,
the check's tint and a highlight mark are on it."""


def _square_states(
    pos: Position, options: BoardOptions, lay: BoardLayout
) -> list[list[SquareState]]:
    """The state of every square that shows something (a piece, a tint or a mark), by screen
    row (top first), each row in board order; refuses highlight squares off the board."""
    v = pos.variant
    squares = v.files * v.ranks
    bad = [sq for sq in options.highlight if not 0 <= sq < squares]
    if bad:
        raise ValueError(f"highlight squares {bad} are off this {v.files}x{v.ranks} board")
    last = _last_move(pos, options)
    moved = set() if last is None else {last.to_sq} | (set() if last.is_drop else {last.from_sq})
    checked = pos.kings[pos.side] if pos.is_check() else -1
    marked = set(options.highlight)
    special = moved | marked | {checked}
    board = pos.board
    rows: list[list[SquareState]] = []
    for row in range(lay.ranks):
        first = (lay.ranks - 1 - row if lay.flipped else row) * v.files  # see ``screen_cell``
        rows.append(
            [
                (sq, board[sq], sq in moved, sq == checked, sq in marked)
                for sq in range(first, first + v.files)
                if board[sq] or sq in special
            ]
        )
    return rows


def _draw_square(
    img: Image.Image,
    at: tuple[int, int],
    lay: BoardLayout,
    variant_id: str,
    state: SquareState,
    style: str,
    theme: Theme,
) -> None:
    """A square's tints, piece and mark over the empty board, its box's top left at ``at`` in
    ``img``.  Nothing leaves the box (nor touches its bottom row), so squares can be drawn in
    any order, on the whole board or on a tile of their own."""
    _, value, moved, checked, marked = state
    if moved:
        _tint_at(img, lay, at, theme.last_move)
    if checked:
        _tint_at(img, lay, at, theme.check)
    if value:
        owner = SENTE if value > 0 else GOTE
        upside_down = (owner == GOTE) != lay.flipped
        cell = (lay.cell_w, lay.cell_h)
        sprite = square_sprite(variant_id, abs(value), owner, upside_down, style, cell, theme)
        img.paste(sprite, at, sprite)
    if marked:
        _mark_at(img, lay, at, value != 0, theme)


def compose_board(pos: Position, options: BoardOptions) -> Image.Image:
    """The board as an RGB image (before palette reduction and encoding), drawn whole: every
    square, the header and the strips on the empty board."""
    v = pos.variant
    lay = board_layout(v, options.size, options.perspective, options.show_header)
    theme = options.theme
    empty = empty_board(
        v.id, options.size, options.perspective, options.show_header, options.coordinates, theme
    )
    img = empty.copy()
    for row in _square_states(pos, options, lay):
        for state in row:
            at = lay.square_box(state[0])[:2]
            _draw_square(img, at, lay, v.id, state, options.style, theme)
    names, caption = _words(pos, options)
    strips = [p for color in (SENTE, GOTE) for p in _strip_parts(pos, lay, color, names, caption)]
    for part in _header_parts(pos, lay, caption) + strips:
        part.draw(img, lay, v, options.style, theme)
    return img


def _words(pos: Position, options: BoardOptions) -> tuple[dict[int, str], Caption]:
    """The players' names as shown and the header's caption (worked out once a board: the
    caption looks for a check)."""
    names = _names(options)
    return names, header_caption(pos, options, names[pos.side])


def _strip_shows(
    pos: Position, color: int, caption: Caption
) -> tuple[bool, tuple[tuple[int, int], ...]]:
    """What ``color``'s strip shows besides the name: whether it is highlighted (on move in a
    game not over), and the pieces in hand (none without drops)."""
    v = pos.variant
    to_move = pos.side == color and not caption.finished
    return to_move, (tuple(hand_items(v, pos, color)) if v.drops.enabled else ())


def _header_parts(pos: Position, lay: BoardLayout, caption: Caption) -> list[Part]:
    """The header's parts (none without a header)."""
    return [] if lay.header is None else header_parts(lay, pos.side, caption)


def _strip_parts(
    pos: Position, lay: BoardLayout, color: int, names: dict[int, str], caption: Caption
) -> list[Part]:
    """The parts of ``color``'s strip: name (highlighted when on move) and pieces in hand."""
    to_move, items = _strip_shows(pos, color, caption)
    return strip_parts(lay, pos.variant, color, names[color], to_move, items)


@lru_cache(maxsize=1024)
def square_sprite(
    variant_id: str,
    kind: int,
    owner: int,
    upside_down: bool,
    style: str,
    cell: tuple[int, int],
    theme: Theme,
) -> Image.Image:
    """A piece as pasted at the top left of its square: all but the square's bottom row,
    which stays the empty board's (see ``board_bands``).  A sprite leaves out the row on the
    side away from its shadow, which is clear: an upright piece its first (so it sits a row
    higher), a turned one its last."""
    sprite = piece_sprite(variant_id, kind, owner, upside_down, style, cell, theme)
    w, h = sprite.size
    return sprite.crop((0, 0, w, h - 1) if upside_down else (0, 1, w, h))


def _names(options: BoardOptions) -> dict[int, str]:
    labels = options.labels
    return {
        SENTE: display_name(options.sente_name, labels.sente),
        GOTE: display_name(options.gote_name, labels.gote),
    }


def _last_move(pos: Position, options: BoardOptions) -> Move | None:
    if not options.show_last_move:
        return None
    return options.last_move if options.last_move is not None else pos.last_move


def palette_for(variant: Variant, options: BoardOptions) -> Image.Image:
    """The cached palette of boards drawn for ``variant`` with ``options``."""
    return board_palette(*_look(variant, options))


def _look(
    variant: Variant, options: BoardOptions
) -> tuple[str, int, str, bool, str, Coordinates, Theme]:
    """What fixes a board's empty image and palette: the variant and the options that draw
    them (the arguments of ``board_palette``)."""
    return (
        variant.id,
        options.size,
        options.perspective,
        options.show_header,
        options.style,
        options.coordinates,
        options.theme,
    )


def board_image(pos: Position, options: BoardOptions | None = None) -> Image.Image:
    """The board as a palette image (what ``render_board`` encodes)."""
    options = options or BoardOptions()
    img = compose_board(pos, options)
    return img.quantize(palette=palette_for(pos.variant, options), dither=Image.Dither.NONE)


def board_bands(pos: Position, options: BoardOptions) -> list[Band]:
    """The image's rows in bands for ``encode_png``, each with a key that stands for its
    pixels where one can: the parts that only the options draw (pads, file labels, the wood's
    rim), each strip (name, whose turn, pieces in hand), each rank of squares (piece, tints
    and highlight mark square by square).  The header (move number) has none.  This mirrors
    what ``compose_board`` draws where: a rank's pixels come from its own squares only, a
    strip's from its own player only.

    A key must also stand for the row just above its band (the band's dictionary, see
    ``render.png``).  Nothing is drawn on the bottom row of a square (see ``square_sprite``
    and ``_tint``; marks stay clear of it) nor on the outer rows of a strip, so the row above
    every band is one of the empty board, plain wood above a rank."""
    v = pos.variant
    lay = board_layout(v, options.size, options.perspective, options.show_header)
    names, caption = _words(pos, options)
    return _bands(pos, options, lay, _square_states(pos, options, lay), names, caption)


def _bands(
    pos: Position,
    options: BoardOptions,
    lay: BoardLayout,
    states: list[list[SquareState]],
    names: dict[int, str],
    caption: Caption,
) -> list[Band]:
    """``board_bands`` from the squares' states, the names and the caption."""
    look = _look(pos.variant, options)

    def strip(color: int) -> Hashable:
        return (look, "strip", color, names[color], *_strip_shows(pos, color, caption))

    top_color, bottom_color = _strip_colors(lay)
    top, bottom = lay.grid[1], lay.grid[1] + lay.ranks * lay.cell_h
    bands: list[Band] = [
        (0, lay.top_strip[1], None if lay.header is not None else (look, "head")),
        (lay.top_strip[1], lay.top_strip[3], strip(top_color)),
        (lay.top_strip[3], top, (look, "above")),
    ]
    for row, cells in enumerate(states):
        y = top + row * lay.cell_h
        bands.append((y, y + lay.cell_h, (look, row, tuple(cells))))
    bands += [
        (bottom, lay.bottom_strip[1], (look, "below")),
        (lay.bottom_strip[1], lay.bottom_strip[3], strip(bottom_color)),
        (lay.bottom_strip[3], lay.height, (look, "foot")),
    ]
    return bands


def _strip_colors(lay: BoardLayout) -> tuple[int, int]:
    """Whose strip is above the board, whose below."""
    return (SENTE, GOTE) if lay.flipped else (GOTE, SENTE)


# Compressed bands (ranks, strips, the parts only the options draw), reused when the same band
# comes back: most of a board does not change from one move to the next.  ~0.1-4 KB each
# (about 30 KB a board); bounded by their bytes so that the bands of every game in play stay
# until its next move: 64 MiB hold about 2,000 games' boards (a move draws only the bands it
# changed, measured by bench/service.py), more games share what they have in common.
BAND_CACHE_BYTES = 64 * 1024 * 1024
BAND_CACHE = BandCache(max_bytes=BAND_CACHE_BYTES)


_boards_drawn = [0]
_boards_lock = threading.Lock()


def render_counts() -> dict[str, int]:
    """What boards this process has drawn so far (for benchmarks): ``boards``; of their
    bands with a key, ``bands_found`` in the cache of compressed bands and ``bands_drawn``;
    of the squares that show something on ranks drawn, ``tiles_found`` and ``tiles_drawn``;
    of the texts drawn (on any image), ``texts_found`` and ``texts_drawn``."""
    return {
        "boards": _boards_drawn[0],
        "bands_found": BAND_CACHE.hits,
        "bands_drawn": BAND_CACHE.misses,
        "tiles_found": square_tile.hits,
        "tiles_drawn": square_tile.misses,
        "texts_found": text_cache.hits,
        "texts_drawn": text_cache.misses,
    }


def render_board(pos: Position, options: BoardOptions | None = None) -> bytes:
    """``pos`` drawn as a PNG: what the encoder does not have already (the cache of compressed
    bands) is put together in palette indices from parts kept drawn (squares, the header's
    and the strips' parts) on the empty board's; nothing is drawn whole, nothing mapped to
    the palette but a part drawn for the first time."""
    options = options or BoardOptions()
    with _boards_lock:
        _boards_drawn[0] += 1
    lay = board_layout(pos.variant, options.size, options.perspective, options.show_header)
    states = _square_states(pos, options, lay)
    names, caption = _words(pos, options)
    bands = _bands(pos, options, lay, states, names, caption)
    found = BAND_CACHE.lookup(bands)
    look = _look(pos.variant, options)
    drawn = {
        start: _rank_band(look, lay, row, states[row])
        for row, (start, _, key) in enumerate(bands[3 : 3 + lay.ranks])
        if key not in found
    }
    top_color, bottom_color = _strip_colors(lay)
    for color, (start, end, key) in ((top_color, bands[1]), (bottom_color, bands[-2])):
        if key not in found:
            parts = _strip_parts(pos, lay, color, names, caption)
            drawn[start] = _band_of_parts(look, lay, (start, end), parts)
    if lay.header is not None:  # its band has no key: the move number changes every move
        start, end, _ = bands[0]
        drawn[start] = _band_of_parts(look, lay, (start, end), _header_parts(pos, lay, caption))
    # the other bands are the empty board's (pads, file labels, the wood's rim)
    empty = empty_indices(*look)
    plain = {bands[i][0]: PLAIN_BAND_LEVEL for i in (0, 1, -2)}  # the header, the strips
    return encode_png(empty, bands, PNG_COMPRESS_LEVEL, BAND_CACHE, found, drawn, levels=plain)


def _band_of_parts(look: Look, lay: BoardLayout, rows: tuple[int, int], parts: list[Part]) -> bytes:
    """The band ``rows`` (and the row above it, if any) in palette indices as ``encode_png``
    takes them (each row after its filter byte): the empty board's with each part pasted
    (``part_tile``)."""
    start, end = rows
    above = 1 if start else 0
    # one column more on the left: Pillow fills it with index 0, filter type None
    band = empty_indices(*look).crop((-1, start - above, lay.width, end))
    for part in parts:
        (c0, _), (r0, _) = part.columns(lay), part.rows(lay)
        pixels, size = part_tile(look, part)
        tile = Image.frombuffer("P", size, pixels, "raw", "P", 0, 1)
        band.paste(tile, (c0 + 1, r0 - start + above))
    return band.tobytes()


def _moved(lay: BoardLayout, columns: int, rows: int) -> BoardLayout:
    """``lay`` with the header and the strips ``columns`` to the left and ``rows`` higher
    (what the parts are drawn by)."""

    def moved(box: Box) -> Box:
        x0, y0, x1, y1 = box
        return x0 - columns, y0 - rows, x1 - columns, y1 - rows

    header = None if lay.header is None else moved(lay.header)
    return dataclasses.replace(
        lay, header=header, top_strip=moved(lay.top_strip), bottom_strip=moved(lay.bottom_strip)
    )


Look = tuple[str, int, str, bool, str, Coordinates, Theme]
"""What fixes a board's empty image and palette (see ``_look``)."""


@lru_cache(maxsize=64)
def empty_indices(*look: *Look) -> Image.Image:
    """The empty board of ``look`` in its palette's indices."""
    variant_id, size, perspective, show_header, _, coordinates, theme = look
    empty = empty_board(variant_id, size, perspective, show_header, coordinates, theme)
    return empty.quantize(palette=board_palette(*look), dither=Image.Dither.NONE)


def _rank_band(look: Look, lay: BoardLayout, row: int, states: list[SquareState]) -> bytes:
    """Screen row ``row`` of squares (and the row of pixels above it) in palette indices as
    ``encode_png`` takes them (each row after its filter byte), as the whole board's drawing
    quantized would give it: the empty board's indices with each square that shows something
    pasted from its tile (``square_tile``: every square keeps to its box, and the palette maps
    each pixel on its own)."""
    y = lay.grid[1] + row * lay.cell_h - 1
    # one column more on the left: Pillow fills it with index 0, filter type None
    band = empty_indices(*look).crop((-1, y, lay.width, y + 1 + lay.cell_h))
    for state in states:
        x0, y0, _, _ = lay.square_box(state[0])
        band.paste(square_tile(look, state), (x0 + 1, y0 - y))
    return band.tobytes()


SQUARE_TILE_BYTES = 24 * 1024 * 1024
"""Drawn squares kept (3-6 KB each at 720 px, about 5,000): a square's piece, tints and mark
on its own patch of wood; the games of a bot share most of them (1,000 games of
bench/service.py drew about 3,500 over 4,000 boards).  Kept as images: making one from bytes
for each paste cost more than the paste (measured: ~25 us against ~6)."""


def _tile_bytes(tile: Image.Image) -> int:
    return tile.width * tile.height + 1000  # and the Image object around the pixels


@byte_bounded_cache(SQUARE_TILE_BYTES, _tile_bytes)
def square_tile(look: Look, state: SquareState) -> Image.Image:
    """One square as ``state`` has it, alone on the empty board, in palette indices (the size
    of its box)."""
    variant_id, size, perspective, show_header, style, coordinates, theme = look
    lay = board_layout(load_variant(variant_id), size, perspective, show_header)
    empty = empty_board(variant_id, size, perspective, show_header, coordinates, theme)
    tile = empty.crop(lay.square_box(state[0]))
    _draw_square(tile, (0, 0), lay, variant_id, state, style, theme)
    return tile.quantize(palette=board_palette(*look), dither=Image.Dither.NONE)


PART_TILE_BYTES = 48 * 1024 * 1024
"""Drawn parts of headers and strips kept (about 8 KB each at 720 px, 6,000): a game's names
and whose turn it is, its own (six parts), and the move numbers, checks and pieces in hand,
which many games share.  Measured on the 4,000 boards of 1,000 games in turn that
``bench/service.py`` draws: 6,300 different parts; with 16 MiB 38% of the parts came from
here (a game's own parts no longer last until its next move), with 48 MiB 57%, with 64 MiB
(every part kept) 58%; 48 MiB took 0.95 of 16 MiB's CPU a board (the saved jobs drawn by
both in turn, bench/board_jobs.py --against)."""


PartTile = tuple[bytes, tuple[int, int]]
"""A part drawn: its palette indices row by row, and its size.  Plain values (kept as bytes
rather than images: an image object and its palette came to half as much again as its
pixels, and making one from the bytes for a paste costs ~12 us)."""


def _part_bytes(tile: PartTile) -> int:
    return len(tile[0]) + 200  # and the tuples around them


@byte_bounded_cache(PART_TILE_BYTES, _part_bytes)
def part_tile(look: Look, part: Part) -> PartTile:
    """``part`` of a header or a strip alone on the empty board, in palette indices (the size
    of its rows and columns).  Drawn on a crop of the empty board from an even row and column
    at or before the part's, the layout moved as far: every position drawn moves by a whole
    even number of pixels, which rounding (half to even, or down) keeps."""
    variant_id, size, perspective, show_header, style, coordinates, theme = look
    variant = load_variant(variant_id)
    lay = board_layout(variant, size, perspective, show_header)
    (r0, r1), (c0, c1) = part.rows(lay), part.columns(lay)
    left, top = c0 & ~1, r0 & ~1
    empty = empty_board(variant_id, size, perspective, show_header, coordinates, theme)
    canvas = empty.crop((left, top, c1, r1))
    part.draw(canvas, _moved(lay, left, top), variant, style, theme)
    tile = canvas.crop((c0 - left, r0 - top, c1 - left, r1 - top))
    indices = tile.quantize(palette=board_palette(*look), dither=Image.Dither.NONE)
    return indices.tobytes(), indices.size


def warm(
    variants: Iterable[str] = ("shogi", "wa", "wa-drops"),
    styles: Iterable[Style] = STYLES,
    sizes: Iterable[int] = (DEFAULT_SIZE,),
    perspectives: Iterable[Perspective] = PERSPECTIVES,
) -> int:
    """Fill the render caches so the first board after a start is as fast as any other.

    For each combination: the empty board, its palette, every piece sprite on the board and
    in hand (both sides, either way up), the highlight discs, the fonts of names and captions.
    Safe to call from a background thread while boards are rendered (the caches only grow);
    returns how many combinations were warmed (not those warmed by an earlier call)."""
    n = 0
    for key in product(variants, styles, sizes, perspectives):
        if key in _warmed:
            continue
        variant_id, style, size, perspective = key
        variant = load_variant(variant_id)
        options = BoardOptions(style=style, size=size, perspective=perspective, highlight=(0,))
        lay = board_layout(variant, size, perspective, options.show_header)
        palette_for(variant, options)  # the empty board and every board sprite
        cell, theme = (lay.cell_w, lay.cell_h), options.theme
        for piece in variant.pieces:
            for owner in (SENTE, GOTE):
                up = (owner == GOTE) != lay.flipped  # on the board and in hand alike
                square_sprite(variant_id, piece.kind, owner, up, style, cell, theme)
                if variant.drops.enabled:
                    piece_sprite(variant_id, piece.kind, owner, up, style, lay.hand_cell, theme)
        render_board(Position.start(variant), options)  # highlight discs and fonts
        _warmed.add(key)
        n += 1
    return n


_warmed: set[tuple[str, str, int, str]] = set()  # what ``warm`` has done in this process
