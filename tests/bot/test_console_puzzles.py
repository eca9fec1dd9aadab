"""/puzzle in the console front end: the board as text and as a saved picture, solved, failed,
hinted and revealed."""

from __future__ import annotations

import io
from pathlib import Path

from bot.config import Config
from bot.console_front import ConsoleFrontEnd
from bot.core.service import GameService
from bot.store import SqliteStore
from tests.bot.core.puzzle_fixtures import ESCAPING_CHECK, KEY, MATE, QUIET, one_puzzle_book


async def test_a_puzzle_in_the_console(tmp_path: Path) -> None:
    config = Config(console_out=tmp_path / "img")
    out = io.StringIO()
    front = ConsoleFrontEnd(config, stdin=io.StringIO(""), stdout=out, banner=False)
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    book = one_puzzle_book(tmp_path)
    service = GameService(store, config, outboxes={"console": front}, puzzle_book=book)

    async def said(line: str) -> str:
        before = len(out.getvalue())
        await front.line(line, service.handle)
        return out.getvalue()[before:]

    try:
        given = await said("/puzzle")
        assert "Sente to play and mate in 3." in given and "SFEN" in given
        assert " vK" in given and "image: " in given  # the text board and the picture
        assert "Hint: drop a Gold General from the hand." in await said("/puzzle hint")
        assert "is not a check" in await said(f"/puzzle {QUIET}")
        assert "the king escapes" in await said(f"/puzzle {ESCAPING_CHECK}")
        assert "right. The defence answers Gx5b." in await said(f"/move {KEY}")
        solved = await said(f"/puzzle {MATE}")
        assert "checkmate!" in solved and "counts as not solved" in solved
        await said("/as bob")
        await said("/puzzle")
        assert "Solution: 1. G*5b 2. Gx5b 3. +Bx5b" in await said("/puzzle solution")
        images = [p for p in (tmp_path / "img").iterdir() if p.name.endswith("puzzle.png")]
        assert images and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    finally:
        await service.drain()
        await store.close()
