"""How a game went, as a picture: sente's evaluation over the moves, in the board images' colours.

The curve is sente's score in centipawns after each move (move 0: the start), capped at
``±cap`` (a mate is drawn at the cap): up is sente's advantage, down gote's, around the
midline.  The area between the curve and the midline is light on sente's side and dark on
gote's.  A judged move (:class:`Mark`: 1 inaccuracy, 2 mistake, 3 blunder) is a dot of its
class's colour on the curve at its move; the legend names the classes in the caller's words.
The x axis numbers the moves as the records and the chat do (move 1 is the first move).

Every word is the caller's (:class:`GraphWords`, in the chat's language); names may hold
anything, so every text goes through :func:`render.fonts.printable` and is fitted to its box.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.diagram import to_png
from render.fonts import Face, display_name, draw_text, fit_size, printable
from render.theme import DEFAULT_THEME, RGB, Theme, mix

WIDTH = 720
PAD = 16
HEADER_H = 70
PLOT_H = 240
AXIS_W = 44  # room left of the plot for the scale
TICKS_H = 24  # room below the plot for the move numbers
LEGEND_H = 34
INSET = 8  # room inside the plot at both ends, so the first and last marks show whole
SCALE = 2  # the plot is drawn this many times larger, then reduced (smooth lines)
DEFAULT_CAP = 2000
MARK_COLOURS: dict[int, RGB] = {
    1: (255, 214, 66),  # inaccuracy: the turn mark's yellow
    2: (240, 140, 40),  # mistake: orange
    3: (220, 40, 30),  # blunder: red
}
MARK_RADIUS = {1: 4, 2: 5, 3: 6}
TICK_STEPS = (2, 5, 10, 20, 50, 100, 200, 500)
MAX_TICKS = 12


@dataclass(frozen=True)
class Mark:
    """A judged move: ``ply`` (1 = the first move) and ``severity`` (1 inaccuracy, 2 mistake,
    3 blunder)."""

    ply: int
    severity: int


@dataclass(frozen=True)
class GraphWords:
    """Everything written on the graph, in the chat's language: the title (``Analysis:
    Komabot, 300 ms a position``), both players' names as shown (``☗ Alice``), the result
    (``Gote wins by resignation``), and the legend's names of the three classes."""

    title: str
    sente: str
    gote: str
    result: str
    inaccuracy: str
    mistake: str
    blunder: str


def x_of(ply: int, moves: int) -> float:
    """The x (pixels, in the image) of move ``ply`` of a game of ``moves`` moves."""
    left, right = PAD + AXIS_W + INSET, WIDTH - PAD - INSET
    return left + (right - left) * (ply / max(1, moves))


def plot_top() -> int:
    return HEADER_H


def y_of(score: int, cap: int = DEFAULT_CAP) -> float:
    """The y (pixels, in the image) of sente's ``score``, capped at ``±cap``."""
    capped = max(-cap, min(cap, score))
    return plot_top() + PLOT_H / 2 - (PLOT_H / 2 - 6) * capped / cap


def tick_step(moves: int) -> int:
    """The spacing of the numbered moves: at most ``MAX_TICKS`` numbers."""
    return next((s for s in TICK_STEPS if moves / s <= MAX_TICKS), TICK_STEPS[-1])


def graph_image(
    scores: Sequence[int],
    marks: Sequence[Mark],
    words: GraphWords,
    *,
    cap: int = DEFAULT_CAP,
    theme: Theme = DEFAULT_THEME,
) -> Image.Image:
    """The graph as an RGB image; ``scores[i]`` is sente's score after ``i`` moves."""
    if not scores:
        raise ValueError("a graph needs at least the start position's score")
    if cap < 1:
        raise ValueError("the cap must be at least 1 centipawn")
    moves = len(scores) - 1
    height = HEADER_H + PLOT_H + TICKS_H + LEGEND_H
    img = Image.new("RGB", (WIDTH, height), theme.background)
    _header(img, words, theme)
    img.paste(_plot(scores, marks, cap, theme), (PAD + AXIS_W, plot_top()))
    _axes(img, moves, cap, theme)
    _legend(img, words, theme)
    return img


def render_evaluation_graph(
    scores: Sequence[int],
    marks: Sequence[Mark],
    words: GraphWords,
    *,
    cap: int = DEFAULT_CAP,
    theme: Theme = DEFAULT_THEME,
) -> bytes:
    """PNG of :func:`graph_image`."""
    return to_png(graph_image(scores, marks, words, cap=cap, theme=theme))


def _text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    face: Face,
    px: int,
    width: int,
    fill: RGB,
    anchor: str,
) -> None:
    shown, size = fit_size(printable(text), face, px, width, max(9, px - 5))
    draw_text(img, xy, shown, face, size, fill, anchor)


