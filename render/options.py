"""What a caller can ask of a board image: a frozen value with defaults for phones."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from render.theme import DEFAULT_THEME, Theme
from rules import Move

Perspective = Literal["sente", "gote"]
Style = Literal["kanji", "international"]
Coordinates = Literal["western", "japanese"]  # how the labels around the board write squares
PERSPECTIVES: tuple[Perspective, ...] = ("sente", "gote")
STYLES: tuple[Style, ...] = ("kanji", "international")
COORDINATES: tuple[Coordinates, ...] = ("western", "japanese")
DEFAULT_SIZE = 720  # image width in pixels; phones scale it to the screen width
MIN_SIZE, MAX_SIZE = 240, 2400
DEFAULT_MAX_BYTES = 8_000_000  # replay GIFs: Discord's default upload limit (Telegram allows more)


@dataclass(frozen=True)
class Labels:
    """The words drawn on a board image (English by default; the bot passes its own)."""

    sente: str = "Sente"
    gote: str = "Gote"
    move: str = "Move {n}"
    played: str = "{n}. {mark}{move}"  # a replay frame's header: the move just played
    to_move: str = "{name} to move"
    check: str = "Check!"


@dataclass(frozen=True)
class DiagramWords:
    """The words drawn on piece diagrams and cheat sheets (English by default; the bot passes
    its own); ``lang`` picks the piece and variant names from the variant files."""

    lang: str = "en"
    pieces_and_promotions: str = "pieces and promotions"
    promoted: str = "promoted: {name}"
    does_not_promote: str = "does not promote"
    king: str = "king"
    one_step: str = "one step"
    jump: str = "jump over pieces"
    slide: str = "slide any distance"
    slide_at_most: str = "slide at most {n}"

    def name(self, names: Mapping[str, str]) -> str:
        """A piece's or variant's name in ``lang`` (English when the file has none)."""
        return names.get(self.lang) or names["en"]


@dataclass(frozen=True)
class BoardOptions:
    """How to draw a board.  ``highlight`` holds square indices to mark with dots."""

    perspective: Perspective = "sente"
    style: Style = "kanji"
    coordinates: Coordinates = "western"
    size: int = DEFAULT_SIZE
    highlight: tuple[int, ...] = ()
    last_move: Move | None = None  # None: the position's own last move
    last_move_text: str = ""  # that move in words: the header names it (``Labels.played``)
    show_last_move: bool = True
    sente_name: str = ""
    gote_name: str = ""
    show_header: bool = True
    labels: Labels = field(default_factory=Labels)
    result: str = ""  # a finished game's result in words: shown instead of whose turn it is
    theme: Theme = DEFAULT_THEME

    def __post_init__(self) -> None:
        if self.perspective not in PERSPECTIVES:
            raise ValueError(f"perspective must be one of {PERSPECTIVES}, not {self.perspective!r}")
        if self.style not in STYLES:
            raise ValueError(f"style must be one of {STYLES}, not {self.style!r}")
        if self.coordinates not in COORDINATES:
            raise ValueError(f"coordinates must be one of {COORDINATES}, not {self.coordinates!r}")
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"size must be between {MIN_SIZE} and {MAX_SIZE}, not {self.size}")
