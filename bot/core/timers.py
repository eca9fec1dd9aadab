"""Timers: a player's deadline (lost on time), reminders before it, challenges expiring, and
the daily puzzles (:mod:`bot.core.daily_posts`).

A timer's effect happens once: the time-out loss is one game update that exactly one process
wins (the version check), a reminder is one claim of its timer.  What they have to say is
queued as notices in that same transaction and delivered at least once by the delivery (see
:mod:`bot.core.delivery`): sent, then marked delivered; retried when a send fails; sent after a
restart when the process died before or while sending.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from itertools import groupby

from bot.chat import ChatKey
from bot.core import present
from bot.core.api import Reply
from bot.core.clock import Clock
from bot.core.daily_posts import DailyPosts
from bot.core.delivery import MAX_AGE, MAX_ATTEMPTS, Delivery, retry_pause
from bot.core.games import Games, finish
from bot.core.messages import text
from bot.core.opponent.player import BotPlayer
from bot.core.people import People
from bot.core.replies import Replies
from bot.core.shogi_clock import is_live, main_time_left, warns_of_main_time
from bot.store.errors import StoreUnavailable, VersionConflict
from bot.store.interface import Store
from bot.store.models import ENGINE_PLAYER, NewNotice, ReminderRoute, TimerKind, TimerRow
from rules import Termination

log = logging.getLogger("komabot.service")

TIMER_LEASE = 120.0
"""Seconds the timers one pass of :meth:`Timers.fire_due` took are others' to leave alone;
a process that dies meanwhile leaves them due again after that."""


def dm_chat(user_key: str) -> ChatKey:
    """Where a direct message to the user goes: on Telegram the private chat, whose id is the
    user's; on Discord and the console a ``dm:<user id>`` chat the front end resolves."""
    platform, _, uid = user_key.partition(":")
    return ChatKey(platform, uid if platform == "telegram" else f"dm:{uid}")


