"""The game service: answers every :class:`Request` with a :class:`Reply`, fires timers.

``GameService`` builds the collaborators (people, games, replies, pictures, the bot opponent,
timers...) and the handlers over them, routes each request to its handler through
``GameService.routes`` (command name -> handler), and turns what a handler raises into a
reply.  ``handle`` is the one entry point front ends call.  It never raises: refusals become
ephemeral replies from the message catalogue, a database out of reach
(:class:`StoreUnavailable`) a request to try again in a minute (the store logs the outage once,
not a traceback a request), unexpected failures a short apology (the traceback goes to the
log).  Each handled request writes one log line.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

from bot.config import Config
from bot.core.analyses import Analyses
from bot.core.api import ChatKey, Outbox, Reply, Request
from bot.core.clock import Bell, Clock, SystemClock
from bot.core.commands import COMMANDS, HIDDEN_COMMANDS, find_command
from bot.core.conflicts import Conflicts
from bot.core.context import Context, UserError
from bot.core.daily_posts import DailyPosts
from bot.core.delivery import Delivery
from bot.core.exports import Exports
from bot.core.games import Games
from bot.core.handlers.analyse import Analyse
from bot.core.handlers.board import BoardViews
from bot.core.handlers.challenges import Challenges
from bot.core.handlers.complete import Completion
from bot.core.handlers.daily_puzzle import DailyPuzzle
from bot.core.handlers.export import Export
from bot.core.handlers.history import History
from bot.core.handlers.leaderboard import Leaderboard
from bot.core.handlers.offers import Offers
from bot.core.handlers.pieces import Pieces
from bot.core.handlers.playing import Playing
from bot.core.handlers.puzzle import Puzzles
from bot.core.handlers.ratings import Ratings
from bot.core.handlers.settings import Help, Settings
from bot.core.handlers.vs_bot import BotGames
from bot.core.messages import text
from bot.core.moving import Mover
from bot.core.opponent.engine_runner import Engine, EngineRunner
from bot.core.opponent.player import BotPlayer
from bot.core.people import People
from bot.core.pictures import Pictures
from bot.core.positions import DamagedRecordError
from bot.core.puzzle_book import PuzzleBook
from bot.core.replies import Replies
from bot.core.timers import Timers
from bot.store.errors import ReadOnlyStore, StoreFull, StoreUnavailable, VersionConflict
from bot.store.interface import Store
from engine.analysis import Budget

log = logging.getLogger("komabot.service")
request_log = logging.getLogger("komabot.request")

Handler = Callable[[Context], Awaitable[Reply]]
HIDDEN = {c.name: c for c in HIDDEN_COMMANDS}
LANGUAGES_KEPT = 10_000  # chats whose language is remembered for when the database is away


class GameService:
    """Platform-neutral game service over a :class:`~bot.store.Store`.

    ``engine`` answers for the bot in games against it (by default the built-in engine in
    worker processes, and an external USI engine where the configuration names one)."""

    def __init__(
        self,
        store: Store,
        config: Config | None = None,
        *,
        clock: Clock | None = None,
        outboxes: Mapping[str, Outbox] | None = None,
        rng: random.Random | None = None,
        render_images: bool = True,
        engine: Engine | None = None,
        analysis_budget: Budget | None = None,
        puzzle_book: PuzzleBook | None = None,
    ) -> None:
        self.store = store
        self.config = config = config or Config()
        self.clock = clock = clock or SystemClock()
        self.outboxes: dict[str, Outbox] = dict(outboxes or {})  # front ends may attach later
        rng = rng or random.Random()
        self.bell = Bell()  # rung when timers changed (the scheduler listens)
        self.people = people = People(store)
        self.games = games = Games(store, config, people, self.bell)
        self.pictures = pictures = Pictures(enabled=render_images)
        self.replies = replies = Replies(store, people, games, pictures, self.outboxes, clock)
        self.delivery = delivery = Delivery(store, clock, self.outboxes)
        self.exports = Exports()  # /export's files: own threads, limits, cache
        mover = Mover(games, replies, delivery)
        engine = engine or EngineRunner.from_config(config)
        # /analyse's: positions in the engine's workers, kept in the database, resumed
        self.analyses = analyses = Analyses(
            config, store, clock, delivery.owner, engine=engine, budget=analysis_budget
        )
        self.bot_player = BotPlayer(store, config, clock, people, games, mover, delivery, engine)
        bot_games = BotGames(store, config, people, games, replies, self.bot_player, rng, self.bell)
        challenges = Challenges(store, config, people, games, replies, bot_games, rng, self.bell)
        book = puzzle_book or PuzzleBook()
        daily_posts = DailyPosts(store, book, pictures, delivery, replies.edit_card)
        self.timers = Timers(
            store,
            clock,
            people,
            games,
            replies,
            delivery,
            self.bot_player,
            challenges.expire_challenge,
            daily_posts,
        )
        self.conflicts = Conflicts(store, people, replies)
        daily = DailyPuzzle(store, self.bell, daily_posts)
        puzzles = Puzzles(store, book, pictures, rng, daily)
        playing = Playing(store, games, mover, self.bot_player, puzzles)
        offers = Offers(games, people, replies, mover)
        board = BoardViews(store, games, people, replies, pictures)
        export = Export(store, games, people, self.exports, analyses)
        self.analyse = analyse = Analyse(store, games, people, replies, pictures, analyses)
        pieces = Pieces(store, pictures)
        settings = Settings(store, daily.cmd_setting)
        completion = Completion(store, games, people, replies)
        self.routes: dict[str, Handler] = {  # every command's handler, by its name
            "challenge": challenges.cmd_challenge,
            "accept": challenges.cmd_accept,
            "decline": challenges.cmd_decline,
            "cancel": challenges.cmd_cancel,
            "play": bot_games.cmd_play,
            "move": playing.cmd_move,
            "resign": playing.cmd_resign,
            "abort": playing.cmd_abort,
            "impasse": playing.cmd_impasse,
            "draw": offers.cmd_draw,
            "takeback": offers.cmd_takeback,
            "board": board.cmd_board,
            "moves": board.cmd_moves,
            "games": board.cmd_games,
            "export": export.cmd_export,
            "analyse": analyse.cmd_analyse,
            "puzzle": puzzles.cmd_puzzle,
            "piece": pieces.cmd_piece,
            "cheatsheet": pieces.cmd_cheatsheet,
            "settings": settings.cmd_settings,
            "help": Help.cmd_help,
            "rating": Ratings(store, people).cmd_rating,
            "history": History(store, people).cmd_history,
            "leaderboard": Leaderboard(store, people, replies, pictures).cmd_leaderboard,
            "complete": completion.cmd_complete,
        }
        commands = {c.name for c in (*COMMANDS, *HIDDEN_COMMANDS)}
        if set(self.routes) != commands:  # a command without a handler, or the reverse
            raise RuntimeError(f"commands and handlers differ: {set(self.routes) ^ commands}")
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False
        self._languages: dict[ChatKey, str] = {}  # chat -> its language, as last read

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
            lang = self._languages.get(chat, lang)
            settings = await self.store.get_settings(chat)
            lang = settings.language
            self._remember_language(chat, lang)
            if command is None:
                outcome = "unknown_command"
                return self.unknown_command(request.command, lang)
            await self.people.remember_quietly(request.user, request.target, *request.more_targets)
            ctx = Context(request, chat, request.user.key, settings, self.clock.now())
            try:
                reply = await self.routes[command.name](ctx)
                for job in ctx.after:  # once the reply is on its way (see Context.after)
                    asyncio.get_running_loop().call_soon(job)
                return reply if reply.lang == lang else replace(reply, lang=lang)
            except UserError as exc:
                outcome = f"refused:{exc.key}"
                said = ctx.t(exc.key, **exc.params)
                return Reply(said, buttons=exc.buttons, ephemeral=True, lang=lang)
            except VersionConflict as exc:
                outcome = "conflict"
                return replace(await self.conflicts.reply(ctx, exc), lang=lang)
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
        except StoreUnavailable:  # the store logs one line per outage, not one a request
            outcome = "unavailable"
            return Reply(text("error.unavailable", lang), ephemeral=True, lang=lang)
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

    def _remember_language(self, chat: ChatKey, lang: str) -> None:
        """Keep ``chat``'s language for a reply when the database cannot be reached (the most
        recently served chats, at most ``LANGUAGES_KEPT``)."""
        self._languages.pop(chat, None)
        self._languages[chat] = lang
        if len(self._languages) > LANGUAGES_KEPT:
            del self._languages[next(iter(self._languages))]

    def unknown_command(self, word: str, lang: str = "en") -> Reply:
        names = [c.name for c in COMMANDS] + [a for c in COMMANDS for a in c.aliases]
        close = difflib.get_close_matches(word.lower().lstrip("/"), names, n=3, cutoff=0.6)
        canonical = list(dict.fromkeys(c.name for w in close if (c := find_command(w))))
        hint = (
            text(
                "error.unknown_command.hint_similar",
                lang,
                options=["/" + n for n in canonical],
            )
            if canonical
            else text("error.unknown_command.hint", lang)
        )
        said = text("error.unknown_command", lang, command=word[:40], hint=hint)
        return Reply(said, ephemeral=True, lang=lang)

    # --- timers and shutdown ------------------------------------------------------------

    async def fire_due(self) -> int:
        """Fire every timer whose time has come, then send the notices that are due; how many
        timers were handled (see :class:`~bot.core.timers.Timers`)."""
        return await self.timers.fire_due()

    async def next_due(self) -> float | None:
        """When there is next something to do: a timer, or a notice to (try again to) send."""
        return await self.timers.next_due()

    async def drain(self, timeout: float = 30.0) -> bool:
        """Refuse new requests and wait for those in flight; False if the wait timed out."""
        self._closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        await self.analyses.close()  # before the engine's workers, which its positions use
        await self.bot_player.close()
        await self.delivery.settle()
        await self.timers.daily_posts.settle()
        self.pictures.close()
        self.games.close()
        self.exports.close()
        return True
