"""Pixel helpers for the render tests."""

from __future__ import annotations

import io

from PIL import Image

from render.layout import Box


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