@dataclass(eq=False)
class Timers:
    """Fires due timers, then sends the notices that are due."""

    store: Store
    clock: Clock
    people: People
    games: Games
    replies: Replies
    delivery: Delivery
    opponent: BotPlayer
    expire_challenge: Callable[[int], Awaitable[object]]  # closes an open challenge and its card
    daily_posts: DailyPosts  # the daily puzzles due

    async def fire_due(self) -> int:
        """Fire every timer whose time has come, then send the notices that are due; return how
        many timers were handled."""
        now = self.clock.now()
        # Leased, so that other processes on the database leave them alone; fired or postponed
        # below, or due again when the lease ends (this process died meanwhile).
        timers = await self.store.claim_timers(now, now + TIMER_LEASE)
        handled = 0
        by_game = [t for t in timers if t.game_id is not None]
        for t in timers:
            if t.kind is TimerKind.CHALLENGE_EXPIRY and t.challenge_id is not None:
                await self.guard(self.expire_challenge(t.challenge_id), [t], now)
                await self.store.mark_fired([t.id], now)
                handled += 1
        by_game.sort(key=lambda t: (t.game_id or 0, t.due_at))
        for _, group in groupby(by_game, key=lambda t: t.game_id):
            batch = list(group)
            deadlines = [t for t in batch if t.kind is TimerKind.DEADLINE]
            reminders = [t for t in batch if t.kind is TimerKind.REMINDER]
            if deadlines:
                # Reminders before a passed deadline are moot; the deadline is marked done by
                # the game update that ends the game (in the same transaction) or, when it no
                # longer holds, here.  A failure postpones it, to be tried again.
                await self.store.mark_fired([t.id for t in reminders], now)
                await self.guard(self.fire_deadline(deadlines[-1], now), deadlines[-1:], now)
            elif reminders:
                await self.guard(self.fire_reminder(reminders, now), reminders, now)
            handled += len(batch)
        handled += await self.daily_posts.fire_due(now)
        if self.opponent.started:  # the bot's turns a process that died had claimed
            await self.opponent.resume()
        await self.delivery.deliver_due()
        return handled

    async def next_due(self) -> float | None:
        """When there is next something to do: a timer, or a notice to (try again to) send."""
        times = [
            await self.store.next_due(),
            await self.delivery.next_due(),
            await self.daily_posts.next_due(),
        ]
        return min((t for t in times if t is not None), default=None)

    async def guard(self, job: Awaitable[object], timers: list[TimerRow], now: float) -> None:
        """Run ``job`` (the firing of ``timers``); when it fails, try them again later (with
        growing pauses), and give up on them after a day of failures."""
        try:
            await job
        except StoreUnavailable:
            raise  # not the timers' fault: their lease runs out and they come due again
        except Exception:
            last = timers[-1]
            log.exception("timer %s (%s) failed", last.id, last.kind.value)
            for timer in timers:
                pause = retry_pause(timer.attempts + 1)
                attempts = await self.store.postpone_timer(timer.id, now + pause)
                if attempts >= MAX_ATTEMPTS or now - timer.due_at >= MAX_AGE:
                    log.error(
                        "timer %s (%s) failed %d times since %.0f; given up",
                        timer.id,
                        timer.kind.value,
                        attempts,
                        timer.due_at,
                    )
                    await self.store.mark_fired([timer.id], now)

    async def fire_deadline(self, timer: TimerRow, now: float) -> None:
        game = await self.store.get_game(timer.game_id or 0)
        if game is None or not game.active or game.deadline != timer.due_at:
            await self.store.mark_fired([timer.id], now)
            return  # the game moved on: this deadline no longer holds
        pos = await self.games.position_of(game)
        loser = pos.side
        ended = finish(game, Termination.TIMEOUT.value, loser ^ 1, now)
        # The notices are written with the result, so the result is never without them.
        settings = await self.store.get_settings(game.chat)
        names = await self.people.names(game, settings.language)
        line = text("clock.timeout", settings.language, name=names[loser])
        shown = replace(ended, version=ended.version + 1)
        reply = await self.replies.game_reply(
            None, shown, [line], pos=pos, settings=settings, now=now
        )
        players = [p for p in (game.sente, game.gote) if p != ENGINE_PLAYER]
        mentions = tuple([await self.people.user(p) for p in players])
        notices = [
            self.delivery.notice(
                "timeout", game.chat, replace(reply, mentions=mentions), now, game_id=game.id
            )
        ]
        for player in players:  # players who asked for DMs hear it there too
            if await self.store.get_reminder_route(player) is ReminderRoute.DM:
                notices.append(
                    self.delivery.notice("timeout", dm_chat(player), reply, now, game_id=game.id)
                )
        try:
            await self.store.update_game(ended, timers=[], notices=notices)
        except VersionConflict:
            return  # a move arrived at the last moment and replaced the timers
        log.info("game %s lost on time by %s", game.id, game.player(loser))

    async def fire_reminder(self, timers: list[TimerRow], now: float) -> None:
        """Remind of the latest due reminder of one game (older ones due too are skipped)."""
        timer = timers[-1]
        ids = [t.id for t in timers]
        game = await self.store.get_game(timer.game_id or 0)
        if (
            game is None
            or not game.active
            or game.deadline is None
            or abs((game.deadline - timer.offset) - timer.due_at) > 1e-6
            or now >= game.deadline
        ):
            await self.store.mark_fired(ids, now)
            return
        pos = await self.games.position_of(game)
        settings = await self.store.get_settings(game.chat)
        lang = settings.language
        names = await self.people.names(game, lang)
        mover = game.player(pos.side)
        live = is_live(game)
        about = dict(name=names[pos.side], game=game.id, opponent=names[pos.side ^ 1])
        if warns_of_main_time(game, timer.offset):
            assert game.time_per_move is not None  # main time goes with a byoyomi
            left = main_time_left(game, pos.side, now)
            line = text(
                "clock.main_time_warning",
                lang,
                left=present.format_seconds(left, lang),
                byoyomi=present.format_duration(game.time_per_move, lang),
                **about,
            )
        else:
            delta = present.format_seconds if live else present.format_delta
            line = text("clock.reminder", lang, left=delta(game.deadline - now, lang), **about)
        deadline = present.format_deadline(
            game.deadline, now, lang, game.chat.platform, precise=live
        )
        reply = Reply(
            line + "\n" + deadline,
            mentions=(await self.people.user(mover),),
            lang=lang,
        )
        notice: NewNotice
        if await self.store.get_reminder_route(mover) is ReminderRoute.DM:
            notice = self.delivery.notice(
                "reminder",
                dm_chat(mover),
                replace(reply, mentions=()),
                now,
                game_id=game.id,
                game_deadline=game.deadline,
                fallback=(game.chat, reply),  # when the direct message does not go through
            )
        else:
            notice = self.delivery.notice(
                "reminder", game.chat, reply, now, game_id=game.id, game_deadline=game.deadline
            )
        claimed = await self.store.mark_fired(ids, now, notices=[notice])
        if timer.id in claimed:
            log.info(
                "reminder for game %s to %s (%.0f s left)", game.id, mover, game.deadline - now
            )