def _header(img: Image.Image, words: GraphWords, theme: Theme) -> None:
    inner = WIDTH - 2 * PAD
    _text(img, (PAD, 20), words.title, Face.BOLD, 18, inner * 3 // 5, theme.label, "lm")
    _text(
        img,
        (WIDTH - PAD, 20),
        words.result,
        Face.LABEL,
        16,
        inner * 2 // 5 - 12,
        theme.turn_mark,
        "rm",
    )
    half = inner // 2 - 8
    sente = display_name(words.sente, "☗")
    gote = display_name(words.gote, "☖")
    _text(img, (PAD, 50), sente, Face.LABEL, 17, half, theme.piece_face, "lm")
    _text(img, (WIDTH - PAD, 50), gote, Face.LABEL, 17, half, theme.label_dim, "rm")


def _plot(scores: Sequence[int], marks: Sequence[Mark], cap: int, theme: Theme) -> Image.Image:
    """The plot area alone, drawn ``SCALE`` times larger and reduced."""
    w, h = (WIDTH - 2 * PAD - AXIS_W) * SCALE, PLOT_H * SCALE
    left = PAD + AXIS_W
    big = Image.new("RGB", (w, h), theme.board)
    draw = ImageDraw.Draw(big)
    moves = len(scores) - 1

    def point(ply: int, score: int) -> tuple[float, float]:
        return (
            (x_of(ply, moves) - left) * SCALE,
            (y_of(score, cap) - plot_top()) * SCALE,
        )

    mid = h / 2
    step = tick_step(max(1, moves))
    for ply in range(step, moves + 1, step):  # faint verticals at the numbered moves
        x = point(ply, 0)[0]
        draw.line((x, 0, x, h), fill=mix(theme.board, theme.grid, 0.18), width=SCALE)
    for quarter in (1, 3):  # faint half-cap lines
        y = h * quarter / 4
        draw.line((0, y, w, y), fill=mix(theme.board, theme.grid, 0.18), width=SCALE)
    points = [point(ply, score) for ply, score in enumerate(scores)]
    if len(points) == 1:
        points.append((float(w), points[0][1]))
    light, dark = theme.piece_face, mix(theme.frame, theme.grid, 0.3)
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        _fill_between(draw, (x0, y0), (x1, y1), mid, light, dark)
    draw.line((0, mid, w, mid), fill=theme.grid, width=SCALE)
    draw.line(points, fill=theme.ink, width=2 * SCALE, joint="curve")
    for mark in sorted(marks, key=lambda m: m.severity):
        if not 0 <= mark.ply <= moves or mark.severity not in MARK_COLOURS:
            continue
        x, y = point(mark.ply, scores[mark.ply])
        r = MARK_RADIUS[mark.severity] * SCALE
        draw.ellipse(
            (x - r, y - r, x + r, y + r),
            fill=MARK_COLOURS[mark.severity],
            outline=theme.ink,
            width=SCALE,
        )
    draw.rectangle((0, 0, w - 1, h - 1), outline=theme.frame, width=2 * SCALE)
    return big.resize((w // SCALE, h // SCALE), Image.Resampling.LANCZOS)


def _fill_between(
    draw: ImageDraw.ImageDraw,
    a: tuple[float, float],
    b: tuple[float, float],
    mid: float,
    above: RGB,
    below: RGB,
) -> None:
    """The area between segment ``a``-``b`` and the midline, split where it crosses it."""
    (x0, y0), (x1, y1) = a, b
    if (y0 - mid) * (y1 - mid) < 0:  # crosses the midline: two triangles
        xc = x0 + (x1 - x0) * (mid - y0) / (y1 - y0)
        _fill_between(draw, a, (xc, mid), mid, above, below)
        _fill_between(draw, (xc, mid), b, mid, above, below)
        return
    colour = above if min(y0, y1) < mid else below
    draw.polygon([(x0, mid), (x0, y0), (x1, y1), (x1, mid)], fill=colour)


def _axes(img: Image.Image, moves: int, cap: int, theme: Theme) -> None:
    """The scale left of the plot (+cap, 0, -cap in pawns) and the move numbers below."""
    for score, label in ((cap, f"+{cap // 100}"), (0, "0"), (-cap, f"-{cap // 100}")):
        y = min(max(y_of(score, cap), plot_top() + 8), plot_top() + PLOT_H - 8)
        draw_text(img, (PAD + AXIS_W - 6, y), label, Face.LABEL, 13, theme.label_dim, "rm")
    step = tick_step(max(1, moves))
    y = plot_top() + PLOT_H + TICKS_H / 2
    for ply in range(0, moves + 1, step):
        draw_text(img, (x_of(ply, moves), y), str(ply), Face.LABEL, 13, theme.label_dim, "mm")


def _legend(img: Image.Image, words: GraphWords, theme: Theme) -> None:
    draw = ImageDraw.Draw(img)
    y = HEADER_H + PLOT_H + TICKS_H + LEGEND_H / 2
    x = PAD + AXIS_W
    slot = (WIDTH - x - PAD) // 3
    for severity, text in ((1, words.inaccuracy), (2, words.mistake), (3, words.blunder)):
        r = MARK_RADIUS[severity]
        draw.ellipse((x, y - r, x + 2 * r, y + r), fill=MARK_COLOURS[severity], outline=theme.ink)
        _text(img, (x + 2 * r + 8, y), text, Face.LABEL, 15, slot - 2 * r - 16, theme.label, "lm")
        x += slot
