"""Pictures off the event loop: board images in worker processes once started
(``bot.core.board_process``: on the other core, beside the loop), else on a thread of their
own; other pictures (pieces, cheat sheets, leaderboards) on another thread, never in a board's
way."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from bot.core import present
from bot.core.api import Attachment
from bot.core.board_process import BoardProcesses, DrawerLost
from bot.store.models import ChatSettings, GameRow
from render.board_job import BoardJob, board_job, draw_board_job
from rules import Position

log = logging.getLogger("komabot.service")
T = TypeVar("T")


class Pictures:
    """Draws on its threads, boards in worker processes after ``start``; ``enabled`` False
    draws no board at all (text boards only)."""

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled
        # Board images, one at a time: drawing is mostly Python under the interpreter lock, so
        # a second board thread only makes two boards share it (bench/service.py, 1,000 games,
        # back to back: one thread 242-256 moves/s, p99 19.4-20.7 ms; two 230-232, 21.1-23.2).
        self._boards = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-board")
        self._drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-draw")
        self.processes: BoardProcesses | None = None

    def start(self, processes: int = 1, *, warm: bool = True) -> None:
        """Draw boards in ``processes`` worker processes from now on (they start in the
        background, warming their caches unless not ``warm``; until one is ready, its boards
        are drawn on the board thread)."""
        if self.enabled and self.processes is None:
            self.processes = BoardProcesses(processes, warm=warm)
            self.processes.start()

    def start_board(
        self, game: GameRow, pos: Position, settings: ChatSettings, names: tuple[str, str]
    ) -> asyncio.Future[Attachment | None]:
        """The board image of ``game`` at ``pos`` as the chat's ``settings`` draw it, started
        now (what it needs of ``pos`` is taken now: it may change meanwhile); await the result
        when needed.  A finished game's image says the result."""
        result = present.result_caption(game, names, settings.language)  # "" while it goes on
        job = self._job(pos, settings, names, (), result)
        return asyncio.ensure_future(self._attachment(job, game.id))

    async def board_attachment(
        self,
        pos: Position,
        settings: ChatSettings,
        names: tuple[str, str],
        highlights: tuple[int, ...] = (),
        result: str = "",
        game: int = 0,
    ) -> Attachment | None:
        """The board PNG, drawn beside the loop (the loop keeps serving); None if off.
        ``result`` is a finished game's caption (``present.result_caption``); ``game`` the
        game's id: a game's boards go to one worker process (its caches hold the last one)."""
        return await self._attachment(self._job(pos, settings, names, highlights, result), game)

    def _job(
        self,
        pos: Position,
        settings: ChatSettings,
        names: tuple[str, str],
        highlights: tuple[int, ...],
        result: str,
    ) -> BoardJob | None:
        """What drawing the board takes, as values (None if boards are off)."""
        if not self.enabled:
            return None
        gote_bottom = present.gote_at_bottom(pos, settings)
        options = present.board_options(settings, names, gote_bottom, highlights, result)
        return board_job(pos, options)

    async def _attachment(self, job: BoardJob | None, game: int) -> Attachment | None:
        if job is None:
            return None
        try:
            png = await self._board_png(job, game)
        except Exception:
            # The answer still goes out (with the text board): what was done stays visible.
            log.exception("drawing the board failed")
            return None
        return Attachment(png, "board.png", "image/png")

    async def _board_png(self, job: BoardJob, game: int) -> bytes:
        """``job`` drawn by a worker process if one is ready, else on the board thread."""
        if self.processes is not None:
            try:
                png = await self.processes.draw(game, job)
            except DrawerLost as exc:
                log.warning("a board is drawn here instead: %s", exc)
                png = None
            if png is not None:
                return png
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._boards, draw_board_job, job)

    async def draw(self, fn: Callable[..., T], *args: object) -> T:
        """Run an image function other than a board on its own thread, off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._drawing, functools.partial(fn, *args))

    def close(self) -> None:
        if self.processes is not None:
            self.processes.close()
        self._boards.shutdown(wait=False)
        self._drawing.shutdown(wait=False)
