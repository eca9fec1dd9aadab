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
from bot.core.base import Context, UserError, chat_key
from bot.core.challenges import ChallengeCommands
from bot.core.commands import COMMANDS, HIDDEN_COMMANDS, find_command
from bot.core.info import InfoCommands
from bot.core.messages import text
from bot.core.play import PlayCommands
from bot.core.positions import DamagedRecordError
from bot.store.errors import ReadOnlyStore, StoreFull, VersionConflict
from bot.store.models import ChatKey, ReminderRoute, TimerKind, TimerRow
from rules import Termination

log = logging.getLogger("komabot.service")
request_log = logging.getLogger("komabot.request")

Handler = Callable[[Context], Awaitable[Reply]]
HIDDEN = {c.name: c for c in HIDDEN_COMMANDS}


class GameService(ChallengeCommands, PlayCommands, InfoCommands):
    """Platform-neutral game service over a :class:`~bot.store.Store`."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._handlers: dict[str, Handler] = {
            c.name: getattr(self, f"cmd_{c.name}") for c in (*COMMANDS, *HIDDEN_COMMANDS)
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
        name = command.name if command else request.command[:32]
        outcome = "ok"
        self._inflight += 1
        self._idle.clear()
        try:
            if self._closing:
                outcome = "closing"
                return Reply(text("error.shutting_down"), ephemeral=True)
            if command is None:
                outcome = "unknown_command"
                return self.unknown_command(request.command)
            await self.remember_quietly(request.user, request.target)
            chat = chat_key(request.chat)
            settings = await self.store.get_settings(chat)
            ctx = Context(request, chat, request.user.key, settings, self.clock.now())
            try:
                return await self._handlers[command.name](ctx)
            except UserError as exc:
                outcome = f"refused:{exc.key}"
                return Reply(ctx.t(exc.key, **exc.params), buttons=exc.buttons, ephemeral=True)
            except VersionConflict as exc:
                outcome = "conflict"
                return await self.conflict_reply(ctx, exc)
            except ReadOnlyStore as exc:
                outcome = "read_only"
                log.error("/%s in %s not saved: %s", name, request.chat.key, exc)
                return Reply(ctx.t("error.read_only"), ephemeral=True)
            except StoreFull as exc:
                outcome = "disk_full"
                log.error("/%s in %s not saved: %s", name, request.chat.key, exc)
                return Reply(ctx.t("error.disk_full"), ephemeral=True)
            except DamagedRecordError as exc:
                outcome = "damaged_record"
                log.error("damaged game record: %s", exc)
                return Reply(
                    ctx.t(
                        "error.record_damaged", game=exc.game_id, ply=exc.ply, problem=exc.problem
                    ),
                    ephemeral=True,
                )
        except Exception:
            outcome = "error"
            log.exception("request /%s in %s failed", name, request.chat.key)
            return Reply(text("error.internal", command=name), ephemeral=True)
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

    def unknown_command(self, word: str) -> Reply:
        names = [c.name for c in COMMANDS] + [a for c in COMMANDS for a in c.aliases]
        close = difflib.get_close_matches(word.lower().lstrip("/"), names, n=3, cutoff=0.6)
        canonical = list(dict.fromkeys(c.name for w in close if (c := find_command(w))))
        hint = (
            text(
                "error.unknown_command.hint_similar", options=", ".join("/" + n for n in canonical)
            )
            if canonical
            else text("error.unknown_command.hint")
        )
        return Reply(text("error.unknown_command", command=word[:40], hint=hint), ephemeral=True)

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
        self._drawing.shutdown(wait=False)
        self.exports.close()
        return True

    # --- timers -------------------------------------------------------------------------

    async def fire_due(self) -> int:
        """Fire every timer whose time has come; return how many were handled."""
        now = self.clock.now()
        timers = await self.store.due_timers(now)
        handled = 0
        by_game = [t for t in timers if t.game_id is not None]
        for t in timers:
            if t.kind is TimerKind.CHALLENGE_EXPIRY and t.challenge_id is not None:
                await self.guard(self.expire_challenge(t.challenge_id), t)
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
                # longer holds, here.  A failure leaves it pending, to be tried again.
                await self.store.mark_fired([t.id for t in reminders], now)
                await self.guard(self.fire_deadline(deadlines[-1], now), deadlines[-1])
            elif reminders:
                await self.guard(self.fire_reminder(reminders, now), reminders[-1])
            handled += len(batch)
        return handled

    async def guard(self, job: Awaitable[object], timer: TimerRow) -> None:
        try:
            await job
        except Exception:
            log.exception("timer %s (%s) failed", timer.id, timer.kind.value)

    async def fire_deadline(self, timer: TimerRow, now: float) -> None:
        game = await self.store.get_game(timer.game_id or 0)
        if game is None or not game.active or game.deadline != timer.due_at:
            await self.store.mark_fired([timer.id], now)
            return  # the game moved on: this deadline no longer holds
        pos = self.positions.position(game)
        loser = pos.side
        try:
            saved = await self.save_game(
                self.finish(game, Termination.TIMEOUT.value, loser ^ 1, now), now, clocks=False
            )
        except VersionConflict:
            return  # a move arrived at the last moment and replaced the timers
        log.info("game %s lost on time by %s", game.id, game.player(loser))
        names = await self.names(game)
        settings = await self.store.get_settings(game.chat)
        line = text("clock.timeout", settings.language, name=names[loser])
        reply = await self.game_reply(None, saved, [line], pos=pos, settings=settings, now=now)
        mentions = (await self.user(game.sente), await self.user(game.gote))
        await self.send(game.chat, _with_mentions(reply, mentions))
        for player in (game.sente, game.gote):  # players who asked for DMs hear it there too
            if await self.store.get_reminder_route(player) is ReminderRoute.DM:
                await self.send(dm_chat(player), reply)

    async def fire_reminder(self, timers: list[TimerRow], now: float) -> None:
        """Send the latest due reminder of one game (older ones due too are skipped)."""
        timer = timers[-1]
        claimed = await self.store.mark_fired([t.id for t in timers], now)
        if timer.id not in claimed:
            return  # fired by someone else
        game = await self.store.get_game(timer.game_id or 0)
        if (
            game is None
            or not game.active
            or game.deadline is None
            or abs((game.deadline - timer.offset) - timer.due_at) > 1e-6
            or now >= game.deadline
        ):
            return
        pos = self.positions.position(game)
        names = await self.names(game)
        settings = await self.store.get_settings(game.chat)
        lang = settings.language
        mover = game.player(pos.side)
        log.info("reminder for game %s to %s (%.0f s left)", game.id, mover, game.deadline - now)
        line = text(
            "clock.reminder",
            lang,
            name=names[pos.side],
            game=game.id,
            opponent=names[pos.side ^ 1],
            left=present.format_delta(game.deadline - now, lang),
        )
        reply = Reply(
            line + "\n" + present.format_deadline(game.deadline, now, lang),
            mentions=(await self.user(mover),),
        )
        if await self.store.get_reminder_route(mover) is ReminderRoute.DM:
            if await self.send(dm_chat(mover), replace(reply, mentions=())):
                return
            log.info("no direct message to %s; reminding in the game's chat", mover)
        await self.send(game.chat, reply)


def dm_chat(user_key: str) -> ChatKey:
    """Where a direct message to the user goes: on Telegram the private chat, whose id is the
    user's; on Discord and the console a ``dm:<user id>`` chat the front end resolves."""
    platform, _, uid = user_key.partition(":")
    return ChatKey(platform, uid if platform == "telegram" else f"dm:{uid}")


def _with_mentions(reply: Reply, mentions: tuple[object, ...]) -> Reply:
    return replace(reply, mentions=mentions)  # type: ignore[arg-type]
