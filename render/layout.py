"""Where everything on a board image goes; tests use the same numbers to sample pixels."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules import GOTE, SENTE, Variant

Box = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive)

CELL_ASPECT = 1.09  # shogi squares are a little taller than wide
HAND_SCALE = 0.82  # pieces in hand against pieces on the board


@dataclass(frozen=True)
class BoardLayout:
    """Pixel geometry of one board image (variant size, image width, perspective, header)."""

    files: int
    ranks: int
    flipped: bool  # gote at the bottom
    width: int
    height: int
    pad: int
    cell_w: int
    cell_h: int
    header: Box | None
    top_strip: Box
    bottom_strip: Box
    wood: Box  # the board's wooden face
    grid: Box  # outer grid lines
    label_col: int  # width of the rank label column (and of the empty one opposite)
    file_row: Box  # where the file numbers go
    hand_cell: tuple[int, int]

    def screen_cell(self, sq: int) -> tuple[int, int]:
        """Column and row on screen (0 = left / top) of square index ``sq``."""
        row, col = divmod(sq, self.files)
        if self.flipped:
            return self.files - 1 - col, self.ranks - 1 - row
        return col, row

    def square_box(self, sq: int) -> Box:
        col, row = self.screen_cell(sq)
        x0 = self.grid[0] + col * self.cell_w
        y0 = self.grid[1] + row * self.cell_h
        return x0, y0, x0 + self.cell_w, y0 + self.cell_h

    def square_center(self, sq: int) -> tuple[int, int]:
        x0, y0, x1, y1 = self.square_box(sq)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def strip_of(self, color: int) -> Box:
        """The hand strip (komadai and name) of ``color``."""
        bottom_color = GOTE if self.flipped else SENTE
        return self.bottom_strip if color == bottom_color else self.top_strip

    def star_points(self, zone_depth: int) -> list[tuple[int, int]]:
        """Grid intersections bounding the middle zone: the 9x9 star points, Wa's zone dots."""
        xs = (zone_depth, self.files - zone_depth)
        ys = (zone_depth, self.ranks - zone_depth)
        return [
            (self.grid[0] + x * self.cell_w, self.grid[1] + y * self.cell_h) for x in xs for y in ys
        ]


def board_layout(
    variant: Variant, size: int, perspective: str, show_header: bool = True
) -> BoardLayout:
    """The layout of ``variant``'s board image ``size`` pixels wide."""
    return _layout(
        variant.files, variant.ranks, variant.drops.enabled, size, perspective, show_header
    )


@cache
def _layout(
    files: int, ranks: int, drops: bool, size: int, perspective: str, show_header: bool
) -> BoardLayout:
    pad = max(4, round(size * 0.018))
    label_share = 0.5  # label column width in cells
    inset_share = 0.16  # wood margin around the grid in cells
    cell_w = int((size - 2 * pad) / (files + 2 * label_share + 2 * inset_share))
    cell_h = round(cell_w * CELL_ASPECT)
    label_col = round(cell_w * label_share)
    inset = max(3, round(cell_w * inset_share))
    board_w = files * cell_w + 2 * inset
    left = (size - board_w) // 2
    y = pad
    header: Box | None = None
    if show_header:
        h = max(16, round(size * 0.058))
        header = (pad, y, size - pad, y + h)
        y += h + pad // 2
    hand_cell = (round(cell_w * HAND_SCALE), round(cell_h * HAND_SCALE))
    strip_h = hand_cell[1] + 2 * max(3, pad // 2) if drops else max(18, round(size * 0.062))
    top_strip = (pad, y, size - pad, y + strip_h)
    y += strip_h + pad // 2
    file_row = (left, y, left + board_w, y + round(cell_w * 0.42))
    y = file_row[3]
    wood = (left, y, left + board_w, y + ranks * cell_h + 2 * inset)
    grid = (left + inset, y + inset, left + inset + files * cell_w, y + inset + ranks * cell_h)
    y = wood[3] + pad
    bottom_strip = (pad, y, size - pad, y + strip_h)
    height = bottom_strip[3] + pad
    return BoardLayout(
        files=files,
        ranks=ranks,
        flipped=perspective == "gote",
        width=size,
        height=height,
        pad=pad,
        cell_w=cell_w,
        cell_h=cell_h,
        header=header,
        top_strip=top_strip,
        bottom_strip=bottom_strip,
        wood=wood,
        grid=grid,
        label_col=label_col,
        file_row=file_row,
        hand_cell=hand_cell,
    )
