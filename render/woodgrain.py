"""Wooden surfaces: straight-grain boards and trays, deterministic so images are reproducible."""

from __future__ import annotations

import math
import random
from functools import cache

from PIL import Image, ImageFilter

from render.theme import RGB, mix


@cache
def wood(
    size: tuple[int, int], base: RGB, grain: RGB, seed: int = 7, vertical: bool = True
) -> Image.Image:
    """An RGB wood texture: straight grain running along the long axis of a real board.

    The grain is constant along its direction, so PNG and GIF encode it cheaply.
    """
    w, h = size
    length = w if vertical else h
    rng = random.Random(seed)
    waves = [
        (rng.uniform(0.02, 0.09), rng.uniform(0, math.tau), rng.uniform(0.2, 0.5)) for _ in range(4)
    ]
    lines = []
    for i in range(length):
        t = sum(a * math.sin(i * f + p) for f, p, a in waves) / 1.2
        streak = 0.55 if rng.random() < 0.04 else 0.0
        lines.append(mix(base, grain, max(0.0, min(1.0, 0.35 + t + streak))))
    strip = Image.new("RGB", (length, 1))
    strip.putdata(lines)
    strip = strip.filter(ImageFilter.GaussianBlur(0.6))
    if vertical:
        return strip.resize((w, h), Image.Resampling.NEAREST)
    return strip.transpose(Image.Transpose.ROTATE_90).resize((w, h), Image.Resampling.NEAREST)
