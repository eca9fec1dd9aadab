"""Game replays: an animated GIF with a frame per move, kept under an upload limit."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import replace

from PIL import Image

from render.board import PALETTE_COLORS, compose_board, palette_for
from render.options import MIN_SIZE, BoardOptions
from rules import Position, RulesError, Variant

MOVE_MS = 1000
FIRST_MS = 1500
FINAL_MS = 4000
DEFAULT_MAX_BYTES = 8_000_000  # Discord's default upload limit (Telegram allows more)


def replay_positions(
    variant: Variant, start_sfen: str | None, usi_moves: Sequence[str]
) -> list[Position]:
    """The start position and the position after each move; a bad move names its number."""
    pos = Position.from_sfen(variant, start_sfen) if start_sfen else Position.start(variant)
    out = [pos.copy()]
    for i, text in enumerate(usi_moves, start=1):
        try:
            pos.push_usi(text)
        except RulesError as exc:
            raise type(exc)(
                f"move {i} ({text}): {exc.message}", code=exc.code, **exc.params
            ) from None
        out.append(pos.copy())
    return out


def _palette(options: BoardOptions, variant: Variant, colors: int) -> Image.Image:
    """The board palette, or a smaller one; either leaves an index free for GIF transparency."""
    full = palette_for(variant, options)
    if colors >= PALETTE_COLORS:
        return full
    return full.convert("RGB").quantize(colors, method=Image.Quantize.MEDIANCUT)


def _encode(positions: list[Position], options: BoardOptions, colors: int) -> bytes:
    palette = _palette(options, positions[0].variant, colors)
    playing = replace(options, result="")  # the game's result belongs to its last frame only
    last = len(positions) - 1
    frames = [
        compose_board(p, options if i == last else playing).quantize(
            palette=palette, dither=Image.Dither.NONE
        )
        for i, p in enumerate(positions)
    ]
    durations = [MOVE_MS] * len(frames)
    durations[0] = FIRST_MS if len(frames) > 1 else FINAL_MS
    durations[-1] = FINAL_MS
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,  # unchanged pixels become transparent: small delta frames
        disposal=1,
    )
    return out.getvalue()


def _thin(positions: list[Position], keep: int) -> list[Position]:
    """At most ``keep`` positions, evenly spread, always with the first and the last."""
    if len(positions) <= keep:
        return positions
    step = (len(positions) - 1) / (keep - 1)
    return [positions[round(i * step)] for i in range(keep)]


def render_replay(
    variant: Variant,
    start_sfen: str | None,
    usi_moves: Sequence[str],
    max_bytes: int = DEFAULT_MAX_BYTES,
    options: BoardOptions | None = None,
) -> bytes:
    """Animated GIF of a game: a frame per position with the last move highlighted, a longer
    pause on the final one, which alone shows ``options.result``.  Frames shrink and colours
    drop until the file fits ``max_bytes``; if even the smallest frames do not fit, some
    middle moves are left out."""
    options = options or BoardOptions()
    positions = replay_positions(variant, start_sfen, usi_moves)
    size, colors = options.size, PALETTE_COLORS
    data = b""
    for _ in range(8):
        data = _encode(positions, replace(options, size=size), colors)
        if len(data) <= max_bytes:
            return data
        ratio = max_bytes / len(data)
        if colors > 64 and ratio > 0.8:
            colors //= 2
            continue
        new_size = max(MIN_SIZE, int(size * math.sqrt(ratio) * 0.95))
        if new_size == size:
            break
        size = new_size
    keep = max(2, int(len(positions) * max_bytes / len(data) * 0.9))
    while keep >= 2:
        data = _encode(_thin(positions, keep), replace(options, size=size), colors)
        if len(data) <= max_bytes:
            return data
        keep = keep * 3 // 4 if keep > 2 else 1
    raise ValueError(f"a replay cannot fit in {max_bytes} bytes")
