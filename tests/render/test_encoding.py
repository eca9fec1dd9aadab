"""The fast path of board images: palette PNG written a band at a time, compressed bands
reused, caches warmed at start.  The pictures must stay what a plain render draws."""

from __future__ import annotations

import io
import random
import statistics
import struct
import zlib

import pytest
from PIL import Image, ImageChops, ImageStat

from render import board, sprites
from render.board import (
    BAND_CACHE,
    board_bands,
    board_image,
    compose_board,
    empty_board,
    render_board,
    warm,
)
from render.options import DEFAULT_SIZE, BoardOptions, Perspective, Style
from render.png import BandCache, adler32_combine, encode_png
from rules import Position, load_variant
from tests.render.conftest import game_positions, random_game
from tests.render.games import TARGETS, game
from tests.render.helpers import open_png


def test_adler32_combine_matches_zlib() -> None:
    rng = random.Random(1)
    for n1, n2 in ((0, 5), (7, 0), (1000, 70_000), (65_521, 65_522)):
        a, b = rng.randbytes(n1), rng.randbytes(n2)
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), n2) == zlib.adler32(a + b)


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of ``png`` as (type, data), each CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        chunks.append((kind, data))
        at += 12 + length
    return chunks


def test_the_zlib_stream_passes_zlib_own_checks() -> None:
    """The bands deflated by zlib-ng, some from the cache, make one zlib stream that zlib
    itself inflates with its Adler-32 checked, to exactly the rows of the palette image, each
    after filter byte 0 (Pillow's decoder does not check the Adler-32)."""
    BAND_CACHE.clear()
    options = BoardOptions(sente_name="Hanako", gote_name="Алексей")
    for pos in game_positions("wa-drops", 6, seed=3):
        chunks = _chunks(render_board(pos, options))
        assert [k for k, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
        inflater = zlib.decompressobj()
        rows = inflater.decompress(b"".join(d for k, d in chunks if k == b"IDAT"))
        assert inflater.eof and not inflater.unused_data
        image = board_image(pos, options)
        width = image.width
        expected = b"".join(
            b"\x00" + image.tobytes()[y * width : (y + 1) * width] for y in range(image.height)
        )
        assert rows == expected


@pytest.mark.parametrize(
    ("variant_id", "kwargs"),
    [
        ("shogi", {}),
        ("wa-drops", {"perspective": "gote", "style": "international"}),
        ("wa", {"highlight": (5, 60, 61), "coordinates": "japanese"}),
    ],
)
def test_a_game_in_progress_decodes_to_the_plain_picture(
    variant_id: str, kwargs: dict[str, object]
) -> None:
    """Move after move (so ranks and strips come from the cache of compressed bands), every
    PNG holds exactly the palette image, and that stays close to the RGB drawing."""
    BAND_CACHE.clear()
    options = BoardOptions(sente_name="Hanako", gote_name="Алексей", **kwargs)  # type: ignore[arg-type]
    for pos in game_positions(variant_id, 24, seed=5):
        png = render_board(pos, options)
        shown = open_png(png)
        assert (
            ImageChops.difference(shown, board_image(pos, options).convert("RGB")).getbbox() is None
        )
        rgb = compose_board(pos, options)
        mean = sum(ImageStat.Stat(ImageChops.difference(shown, rgb)).mean) / 3
        assert mean < 2.0  # out of 255: the palette loses nothing the eye would see
    assert BAND_CACHE.hits > BAND_CACHE.misses  # most of a board is the same one move later


@pytest.mark.parametrize("size", [240, 480, 720, 1111])
@pytest.mark.parametrize("perspective", ["sente", "gote"])
def test_the_row_above_every_band_is_the_empty_boards(size: int, perspective: Perspective) -> None:
    """A band is compressed with the row above it as its dictionary, so its key must stand
    for that row too: pieces either way up, tints, check, marks on a third of the squares
    and names with accents above and below leave it as the empty board drew it."""
    for variant_id in ("shogi", "wa-drops"):
        positions = game_positions(variant_id, 60, seed=11)
        checks = [pos for pos in positions if pos.is_check()]
        assert checks  # a king in check: its square is tinted too
        for pos in [*positions[20::20], *checks[:2]]:
            squares = pos.variant.files * pos.variant.ranks
            marked = tuple(sq for sq in range(squares) if random.Random(sq).random() < 0.3)
            for style in ("kanji", "international"):
                options = BoardOptions(
                    size=size,
                    perspective=perspective,
                    style=style,  # type: ignore[arg-type]
                    highlight=marked,
                    sente_name="Ǻńgström Ÿǜ",
                    gote_name="Алексей Ё",
                )
                img = compose_board(pos, options)
                empty = empty_board(
                    variant_id, size, perspective, True, options.coordinates, options.theme
                )
                for start, _, _ in board_bands(pos, options)[1:]:
                    row = (0, start - 1, img.width, start)
                    assert img.crop(row).tobytes() == empty.crop(row).tobytes(), (start, style)


CASES = [  # those of bench/render.py
    ("shogi", "kanji", "sente"),
    ("shogi", "international", "sente"),
    ("wa", "kanji", "sente"),
    ("wa", "international", "sente"),
    ("wa-drops", "kanji", "sente"),
    ("wa-drops", "international", "sente"),
    ("wa-drops", "kanji", "gote"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant_id", "style", "perspective"), CASES)
def test_boards_stay_under_their_byte_target(
    variant_id: str, style: Style, perspective: Perspective
) -> None:
    """The issue "Speed at scale": at the default size, a board PNG of a game in progress
    under 32 KB for 9x9 and 40 KB for 11x11, as bench/render.py measures it (the median over
    the 200 positions of its game from move 30 on).  Sizes are deterministic; the pictures'
    quality is checked above (close to the RGB drawing) and by looking at them."""
    options = BoardOptions(
        style=style, perspective=perspective, sente_name="Hanako", gote_name="Алексей"
    )
    positions = game(variant_id, 30, 200)
    size = statistics.median(len(render_board(pos, options)) for pos in positions)
    assert options.size == DEFAULT_SIZE
    target = TARGETS[positions[0].variant.files][1]
    assert size < target, f"median {size:.0f} bytes, target {target}"


def test_reused_bands_give_the_same_bytes_as_fresh_ones(wa_game: Position) -> None:
    options = BoardOptions(sente_name="Hanako")
    BAND_CACHE.clear()
    fresh = render_board(wa_game, options)
    again = render_board(wa_game, options)
    assert again == fresh
    assert BAND_CACHE.hits >= len(BAND_CACHE) - 1  # all but the header came from the cache


def test_a_full_cache_drops_the_oldest_bands() -> None:
    img = Image.new("P", (4, 3))
    img.putpalette([0, 0, 0, 255, 255, 255])
    bands = [(0, 1, "a"), (1, 2, "b"), (2, 3, "c")]
    roomy = BandCache(max_bytes=10_000)
    encode_png(img, bands, 6, roomy)
    sizes = {key: len(data) for key, (data, _, _) in roomy.lookup(bands).items()}
    assert roomy.bytes == sum(sizes.values())
    cache = BandCache(max_bytes=sizes["b"] + sizes["c"])  # room for the last two
    encode_png(img, bands, 6, cache)
    assert len(cache) == 2
    assert set(cache.lookup(bands)) == {"b", "c"}
    assert cache.bytes == sizes["b"] + sizes["c"]


def test_encode_png_refuses_bands_that_do_not_cover_the_image() -> None:
    img = Image.new("P", (4, 3))
    with pytest.raises(ValueError, match="in order"):
        encode_png(img, [(0, 1, None), (2, 3, None)], 6)
    with pytest.raises(ValueError, match="end at row 2"):
        encode_png(img, [(0, 2, None)], 6)


def test_png_is_an_ordinary_palette_png(shogi_game: Position) -> None:
    img = Image.open(io.BytesIO(render_board(shogi_game)))
    img.load()  # decodes the whole stream (and checks its Adler-32)
    assert img.mode == "P"
    assert img.size[0] == BoardOptions().size


def test_warm_fills_the_caches() -> None:
    sprites.piece_sprite.cache_clear()
    board.empty_board.cache_clear()
    board.board_palette.cache_clear()
    board._warmed.clear()
    assert warm(["wa-drops"], ["kanji"], [480], ["sente"]) == 1
    variant = load_variant("wa-drops")
    assert board.empty_board.cache_info().currsize == 1
    assert board.board_palette.cache_info().currsize == 1
    # every piece, both owners, on the board and in hand
    assert sprites.piece_sprite.cache_info().currsize >= 2 * len(variant.pieces) + len(
        [p for p in variant.pieces if not p.promoted and not p.royal]
    )
    before = sprites.piece_sprite.cache_info()
    render_board(random_game("wa-drops", 40, seed=3), BoardOptions(size=480))
    after = sprites.piece_sprite.cache_info()
    assert after.misses == before.misses  # nothing left to draw for a mid-game board
    assert warm(["wa-drops"], ["kanji"], [480], ["sente"]) == 0  # done once per process
