"""Pixel helpers for the render tests."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import replay
from render.captions import header_caption
from render.layout import Box
from render.options import BoardOptions
from rules import Position


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def red_pixels(img: Image.Image, box: Box) -> int:
    """Pixels in ``box`` of the promoted-piece ink red."""
    raw = img.crop(box).tobytes()
    pixels = zip(raw[0::3], raw[1::3], raw[2::3], strict=True)
    return sum(1 for r, g, b in pixels if r > 150 and g < 90 and b < 90)


def greenish(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return g > r + 25 and g > b + 10


def record_replay_headers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The move part of each replay frame's header (``header_caption``) as frames are drawn
    from now on, in order."""
    headers: list[str] = []
    original = replay.compose_board

    def spy(pos: Position, options: BoardOptions) -> Image.Image:
        headers.append(header_caption(pos, options, "").move)
        return original(pos, options)

    monkeypatch.setattr(replay, "compose_board", spy)
    return headers
