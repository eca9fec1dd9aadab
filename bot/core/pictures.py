"""Pictures off the event loop: board images on a thread of their own, other pictures (pieces,
cheat sheets, leaderboards) on another, never in a board's way."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from bot.core import present
from bot.core.api import Attachment
from bot.store.models import ChatSettings, GameRow
from rules import Position

log = logging.getLogger("komabot.service")
T = TypeVar("T")


class Pictures:
    """Draws on its threads; ``enabled`` False draws no board at all (text boards only)."""

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled
        # Board images, one at a time: drawing is mostly Python under the interpreter lock, so
        # a second board thread only makes two boards share it (bench/service.py, 1,000 games,
        # back to back: one thread 242-256 moves/s, p99 19.4-20.7 ms; two 230-232, 21.1-23.2).
        self._boards = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-board")
        self._drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-draw")

    def start_board(
        self, game: GameRow, pos: Position, settings: ChatSettings, names: tuple[str, str]
    ) -> asyncio.Future[Attachment | None]:
        """The board image of ``game`` at ``pos`` as the chat's ``settings`` draw it, started
        now (``pos`` is copied first: it may change meanwhile); await the result when needed.
        A finished game's image says the result."""
        result = present.result_caption(game, names, settings.language)  # "" while it goes on
        return asyncio.ensure_future(
            self.board_attachment(pos.copy(), settings, names, result=result)
        )

    async def board_attachment(
        self,
        pos: Position,
        settings: ChatSettings,
        names: tuple[str, str],
        highlights: tuple[int, ...] = (),
        result: str = "",
    ) -> Attachment | None:
        """The board PNG, drawn on the board thread (the loop keeps serving); None if off.
        ``result`` is a finished game's caption (``present.result_caption``)."""
        if not self.enabled:
            return None
        board = functools.partial(present.board_image, pos, settings, names, highlights, result)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._boards, board)
        except Exception:
            # The answer still goes out (with the text board): what was done stays visible.
            log.exception("drawing the board failed")
            return None

    async def draw(self, fn: Callable[..., T], *args: object) -> T:
        """Run an image function other than a board on its own thread, off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._drawing, functools.partial(fn, *args))

    def close(self) -> None:
        self._boards.shutdown(wait=False)
        self._drawing.shutdown(wait=False)
