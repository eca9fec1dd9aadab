"""Komabot as a player: the bot's moves in games against it (``/play`` and challenges to the
bot start them: :mod:`bot.core.handlers.vs_bot`).

**Who the bot is.**  In a game against it, the bot's side holds the reserved player key
``engine:komabot`` (:data:`~bot.store.models.ENGINE_PLAYER`) and the game its level
(``engine_level``, 1-8), so that ratings can tell these games apart; boards and messages call
it "Komabot, level 4".  A challenge to the bot (``/challenge @Komabot``, ``/challenge bot``)
or ``/play`` starts the game at once: the bot never needs to accept.

**Its turns.**  When a person's move leaves the bot to move, its turn is queued once the reply
is out (``Context.after``).  Turns wait in a :class:`~.fair_queue.FairQueue` that serves the
people playing round-robin, and as many run at once as the engine has workers.  A turn reads
the game, asks the engine (:class:`~.engine_runner.EngineRunner`, off the event loop) and
plays the answer the way a person's move is played (``Mover.play``: checked, version-checked
commit, the person's deadline and reminders, the board), its message queued
for the game's chat in the same transaction and delivered at least once.  When the game changed
meanwhile (a resignation, a takeback), the answer is dropped and, if the bot is still to move,
its turn queued again.  The bot has no deadline: it cannot lose on time.

**Failures.**  The engine retries a crashed or hung search once; when that fails too, the
chat is told that the bot could not move and will try again, and the turn is queued again after
a pause (5 s, 30 s, 2 min, ... hourly), or at the next start.  Nothing is lost: the game waits.

**Restarts.**  :meth:`BotPlayer.start` queues every active game where the bot is to move
(found through an index of the active games against the bot), and looks again every
``PICKUP_EVERY`` seconds for turns nobody holds.

**Several processes.**  A turn is taken only with a claim on the game at its version
(:meth:`~bot.store.interface.Store.claim_engine_turn`), so one process thinks about each of the
bot's moves however many queued it.  The claim is short (``LEASE``) and renewed every
``HEARTBEAT`` seconds while the process thinks, however long the search; a process that dies
(kill -9) stops renewing, so its claim ends within seconds and another process, or the same
one restarted, takes the turn up at its next look.  A clean shutdown gives its claims up at
once.

**The database away.**  When the store cannot be reached (:class:`StoreUnavailable`), a turn
waits and is tried again later, one line in the log each time, without a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from dataclasses import replace
from typing import Any

from bot.chat import platform_of
from bot.config import Config
from bot.core import present
from bot.core.api import Reply, Request, User
from bot.core.clock import Clock
from bot.core.context import Context
from bot.core.delivery import Delivery, retry_pause
from bot.core.games import Games, finish
from bot.core.messages import plural, text
from bot.core.moving import Mover
from bot.core.opponent.engine_runner import Engine, EngineAnswer, EngineQuery, EngineUnavailable
from bot.core.opponent.fair_queue import FairQueue
from bot.core.people import People
from bot.core.renewed_claims import HEARTBEAT, LEASE, PICKUP_EVERY
from bot.store.errors import StoreError, StoreUnavailable, VersionConflict
from bot.store.interface import Store
from bot.store.models import ENGINE_PLAYER, ENGINE_SCORES_KEPT, GameRow
from rules import (
    SENTE,
    Position,
    RulesError,
    Termination,
    declare_impasse,
    impasse_report,
)

log = logging.getLogger("komabot.bot_player")

CLOSE_SECONDS = 10.0  # at shutdown, how long turns under way and queued may take to finish


class BotPlayer:
    """The bot's side of games against it."""

    def __init__(
        self,
        store: Store,
        config: Config,
        clock: Clock,
        people: People,
        games: Games,
        mover: Mover,
        delivery: Delivery,
        engine: Engine,
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.people = people
        self.games = games
        self.mover = mover
        self.delivery = delivery
        self.engine = engine
        self.queue: FairQueue[int] = FairQueue()
        self._lanes: list[asyncio.Task[None]] = []
        self._later: set[asyncio.Task[Any]] = set()  # resuming, and turns to try again later
        self._failures: dict[int, int] = {}  # game id -> failed turns in a row
        self._closing = False
        self.started = False  # start() was called: unclaimed turns are taken up
        self.lease = LEASE  # seconds a claim lasts without a heartbeat

    # --- queueing turns -----------------------------------------------------------------

    @staticmethod
    def its_turn(game: GameRow | None) -> bool:
        """Whether ``game`` is an active game against the bot with the bot to move."""
        return (
            game is not None
            and game.active
            and game.engine_color is not None
            and game.side_to_move == game.engine_color
        )

    def after(self, ctx: Context, game: GameRow) -> None:
        """Queue the bot's turn in ``game`` once the reply to ``ctx`` is out, if it is to
        move."""
        if self.its_turn(game):
            ctx.after.append(functools.partial(self.request, game))

    def request(self, game: GameRow) -> bool:
        """Queue the bot's turn in ``game``; False (nothing done) if it is queued or under way,
        or not the bot's turn."""
        if self._closing or not self.its_turn(game):
            return False
        human = game.gote if game.engine_color == SENTE else game.sente
        queued = self.queue.put(human, game.id)  # people take turns: see FairQueue
        while len(self._lanes) < self.engine.parallel:
            self._lanes.append(asyncio.ensure_future(self._lane()))
        return queued

    def start(self) -> None:
        """At start-up: start the engine's workers in the background, queue every game
        where the bot is to move, and look again every ``PICKUP_EVERY`` seconds for turns
        whose claim ended (their process died)."""
        self.engine.start()
        self.started = True
        task = asyncio.ensure_future(self._pick_up())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def _pick_up(self) -> None:
        while True:
            try:
                await self.resume()
            except StoreUnavailable:
                pass  # the store logged the outage once; look again later
            except StoreError:
                log.exception("looking for the bot's turns failed; looking again later")
            await self.clock.sleep(PICKUP_EVERY)

    async def resume(self) -> int:
        """Queue the bot's turn in every active game where it is to move and that no process
        holds a claim on; how many were not queued here yet."""
        store, now = self.store, self.clock.now()
        games = [g for g in await store.unclaimed_engine_games(now) if self.its_turn(g)]
        new = sum(self.request(game) for game in games)
        if new:
            log.info("taking up the bot's turn in %d games", new)
        return new

    @property
    def owner(self) -> str:
        """This process, as its claims name it."""
        return self.delivery.owner

    async def settled(self) -> None:
        """Wait until no turn waits or runs and their messages went out (for tests)."""
        await asyncio.sleep(0)  # turns queued once a reply is out (Context.after) are queued
        await self.queue.join()
        await self.delivery.settle()

    async def close(self, timeout: float = CLOSE_SECONDS) -> None:
        """Let the turns queued and under way finish (within ``timeout``), then stop the
        engine.  Turns left over are taken again at the next start."""
        self._closing = True
        for task in list(self._later):
            task.cancel()
        try:
            if self.queue.busy:
                await asyncio.wait_for(self.queue.join(), timeout)
        except TimeoutError:
            left = sorted((*self.queue.taken, *self.queue.clear()))
            log.warning("the bot's turns in games %s wait for the next start", left)
        for lane in self._lanes:
            lane.cancel()
        await asyncio.gather(*self._lanes, *self._later, return_exceptions=True)
        self._lanes.clear()
        if self.started:
            with contextlib.suppress(StoreError):  # a read-only database: they run out
                await self.store.release_engine_turns(self.owner)
        await self.engine.close()

    async def _lane(self) -> None:
        while True:
            game_id = await self.queue.get()
            try:
                await self.take_turn(game_id)
            except StoreUnavailable as exc:  # said once per outage by the store
                pause = self._retry_later(game_id)
                log.warning("the bot's turn in game %s waits %.0f s: %s", game_id, pause, exc)
            except Exception:  # the database, say: the game waits, the turn comes again
                log.exception("the bot's turn in game %s failed", game_id)
                self._retry_later(game_id)
            finally:
                self.queue.done(game_id)

    # --- one turn -----------------------------------------------------------------------

    async def take_turn(self, game_id: int) -> None:
        """Ask the engine for the bot's answer in ``game_id`` and play it."""
        game = await self.store.get_game(game_id)
        if game is None or not self.its_turn(game):
            self._failures.pop(game_id, None)
            return
        now = self.clock.now()
        if not await self.store.claim_engine_turn(game.id, game.version, self.owner, now,
                                                 now + self.lease):  # fmt: skip
            return  # another process thinks about this move
        beat = asyncio.ensure_future(self._heartbeat(game))
        try:
            await self._think(game)
        finally:
            beat.cancel()
            await asyncio.gather(beat, return_exceptions=True)

    async def _heartbeat(self, game: GameRow) -> None:
        """Renew the claim on the bot's turn in ``game`` every ``HEARTBEAT`` seconds until
        cancelled (the turn is over)."""
        while True:
            await self.clock.sleep(HEARTBEAT)
            until = self.clock.now() + self.lease
            try:
                kept = await self.store.renew_engine_turn(game.id, game.version, self.owner, until)
            except StoreUnavailable:
                continue  # the store logged the outage once; the claim may run out meanwhile
            except StoreError as exc:
                log.warning("could not renew the claim on game %s: %s", game.id, exc)
                continue
            if not kept:  # another process took the turn: its answer or ours, the first wins
                log.warning("the claim on the bot's turn in game %s ran out", game.id)
                return

    async def _think(self, game: GameRow) -> None:
        """Holding the claim: ask the engine and play its answer."""
        pos = await self.games.position_of(game)
        if pos.outcome() is not None or not pos.legal_moves():
            return  # decided by the rules already: there is nothing to ask
        assert game.engine_level is not None
        query = EngineQuery(
            game=str(game.id),
            variant=game.variant,
            sfen=game.start_sfen,
            moves=game.moves,
            level=game.engine_level,
            past_scores=game.engine_scores,
        )
        try:
            answer = await self.engine.answer(query)
            settings = await self.store.get_settings(game.chat)
            ctx = Context(
                Request(game.chat, _bot_user(game), "move"),
                game.chat,
                ENGINE_PLAYER,
                settings,
                self.clock.now(),
            )
            await self._play(ctx, game, pos, answer)
        except EngineUnavailable as exc:
            await self._failed(game, exc)
            return
        except VersionConflict:
            log.info("game %s changed while the bot thought; its answer is dropped", game.id)
            self.request(await self.store.get_game(game.id) or game)
            return
        self._failures.pop(game.id, None)

    async def _play(self, ctx: Context, game: GameRow, pos: Position, answer: EngineAnswer) -> None:
        names = await self.people.names(game, ctx.lang)
        me = game.engine_color
        assert me is not None
        if answer.resign:
            ended = finish(game, Termination.RESIGNATION.value, me ^ 1, ctx.now)
            line = ctx.t("resign.done", name=names[me])
            await self.mover.commit(ctx, ended, [line], pos=pos, clocks=False, notify=True)
            log.info("game %s: the bot resigned", game.id)
            return
        if answer.declare_win and pos.variant.impasse is not None:
            report = impasse_report(pos)
            if not report.unmet:
                outcome = declare_impasse(pos)
                ended = finish(game, outcome.termination.value, outcome.winner, ctx.now)
                line = ctx.t(
                    "impasse.done",
                    name=names[me],
                    points=plural("impasse.points", ctx.lang, report.points),
                )
                await self.mover.commit(ctx, ended, [line], pos=pos, clocks=False, notify=True)
                log.info("game %s: the bot declared impasse", game.id)
                return
        if answer.move is None:
            raise EngineUnavailable(f"the engine gave no move in game {game.id}")
        try:
            move = pos.parse_usi(answer.move)
        except RulesError as exc:
            raise EngineUnavailable(f"the engine's move {answer.move}: {exc}") from None
        scores = game.engine_scores
        if answer.score is not None:
            scores = (*scores, answer.score)[-ENGINE_SCORES_KEPT:]
        game = replace(game, engine_scores=scores)
        await self.mover.play(ctx, game, pos, move, names, notify=True)

    async def _failed(self, game: GameRow, error: Exception) -> None:
        """The engine could not answer: try again after a pause, and say so (the first time
        in a row)."""
        pause = self._retry_later(game.id)
        log.error(
            "the bot could not move in game %s (%s); trying again in %.0f s", game.id, error, pause
        )
        if self._failures[game.id] == 1:
            settings = await self.store.get_settings(game.chat)
            lang = settings.language
            names = await self.people.names(game, lang)
            assert game.engine_color is not None
            line = text(
                "bot.failed",
                lang,
                name=names[game.engine_color],
                game=game.id,
                delay=present.format_delta(pause, lang),
            )
            now = self.clock.now()
            await self.store.queue_notices(
                [
                    self.delivery.notice(
                        "bot_failed", game.chat, Reply(line, lang=lang), now, game_id=game.id
                    )
                ]
            )
            self.delivery.kick()

    def _retry_later(self, game_id: int) -> float:
        """Queue the bot's turn in ``game_id`` again after a pause that grows with each
        failure in a row (5 s, 30 s, 2 min... hourly); the pause."""
        failures = self._failures[game_id] = self._failures.get(game_id, 0) + 1
        pause = retry_pause(failures)
        # the time to try again is fixed now, not when the task first runs
        task = asyncio.ensure_future(self._again_at(game_id, self.clock.now() + pause))
        self._later.add(task)
        task.add_done_callback(self._later.discard)
        return pause

    async def _again_at(self, game_id: int, when: float) -> None:
        await self.clock.sleep_until(when)
        try:
            game = await self.store.get_game(game_id)
        except StoreUnavailable:  # the store logs the outage once
            self._retry_later(game_id)
            return
        if game is not None:
            self.request(game)


def _bot_user(game: GameRow) -> User:
    """The bot as the author of its own moves (on the game's platform)."""
    platform = platform_of(game.chat.key)
    return User(platform, ENGINE_PLAYER.partition(":")[2], text("bot.brand"))
