"""The daily puzzle's commands: ``/settings puzzle daily HH:MM`` (or ``off``) by those who
manage the chat, today's puzzle for ``/puzzle daily``, and the count of its solvers with the
solver's streak once solved.  The posts themselves are :mod:`bot.core.daily_posts`'s."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.api import Reply
from bot.core.args import shown
from bot.core.clock import Bell
from bot.core.context import Context, UserError
from bot.core.daily_posts import DailyPosts, day_before, next_post
from bot.core.handlers.settings import Settings
from bot.core.messages import plural
from bot.store.interface import Store
from bot.store.models import PuzzleSession
from puzzles.puzzle import Puzzle

OFF_WORDS = frozenset({"off", "none", "no", "stop", "выкл", "オフ", "wył"})
DAILY_WORDS = frozenset({"daily", "day", "today", "дня", "今日", "dnia"})
_HOUR = re.compile(r"([0-9]{1,2})(?::([0-9]{2}))?", re.ASCII)


def read_hour(word: str) -> int | None:
    """``09:00``, ``9:30``, ``21`` -> minutes after midnight; anything else None."""
    m = _HOUR.fullmatch(word.strip().lower().removesuffix("utc"))
    if not m:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def hour_text(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


@dataclass(eq=False)
class DailyPuzzle:
    """The daily puzzle as players and those who manage the chat ask about it."""

    store: Store
    bell: Bell  # rung when a chat's hour changed (the scheduler then looks again)
    posts: DailyPosts  # whose post is edited as solvers come

    async def cmd_setting(self, ctx: Context, words: list[str]) -> Reply:
        """``/settings puzzle [daily] HH:MM|off``: the chat's daily puzzle hour (UTC); with
        nothing after it, what it is."""
        if words and words[0].lower() in DAILY_WORDS:
            words = words[1:]
        if not words:
            daily = await self.store.daily_puzzle_chat(ctx.chat)
            if daily is None:
                return Reply(ctx.t("puzzle.daily.setting_off"))
            return Reply(ctx.t("puzzle.daily.setting_on", hour=hour_text(daily.minute)))
        if len(words) > 1:
            raise UserError("puzzle.daily.bad_hour", word=shown(" ".join(words)))
        Settings.require_settings_admin(ctx)
        if words[0].lower() in OFF_WORDS:
            await self.store.set_daily_puzzle(ctx.chat, None, 0.0)
            self.bell.ring()
            return Reply(ctx.t("puzzle.daily.turned_off"))
        minute = read_hour(words[0])
        if minute is None:
            raise UserError("puzzle.daily.bad_hour", word=shown(words[0]))
        await self.store.set_daily_puzzle(ctx.chat, minute, next_post(minute, ctx.now))
        self.bell.ring()
        return Reply(ctx.t("puzzle.daily.turned_on", hour=hour_text(minute)))

    async def todays(self, ctx: Context) -> tuple[str, str]:
        """The chat's latest daily puzzle: (day, puzzle id); refused when it has none."""
        post = await self.store.daily_post(ctx.chat)
        if post is None:
            raise UserError("puzzle.daily.none")
        return post

    async def solvers_line(self, ctx: Context, day: str) -> str:
        count = await self.store.daily_solvers(ctx.chat, day)
        return ctx.t(
            "puzzle.daily.of_day", day=day, solvers=plural("puzzle.daily.solvers", ctx.lang, count)
        )

    async def solved_line(self, ctx: Context, session: PuzzleSession, puzzle: Puzzle) -> str:
        """A daily puzzle solved (no wrong move): counted, the streak grown, the post edited
        to say how many have solved it, once the answer is on its way; what to say."""
        chat = ctx.chat
        if chat.chat_id != session.chat_id or chat.platform != session.platform:
            chat = type(chat)(session.platform, session.chat_id)  # counted where it was asked
        day = session.daily_day
        done = await self.store.record_daily_solve(
            chat, day, day_before(day), session.player, ctx.now
        )
        ctx.after.append(lambda: self.posts.count_solvers(chat, day, puzzle))
        solvers = plural("puzzle.daily.solvers", ctx.lang, done.solvers)
        said = ctx.t("puzzle.daily.of_day", day=day, solvers=solvers)
        return said + " " + plural("puzzle.daily.streak", ctx.lang, done.streak)
