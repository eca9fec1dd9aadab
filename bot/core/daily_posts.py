"""The daily puzzle's posts: one shared puzzle a day in each chat that asked for it, at its
hour (UTC), exactly once however many processes run and across restarts.

A chat's setting holds when its next post is due (``daily_puzzles.next_at``).  Posting claims
it by moving ``next_at`` on to the next day's hour in the one transaction that also records
the day's puzzle and queues the post as a notice: the process that wins the claim posts,
others find nothing due; a process that dies before the commit leaves the post due (made
after the restart), one that dies after it leaves the notice to the delivery (sent after the
restart, at least once, with one idempotency key).  A post missed while the bot was down is
made when it comes back, once, and the next one is at the hour again.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from bot.core.api import Attachment, Button, ChatKey, Reply
from bot.core.delivery import Delivery
from bot.core.messages import plural, text
from bot.core.pictures import Pictures
from bot.core.present.puzzles import (
    attacker_of,
    hands_line,
    puzzle_image,
    puzzle_names,
    puzzle_text_board,
    task_line,
)
from bot.core.puzzle_book import PuzzleBook
from bot.store.errors import StoreUnavailable
from bot.store.interface import Store
from bot.store.models import ChatSettings, DailyPuzzleChat
from puzzles.puzzle import Puzzle
from rules import Position, load_variant

log = logging.getLogger("komabot.service")

DAY = 86_400.0
DAILY_LEVEL = 1375.0
"""The puzzle rating a daily puzzle is picked near: a mate in 3 for most chats."""
RETRY = 300.0
"""Seconds before a post that failed (not the database: a bug, a bad file) is tried again."""


def next_post(minute: int, now: float) -> float:
    """The first time after ``now`` that is ``minute`` minutes after a midnight UTC."""
    at = (now // DAY) * DAY + minute * 60
    return at if at > now else at + DAY


def day_of(when: float) -> str:
    """The UTC date of ``when``: ``2026-11-26``."""
    return datetime.fromtimestamp(when, UTC).date().isoformat()


def day_before(day: str) -> str:
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


@dataclass(eq=False)
class DailyPosts:
    """Posts the daily puzzles that are due (called by :class:`~bot.core.timers.Timers`)."""

    store: Store
    book: PuzzleBook
    pictures: Pictures
    delivery: Delivery
    edit_card: Callable[[ChatKey, str, Reply], Awaitable[None]]
    _edits: set[asyncio.Future[None]] = field(default_factory=set)

    async def next_due(self) -> float | None:
        return await self.store.next_daily_due()

    async def fire_due(self, now: float) -> int:
        """Post every daily puzzle due at ``now``; how many chats were handled."""
        handled = 0
        for daily in await self.store.due_daily_puzzles(now):
            try:
                await self.post(daily, now)
            except StoreUnavailable:
                raise  # the post stays due: made once the database is back
            except Exception:
                log.exception("daily puzzle of %s failed", daily.chat.key)
                await self.store.set_daily_puzzle(daily.chat, daily.minute, now + RETRY)
            handled += 1
        return handled

    async def post(self, daily: DailyPuzzleChat, now: float) -> bool:
        """Claim and post ``daily``'s puzzle; False when another process did, or the chat has
        its puzzle of the day already."""
        chat = daily.chat
        # the day the post was due, unless it is more than a day late (the bot was down)
        day = day_of(daily.next_at if now - daily.next_at < DAY else now)
        variant = await self.store.latest_variant(chat) or "shogi"
        done = await self.store.daily_posted(chat)
        ratings = await self.store.puzzle_difficulties()
        rng = random.Random(f"{chat.key} {day}")  # the same choice in any process
        puzzle = self.book.pick(variant, DAILY_LEVEL, done, ratings, rng)
        upcoming = next_post(daily.minute, now)
        if puzzle is None:  # no collection for the variant: nothing to post today
            await self.store.set_daily_puzzle(chat, daily.minute, upcoming)
            return False
        settings = await self.store.get_settings(chat)
        yesterday = await self.store.daily_post(chat, day_before(day))
        solved = await self.store.daily_solvers(chat, yesterday[0]) if yesterday else None
        reply = await self.post_reply(puzzle, day, settings, solved, 0)
        notice = self.delivery.notice("daily_puzzle", chat, reply, now)
        posted = await self.store.post_daily_puzzle(daily, upcoming, day, puzzle.id, [notice], now)
        if posted:
            log.info("daily puzzle %s for %s in %s", puzzle.id, day, chat.key)
        return posted

    async def post_reply(
        self,
        puzzle: Puzzle,
        day: str,
        settings: ChatSettings,
        yesterday: int | None,
        solvers: int,
    ) -> Reply:
        """The post of ``day``'s puzzle (a card, edited as solvers come: ``solvers`` so far;
        ``yesterday``: how many solved the previous day's, None when there was none)."""
        lang = settings.language
        pos = Position.from_sfen(load_variant(puzzle.variant), puzzle.sfen)
        attacker = attacker_of(puzzle)
        lines = [
            text("puzzle.daily.post", lang, day=day, puzzle=puzzle.id),
            task_line(puzzle, lang),
            hands_line(pos, lang),
            text("board.sfen", lang, sfen=pos.sfen()),
            text("puzzle.daily.how", lang),
            text(
                "puzzle.daily.of_day", lang, day=day,
                solvers=plural("puzzle.daily.solvers", lang, solvers),
            ),
        ]  # fmt: skip
        if yesterday is not None:
            lines.append(plural("puzzle.daily.yesterday", lang, yesterday))
        names = puzzle_names(puzzle, text("puzzle.attacker", lang), lang)
        image: Attachment | None = None
        if self.pictures.enabled:
            image = await self.pictures.draw(puzzle_image, pos, settings, names, attacker, ())
        board = puzzle_text_board(pos, settings, names, attacker)
        solve = Button(text("button.puzzle_daily", lang), "puzzle daily", "primary")
        return Reply(
            "\n".join(lines),
            image=image,
            text_board=board,
            buttons=((solve,),),
            lang=lang,
            card=f"daily:{day}",
        )

    def count_solvers(self, chat: ChatKey, day: str, puzzle: Puzzle) -> None:
        """Edit the post of ``day`` in ``chat`` to say how many have solved it (in the
        background: the solver's answer does not wait for it)."""
        task = asyncio.ensure_future(self._edit_post(chat, day, puzzle))
        self._edits.add(task)
        task.add_done_callback(self._edits.discard)

    async def _edit_post(self, chat: ChatKey, day: str, puzzle: Puzzle) -> None:
        try:
            settings = await self.store.get_settings(chat)
            yesterday = await self.store.daily_post(chat, day_before(day))
            before = await self.store.daily_solvers(chat, yesterday[0]) if yesterday else None
            solvers = await self.store.daily_solvers(chat, day)
            reply = await self.post_reply(puzzle, day, settings, before, solvers)
            await self.edit_card(chat, f"daily:{day}", reply)
        except Exception:  # the count shows again with the next solver's edit
            log.exception("editing the daily puzzle post of %s failed", chat.key)

    async def settle(self) -> None:
        """Wait for the post edits under way (and those a reply just handed back starts)."""
        await asyncio.sleep(0)  # a reply's after-jobs (Context.after) start on the next turn
        while self._edits:
            await asyncio.gather(*self._edits, return_exceptions=True)
