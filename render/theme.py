"""Colours and proportions of every image the renderer draws."""

from __future__ import annotations

from dataclasses import dataclass, fields

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved ``t`` of the way (0 to 1) toward ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True)
class Theme:
    """A look: wood, ink and highlight colours."""

    background: RGB = (58, 44, 34)  # table around the board
    board: RGB = (228, 184, 110)  # kaya wood
    board_grain: RGB = (206, 158, 86)
    frame: RGB = (120, 76, 36)
    grid: RGB = (60, 40, 22)
    komadai: RGB = (168, 112, 58)
    komadai_grain: RGB = (150, 96, 46)
    komadai_active: RGB = (196, 138, 70)
    piece_face: RGB = (246, 222, 170)  # boxwood
    piece_face_dark: RGB = (226, 192, 132)
    piece_edge: RGB = (96, 62, 30)
    ink: RGB = (24, 18, 14)
    promoted_ink: RGB = (196, 24, 20)
    label: RGB = (245, 232, 206)  # text on the dark table
    label_dim: RGB = (200, 180, 150)
    coord: RGB = (245, 232, 206)
    last_move: RGBA = (255, 208, 60, 150)
    check: RGBA = (230, 30, 30, 120)
    dot: RGBA = (20, 110, 60, 190)
    ring: RGBA = (20, 110, 60, 220)
    turn_mark: RGB = (255, 214, 66)
    check_text: RGB = (255, 96, 80)
    mark: RGB = (40, 60, 120)  # direction marks in the international style
    diagram_paper: RGB = (250, 244, 230)
    diagram_grid: RGB = (120, 100, 80)
    diagram_move: RGB = (30, 80, 160)
    diagram_jump: RGB = (200, 110, 0)

    def __hash__(self) -> int:
        """Worked out once: a theme is part of the key of every cached sprite, band and
        palette, and hashing its 28 colours afresh, ~75 times a board, cost ~0.1 ms of it.  (The
        colours are ints, whose hashes are the same in every process.)"""
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached


DEFAULT_THEME = Theme()
