from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

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
