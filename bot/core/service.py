"""The game service: answers every :class:`Request` with a :class:`Reply`, fires timers.

``GameService.handle`` is the one entry point front ends call.  It never raises: refusals
become ephemeral replies from the message catalogue, unexpected failures a short apology (the
traceback goes to the log).  Each handled request writes one log line.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from itertools import groupby

from bot.core import present
from bot.core.api import Reply, Request
from bot.core.base import Context, UserError
from bot.core.bot_player import BotPlayer
from bot.core.challenges import ChallengeCommands
from bot.core.commands import COMMANDS, HIDDEN_COMMANDS, find_command
from bot.core.delivery import MAX_AGE, MAX_ATTEMPTS, Delivery, retry_pause
from bot.core.engine_runner import Engine, EngineRunner
from bot.core.history import History
from bot.core.info import InfoCommands
from bot.core.leaderboard import Leaderboard
from bot.core.messages import text
from bot.core.play import PlayCommands
from bot.core.positions import DamagedRecordError
from bot.core.ratings import Ratings
from bot.store.errors import ReadOnlyStore, StoreFull, VersionConflict
from bot.store.models import (
    ENGINE_PLAYER,
    ChatKey,
    NewNotice,
    ReminderRoute,
    TimerKind,
    TimerRow,
)
from rules import Termination

log = logging.getLogger("komabot.service")
request_log = logging.getLogger("komabot.request")

Handler = Callable[[Context], Awaitable[Reply]]
HIDDEN = {c.name: c for c in HIDDEN_COMMANDS}
TIMER_LEASE = 120.0
"""Seconds the timers one pass of :meth:`GameService.fire_due` took are others' to leave alone;
a process that dies meanwhile leaves them due again after that."""


class GameService(ChallengeCommands, PlayCommands, InfoCommands):
    """Platform-neutral game service over a :class:`~bot.store.Store`.

    ``engine`` answers for the bot in games against it (by default the built-in engine in
    worker processes, and an external USI engine where the configuration names one)."""

    def __init__(self, *args: object, engine: Engine | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.delivery = Delivery(self.store, self.clock, self.outboxes)
        self.bot_player = BotPlayer(self, engine or EngineRunner.from_config(self.config))
        self.ratings = Ratings(self)
        capabilities = {  # modules of their own
            "play": self.bot_player.cmd_play,
            "rating": self.ratings.cmd_rating,
            "leaderboard": Leaderboard(self).cmd_leaderboard,
            "history": History(self).cmd_history,
        }
        self._handlers: dict[str, Handler] = {
            c.name: capabilities.get(c.name) or getattr(self, f"cmd_{c.name}")
            for c in (*COMMANDS, *HIDDEN_COMMANDS)
        }
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False

    # --- requests -----------------------------------------------------------------------

    async def handle(self, request: Request) -> Reply:
        """Answer one request; never raises."""
        started = time.perf_counter()
        command = find_command(request.command) or HIDDEN.get(request.command)
        lang = "en"  # the chat's, once its settings are read
        name = command.name if command else request.command[:32]
        outcome = "ok"
        self._inflight += 1
        self._idle.clear()
        try:
            if self._closing:
                outcome = "closing"
                return Reply(text("error.shutting_down"), ephemeral=True)
            chat = request.chat
            settings = await self.store.get_settings(chat)
            lang = settings.language
            if command is None:
                outcome = "unknown_command"
                return self.unknown_command(request.command, lang)
            await self.remember_quietly(request.user, request.target)
            ctx = Context(request, chat, request.user.key, settings, self.clock.now())
            try:
                reply = await self._handlers[command.name](ctx)
                for job in ctx.after:  # once the reply is on its way (see Context.after)
                    asyncio.get_running_loop().call_soon(job)
                return replace(reply, lang=lang)
            except UserError as exc:
                outcome = f"refused:{exc.key}"
                said = ctx.t(exc.key, **exc.params)
                return Reply(said, buttons=exc.buttons, ephemeral=True, lang=lang)
            except VersionConflict as exc:
                outcome = "conflict"
                return replace(await self.conflict_reply(ctx, exc), lang=lang)
            except ReadOnlyStore as exc:
                outcome = "read_only"
                log.error("/%s in %s not saved: %s", name, request.chat.key, exc)
                return Reply(ctx.t("error.read_only"), ephemeral=True, lang=lang)
            except StoreFull as exc:
                outcome = "disk_full"
                log.error("/%s in %s not saved: %s", name, request.chat.key, exc)
                return Reply(ctx.t("error.disk_full"), ephemeral=True, lang=lang)
            except DamagedRecordError as exc:
                outcome = "damaged_record"
                log.error("damaged game record: %s", exc)
                return Reply(
                    ctx.t(
                        "error.record_damaged", game=exc.game_id, ply=exc.ply, problem=exc.problem
                    ),
                    ephemeral=True,
                    lang=lang,
                )
        except Exception:
            outcome = "error"
            log.exception("request /%s in %s failed", name, request.chat.key)
            return Reply(text("error.internal", lang, command=name), ephemeral=True, lang=lang)
        finally:
            self._inflight -= 1
            if not self._inflight:
                self._idle.set()
            request_log.info(
                "command=%s chat=%s user=%s outcome=%s ms=%.1f",
                name,
                request.chat.key,
                request.user.key,
                outcome,
                (time.perf_counter() - started) * 1000,
            )

    def unknown_command(self, word: str, lang: str = "en") -> Reply:
        names = [c.name for c in COMMANDS] + [a for c in COMMANDS for a in c.aliases]
        close = difflib.get_close_matches(word.lower().lstrip("/"), names, n=3, cutoff=0.6)
        canonical = list(dict.fromkeys(c.name for w in close if (c := find_command(w))))
        hint = (
            text(
                "error.unknown_command.hint_similar",
                lang,
                options=", ".join("/" + n for n in canonical),
            )
            if canonical
            else text("error.unknown_command.hint", lang)
        )
        said = text("error.unknown_command", lang, command=word[:40], hint=hint)
        return Reply(said, ephemeral=True, lang=lang)

    async def conflict_reply(self, ctx: Context, exc: VersionConflict) -> Reply:
        """Say that the request lost a race, with the board as it is now."""
        game = await self.store.active_game(ctx.chat, ctx.user)
        if game is None:
            return Reply(str(exc), ephemeral=True)
        reply = await self.game_reply(
            ctx,
            game,
            [ctx.t("error.conflict", game=game.id, reason=ctx.t("error.conflict.move"))],
            mention_mover=False,
            announce=False,
        )
        return Reply(reply.text, image=reply.image, ephemeral=True, text_board=reply.text_board)

    # --- shutdown -----------------------------------------------------------------------

    async def drain(self, timeout: float = 30.0) -> bool:
        """Refuse new requests and wait for those in flight; False if the wait timed out."""
        self._closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        await self.bot_player.close()
        await self.delivery.settle()
        self._boards.shutdown(wait=False)
        self._drawing.shutdown(wait=False)
        self._rebuilding.shutdown(wait=False)
        self.exports.close()
        return True

    # --- timers -------------------------------------------------------------------------
    #
    # A timer's effect happens once: the time-out loss is one game update that exactly one
    # process wins (the version check), a reminder is one claim of its timer.  What they have
    # to say is queued as notices in that same transaction and delivered at least once by
    # ``self.delivery`` (see bot.core.delivery): sent, then marked delivered; retried when a
    # send fails; sent after a restart when the process died before or while sending.

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
        if self.bot_player.started:  # the bot's turns a process that died had claimed
            await self.bot_player.resume()
        await self.delivery.deliver_due()
        return handled

    async def next_due(self) -> float | None:
        """When there is next something to do: a timer, or a notice to (try again to) send."""
        times = [await self.store.next_due(), await self.delivery.next_due()]
        return min((t for t in times if t is not None), default=None)

    async def guard(self, job: Awaitable[object], timers: list[TimerRow], now: float) -> None:
        """Run ``job`` (the firing of ``timers``); when it fails, try them again later (with
        growing pauses), and give up on them after a day of failures."""
        try:
            await job
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
        pos = await self.position_of(game)
        loser = pos.side
        ended = self.finish(game, Termination.TIMEOUT.value, loser ^ 1, now)
        # The notices are written with the result, so the result is never without them.
        settings = await self.store.get_settings(game.chat)
        names = await self.names(game, settings.language)
        line = text("clock.timeout", settings.language, name=names[loser])
        shown = replace(ended, version=ended.version + 1)
        reply = await self.game_reply(None, shown, [line], pos=pos, settings=settings, now=now)
        people = [p for p in (game.sente, game.gote) if p != ENGINE_PLAYER]
        mentions = tuple([await self.user(p) for p in people])
        notices = [
            self.delivery.notice(
                "timeout", game.chat, _with_mentions(reply, mentions), now, game_id=game.id
            )
        ]
        for player in people:  # players who asked for DMs hear it there too
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
        pos = await self.position_of(game)
        settings = await self.store.get_settings(game.chat)
        lang = settings.language
        names = await self.names(game, lang)
        mover = game.player(pos.side)
        line = text(
            "clock.reminder",
            lang,
            name=names[pos.side],
            game=game.id,
            opponent=names[pos.side ^ 1],
            left=present.format_delta(game.deadline - now, lang),
        )
        reply = Reply(
            line + "\n" + present.format_deadline(game.deadline, now, lang, game.chat.platform),
            mentions=(await self.user(mover),),
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


def dm_chat(user_key: str) -> ChatKey:
    """Where a direct message to the user goes: on Telegram the private chat, whose id is the
    user's; on Discord and the console a ``dm:<user id>`` chat the front end resolves."""
    platform, _, uid = user_key.partition(":")
    return ChatKey(platform, uid if platform == "telegram" else f"dm:{uid}")


def _with_mentions(reply: Reply, mentions: tuple[object, ...]) -> Reply:
    return replace(reply, mentions=mentions)  # type: ignore[arg-type]
