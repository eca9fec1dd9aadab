from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageFont

from bot.config import Config
from bot.core.clock import FakeClock
from tests.bot.core.harness import QUICK_MOVETIME_MS, Harness
from tests.bot.core.puzzle_fixtures import one_puzzle_book


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def h(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Harness]:
    config = Config(engine_movetime_ms=QUICK_MOVETIME_MS)
    harness = await Harness(tmp_path / "komabot.sqlite3", clock, config).open()
    yield harness
    await harness.close()


@pytest.fixture
async def p(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Harness]:
    """A harness whose puzzle collection is the one puzzle of :mod:`.puzzle_fixtures`."""
    book = one_puzzle_book(tmp_path)
    harness = await Harness(tmp_path / "komabot.sqlite3", clock, Config(), puzzle_book=book).open()
    yield harness
    await harness.close()


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string drawn on an image while the test runs, with the caches of drawn images,
    parts and texts emptied before and after (so that everything is drawn afresh): what a
    font rasterises (``getmask2``, which ``ImageDraw.text`` and ``draw_text`` both call)."""
    from render.board import part_tile
    from render.cheatsheet import _cheatsheet_png
    from render.diagram import _piece_png
    from render.fonts import _text_mask

    caches = (_cheatsheet_png, _piece_png, _text_mask, part_tile)
    out: list[str] = []
    original = ImageFont.FreeTypeFont.getmask2

    def recording(self: ImageFont.FreeTypeFont, text: Any, *args: Any, **kw: Any) -> Any:
        out.append(str(text))
        return original(self, text, *args, **kw)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", recording)
    for cached in caches:
        cached.cache_clear()
    yield out
    for cached in caches:
        cached.cache_clear()
