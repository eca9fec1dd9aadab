"""Names of any length draw in the same time: they are cut to what could fit before measuring."""

from __future__ import annotations

import time
from typing import Any

import pytest

from render import fonts, render_board
from render.fonts import NAME_CHARS, Face, display_name, fit, font, max_chars
from render.options import BoardOptions
from rules import Position, load_variant

BUDGET = 20_000  # characters measured while drawing one board (about 1,500 when names are cut)


class CountingFont:
    """A font that counts the characters it is asked to measure and stops past a budget."""

    def __init__(self, real: Any, counter: list[int]) -> None:
        self._real = real
        self._counter = counter

    def getlength(self, text: str, *args: Any, **kwargs: Any) -> float:
        self._counter[0] += len(text)
        if self._counter[0] > BUDGET:
            raise AssertionError(f"measured more than {BUDGET} characters")
        return float(self._real.getlength(text, *args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@pytest.mark.parametrize("length", [5_000, 100_000])
@pytest.mark.parametrize("variant_id", ["shogi", "wa-drops"])
def test_a_huge_name_draws_quickly_with_bounded_measuring(
    length: int, variant_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pos = Position.start(load_variant(variant_id))
    render_board(pos, BoardOptions(sente_name="Al", gote_name="Bo"))  # warm caches
    measured = [0]
    monkeypatch.setattr(fonts, "font", lambda face, px: CountingFont(font(face, px), measured))
    sente, gote = "W" * length, "ш i" * (length // 3)
    result = "Checkmate: " + "Ж" * length
    started = time.perf_counter()
    render_board(pos, BoardOptions(sente_name=sente, gote_name=gote))
    render_board(pos, BoardOptions(sente_name=sente, gote_name=gote, result=result))
    assert time.perf_counter() - started < 2.0
    assert 0 < measured[0] <= BUDGET


def test_display_name_looks_at_a_bounded_prefix() -> None:
    assert display_name("Ōta" * 100_000, "Sente") == ("Ōta" * 100_000)[:NAME_CHARS]
    assert display_name("   " + "x" * 10 + " " * 100_000, "Sente") == "x" * 10
    assert display_name(" " * 100_000, "Gote") == "Gote"


def slow_fit(text: str, face: Face, px: int, width: int) -> str:
    """What ``fit`` did before: drop a character at a time."""
    f = font(face, px)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


@pytest.mark.parametrize(
    "text",
    ["Alice", "Hanako Yamada-Suzuki", "Алексей Константинович", "iiiiiiiiiiiiiiiiiiiiiiiiii", ""],
)
@pytest.mark.parametrize("width", [0, 12, 40, 90, 200, 400])
def test_fit_cuts_where_it_always_did(text: str, width: int) -> None:
    for face in (Face.LABEL, Face.BOLD):
        assert fit(text, face, 18, width) == slow_fit(text, face, 18, width)


def test_nothing_longer_than_max_chars_fits() -> None:
    for face in Face:
        for px in (10, 23, 77):
            narrowest = min(font(face, px).getlength(c) for c in fonts._covered())
            assert (max_chars(face, px, 300) + 1) * narrowest > 300
