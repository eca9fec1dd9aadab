"""Game replays: an animated GIF with a frame per move, kept under an upload limit.

Memory does not grow with the game.  A game longer than ``MAX_FRAMES`` positions is sampled:
``MAX_FRAMES`` positions evenly spread, always the first and the last.  Frames are drawn one
at a time and written straight into the file (Pillow's animated-GIF writer keeps every frame
until it has seen the last, hundreds of megabytes for a long game), so at any moment only the
frame being drawn, the one before it and the bytes written so far are held; the bytes stop at
the limit asked for.  Each frame after the first holds only the rectangle that changed, with
unchanged pixels transparent.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from PIL import GifImagePlugin, Image, ImageChops

from render.board import PALETTE_COLORS, compose_board, palette_for
from render.options import DEFAULT_MAX_BYTES, MIN_SIZE, BoardOptions
from rules import Move, Position, RulesError, Variant
from rules.notation import as_style, format_move

MOVE_MS = 1000
FIRST_MS = 1500
FINAL_MS = 4000
MAX_FRAMES = 300  # five minutes at a move a second; longer games are sampled evenly
PROJECT_AFTER = 30  # frames written before the file's final size is estimated
DISPOSAL_KEEP = 1  # GIF disposal "do not dispose": each frame draws over the one before


def frame_plies(moves: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """The plies that get a frame (0 is the start): every one, or ``max_frames`` of them evenly
    spread, always with the first and the last."""
    if max_frames < 2:
        raise ValueError(f"a replay needs at least 2 frames, not {max_frames}")
    if moves + 1 <= max_frames:
        return list(range(moves + 1))
    step = moves / (max_frames - 1)
    return [round(i * step) for i in range(max_frames)]


class Frame(NamedTuple):
    """One replay frame's position, kept small: its SFEN, the move that led to it and that
    move in words (a ``Position`` would carry the game's whole history)."""

    sfen: str
    last_move: Move | None
    played: str = ""


def replay_frames(
    variant: Variant,
    start_sfen: str | None,
    usi_moves: Sequence[str],
    max_frames: int = MAX_FRAMES,
    notation: str = "western",
) -> list[Frame]:
    """The positions at ``frame_plies``: every move is played and checked (a bad one names its
    number), only those positions are kept, each with its move written in ``notation``
    (``usi``, ``western`` or ``japanese``)."""
    style = as_style(notation)
    pos = Position.from_sfen(variant, start_sfen) if start_sfen else Position.start(variant)
    wanted = frame_plies(len(usi_moves), max_frames)
    out = [Frame(pos.sfen(), None)]
    for i, text in enumerate(usi_moves, start=1):
        try:
            move = pos.parse_usi(text)
        except RulesError as exc:
            raise type(exc)(
                f"move {i} ({text}): {exc.message}", code=exc.code, **exc.params
            ) from None
        if wanted[len(out)] != i:
            pos.make_unchecked(move)
            continue
        # the ideographic space of "同　歩" is not printable, so no font draws it: a plain one
        played = format_move(pos, move, style).replace("\u3000", " ")
        pos.make_unchecked(move)
        out.append(Frame(pos.sfen(), move, played))
    return out


class ReplayTooBig(ValueError):
    """Even two frames at the smallest size do not fit the byte limit asked for."""


def _palette(options: BoardOptions, variant: Variant, colors: int) -> Image.Image:
    """The board palette, or a smaller one; either leaves an index free for GIF transparency."""
    full = palette_for(variant, options)
    if colors >= PALETTE_COLORS:
        return full
    # The palette image is one pixel: its colours are laid out in a strip to be cut down (the
    # pixel alone quantizes to one colour, and every frame to a plain background).
    rgb = full.getpalette() or []
    strip = Image.new("RGB", (len(rgb) // 3, 1))
    strip.putdata([(rgb[i], rgb[i + 1], rgb[i + 2]) for i in range(0, len(rgb) - 2, 3)])
    return strip.quantize(colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


class _TooBig(Exception):
    """The file passed its limit after ``frames`` frames (``first`` bytes up to the first)."""

    def __init__(self, written: int, first: int, frames: int) -> None:
        super().__init__(written)
        self.written = written
        self.first = first
        self.frames = frames


class _GifWriter:
    """An animated GIF written frame by frame (GIF89a): one global colour table, the Netscape
    loop extension, and per frame a graphic control block (delay, disposal, transparency)
    followed by the image Pillow encodes (``GifImagePlugin.getdata``: descriptor and LZW data,
    no colour table of its own).  A frame's delay is known once the next frame is seen (an
    unchanged frame only lengthens it), so one encoded frame waits in ``_pending``."""

    def __init__(self, palette: Image.Image, size: tuple[int, int], limit: int, count: int) -> None:
        rgb = bytes(palette.getpalette() or b"")
        colors = len(rgb) // 3
        if colors >= 256:
            raise ValueError("the palette leaves no index free for transparency")
        self.clear = colors  # the first unused index: transparent in delta frames
        bits = max(1, math.ceil(math.log2(colors + 1)))
        table = rgb + bytes(3 * ((1 << bits) - colors))
        self.out = io.BytesIO()
        self.limit = limit
        self.count = count
        self.frames = 0
        self.first = 0
        self._pending: tuple[int, bool, bytes] | None = None
        width, height = size
        self.out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80 | (bits - 1), 0, 0))
        self.out.write(table)
        self.out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00")

    def add(self, frame: Image.Image, previous: Image.Image | None, ms: int) -> None:
        """Queue ``frame`` (palette mode, the writer's palette), shown for ``ms``."""
        if previous is None:
            body = b"".join(GifImagePlugin.getdata(frame))
            self._push(ms, False, body)
            return
        delta = ImageChops.subtract_modulo(frame, previous)  # 0 where the index is unchanged
        box = delta.getbbox()
        if box is None:
            assert self._pending is not None
            shown, transparent, body = self._pending
            self._pending = (shown + ms, transparent, body)
            return
        part = frame.crop(box)
        unchanged = delta.crop(box).point([255, *(0,) * 255], "1")
        part.paste(self.clear, mask=unchanged)
        body = b"".join(GifImagePlugin.getdata(part, offset=box[:2]))
        self._push(ms, True, body)

    def _push(self, ms: int, transparent: bool, body: bytes) -> None:
        self._flush()
        self._pending = (ms, transparent, body)

    def _flush(self) -> None:
        if self._pending is None:
            return
        ms, transparent, body = self._pending
        self._pending = None
        packed = DISPOSAL_KEEP << 2 | int(transparent)
        delay = min(0xFFFF, round(ms / 10))
        index = self.clear if transparent else 0
        self.out.write(b"!\xf9\x04" + struct.pack("<BHBB", packed, delay, index, 0) + body)
        self.frames += 1
        if self.frames == 1:
            self.first = self.out.tell()
        written = self.out.tell()
        if written > self.limit:
            raise _TooBig(written, self.first, self.frames)
        if self.frames == PROJECT_AFTER and self.frames < self.count:
            # a file bound to miss the limit by far is given up now, not at the limit
            big = _TooBig(written, self.first, self.frames)
            if _projected(big, self.count) > self.limit * 1.1:
                raise big

    def finish(self) -> bytes:
        self._flush()
        self.out.write(b";")
        if self.out.tell() > self.limit:
            raise _TooBig(self.out.tell(), self.first, self.frames)
        return self.out.getvalue()


def _duration(i: int, count: int) -> int:
    if i == count - 1:
        return FINAL_MS
    return FIRST_MS if i == 0 else MOVE_MS


def _encode(
    variant: Variant, frames: list[Frame], options: BoardOptions, colors: int, limit: int
) -> bytes:
    """The GIF of ``frames``, drawn and written one frame at a time; _TooBig past ``limit``."""
    palette = _palette(options, variant, colors)
    playing = replace(options, result="")  # the game's result belongs to its last frame only
    count = len(frames)
    writer: _GifWriter | None = None
    previous: Image.Image | None = None
    for i, (sfen, last_move, played) in enumerate(frames):
        pos = Position.from_sfen(variant, sfen)
        shown = replace(
            options if i == count - 1 else playing, last_move=last_move, last_move_text=played
        )
        frame = compose_board(pos, shown).quantize(palette=palette, dither=Image.Dither.NONE)
        if writer is None:
            low, high = frame.getextrema()
            if low == high:  # never an empty animation reported as a replay
                raise ValueError(f"the replay's frames came out blank with {colors} colours")
            writer = _GifWriter(palette, frame.size, limit, count)
        writer.add(frame, previous, _duration(i, count))
        previous = frame
    assert writer is not None
    return writer.finish()


def _thin(frames: list[Frame], keep: int) -> list[Frame]:
    """At most ``keep`` frames, evenly spread, always with the first and the last."""
    if len(frames) <= keep:
        return frames
    step = (len(frames) - 1) / (keep - 1)
    return [frames[round(i * step)] for i in range(keep)]


def render_replay(
    variant: Variant,
    start_sfen: str | None,
    usi_moves: Sequence[str],
    max_bytes: int = DEFAULT_MAX_BYTES,
    options: BoardOptions | None = None,
    max_frames: int = MAX_FRAMES,
    notation: str = "western",
) -> bytes:
    """Animated GIF of a game: a frame per position with the last move highlighted and named
    in its header in ``notation`` ("12. ☗P-7f", ``options.labels.played``), a longer pause on
    the final one, which alone shows ``options.result``.  A game of more than
    ``max_frames`` positions shows ``max_frames`` of them, evenly spread, the first and the
    last always among them.  Frames shrink and colours drop until the file fits
    ``max_bytes``; if even the smallest frames do not fit, more positions are left out.
    Memory stays bounded whatever the game's length (see the module's docstring)."""
    options = options or BoardOptions()
    frames = replay_frames(variant, start_sfen, usi_moves, max_frames, notation)
    size, colors = options.size, PALETTE_COLORS
    ratio = 1.0
    for _ in range(8):
        try:
            return _encode(variant, frames, replace(options, size=size), colors, max_bytes)
        except _TooBig as big:
            ratio = max_bytes / _projected(big, len(frames))
        if colors > 64 and ratio > 0.8:
            colors //= 2
            continue
        new_size = max(MIN_SIZE, int(size * math.sqrt(ratio) * 0.95))
        if new_size == size:
            break
        size = new_size
    keep = max(2, int(len(frames) * ratio * 0.9))
    while keep >= 2:
        try:
            thin = _thin(frames, keep)
            return _encode(variant, thin, replace(options, size=size), colors, max_bytes)
        except _TooBig:
            keep = keep * 3 // 4 if keep > 2 else 1
    raise ReplayTooBig(
        f"a replay cannot fit in {max_bytes} bytes, not even its first and last positions at "
        "the smallest size"
    )


def _projected(big: _TooBig, count: int) -> float:
    """The size the whole file would have had: the first (full) frame, then the delta frames
    at the rate of those written."""
    if big.frames < 2:
        return big.written * count
    return big.first + (big.written - big.first) / (big.frames - 1) * (count - 1)
