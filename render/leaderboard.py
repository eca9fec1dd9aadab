"""A leaderboard page as an image: a title, column headings and up to ten ranked players.

Every text arrives in the chat's language; players' names may hold anything, so they are drawn
through :func:`render.fonts.display_name` (what the fonts lack becomes ``?``) and cut to their
column with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.diagram import to_png
from render.fonts import Face, display_name, draw_text, fit, printable
from render.theme import DEFAULT_THEME, Theme, mix

WIDTH = 640
PAD = 24
TITLE_PX = 20
HEAD_PX = 15
ROW_PX = 20
TITLE_H = 56
HEAD_H = 30
ROW_H = 38
PLACE_W = 56  # the place column ("10.")
RATING_W = 110
GAMES_W = 80
MEDALS = ((255, 214, 66), (214, 214, 224), (214, 150, 90))  # gold, silver, bronze places


@dataclass(frozen=True)
class Entry:
    """One row: the place (1 first), the name, the rating as shown, the games, and whether it
    is the asker's own (drawn highlighted)."""

    place: int
    name: str
    rating: str
    games: str
    own: bool = False


def leaderboard_image(
    title: str,
    entries: Sequence[Entry],
    headers: tuple[str, str, str],
    theme: Theme = DEFAULT_THEME,
) -> Image.Image:
    """The page as an RGB image; ``headers`` are the player, rating and games headings."""
    height = TITLE_H + HEAD_H + ROW_H * len(entries) + PAD
    img = Image.new("RGB", (WIDTH, height), theme.background)
    draw = ImageDraw.Draw(img)
    inner = WIDTH - 2 * PAD
    draw_text(
        img,
        (PAD, TITLE_H / 2),
        _fit(title, Face.BOLD, TITLE_PX, inner),
        Face.BOLD,
        TITLE_PX,
        theme.label,
        "lm",
    )
    games_x = WIDTH - PAD  # right edges of the number columns
    rating_x = games_x - GAMES_W
    name_x = PAD + PLACE_W
    name_w = rating_x - RATING_W - name_x
    y = TITLE_H + HEAD_H / 2
    player, rating, games = headers
    draw_text(
        img,
        (name_x, y),
        _fit(player, Face.LABEL, HEAD_PX, name_w),
        Face.LABEL,
        HEAD_PX,
        theme.label_dim,
        "lm",
    )
    for text, right, width in ((rating, rating_x, RATING_W), (games, games_x, GAMES_W)):
        draw_text(
            img,
            (right, y),
            _fit(text, Face.LABEL, HEAD_PX, width - 8),
            Face.LABEL,
            HEAD_PX,
            theme.label_dim,
            "rm",
        )
    draw.line((PAD, TITLE_H + HEAD_H, WIDTH - PAD, TITLE_H + HEAD_H), fill=theme.label_dim)
    for n, entry in enumerate(entries):
        top = TITLE_H + HEAD_H + n * ROW_H
        if entry.own:
            draw.rectangle(
                (PAD - 8, top + 2, WIDTH - PAD + 8, top + ROW_H - 2),
                fill=mix(theme.background, theme.komadai_active, 0.6),
            )
        elif n % 2:
            draw.rectangle(
                (PAD - 8, top, WIDTH - PAD + 8, top + ROW_H),
                fill=mix(theme.background, theme.label, 0.06),
            )
        mid = top + ROW_H / 2
        place_colour = MEDALS[entry.place - 1] if entry.place <= len(MEDALS) else theme.label_dim
        draw_text(img, (name_x - 12, mid), f"{entry.place}.", Face.BOLD, ROW_PX, place_colour, "rm")
        name = _fit(display_name(entry.name, "?"), Face.LABEL, ROW_PX, name_w)
        draw_text(img, (name_x, mid), name, Face.LABEL, ROW_PX, theme.label, "lm")
        draw_text(
            img,
            (rating_x, mid),
            printable(entry.rating),
            Face.BOLD,
            ROW_PX,
            theme.turn_mark if entry.own else theme.label,
            "rm",
        )
        draw_text(
            img, (games_x, mid), printable(entry.games), Face.LABEL, ROW_PX, theme.label_dim, "rm"
        )
    return img


def _fit(text: str, face: Face, px: int, width: int) -> str:
    return fit(printable(text), face, px, width)


def render_leaderboard(
    title: str,
    entries: Sequence[Entry],
    headers: tuple[str, str, str],
    theme: Theme = DEFAULT_THEME,
) -> bytes:
    """PNG of :func:`leaderboard_image`."""
    return to_png(leaderboard_image(title, entries, headers, theme))
