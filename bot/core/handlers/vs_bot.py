"""Games against the bot: ``/play``, and challenges addressed to the bot (it accepts at once)."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

from bot.config import Config
from bot.core.api import Reply
from bot.core.clock import Bell
from bot.core.context import Context, UserError
from bot.core.games import Games, new_game
from bot.core.opponent.player import BotPlayer
from bot.core.people import People
from bot.core.replies import Replies, game_started
from bot.core.terms import ChallengeTerms, read_terms
from bot.store.errors import VersionConflict
from bot.store.interface import Store
from bot.store.models import ENGINE_PLAYER
from rules import GOTE, SENTE

log = logging.getLogger("komabot.bot_player")

DEFAULT_LEVEL = 3  # /play with no level: a middling one
DEFAULT_VARIANT = "shogi"  # /play in a chat that has played nothing yet


@dataclass(eq=False)
class BotGames:
    """Starts games against the bot; its moves are :class:`BotPlayer`'s."""

    store: Store
    config: Config
    people: People
    games: Games
    replies: Replies
    opponent: BotPlayer
    rng: random.Random
    bell: Bell

    async def cmd_play(self, ctx: Context) -> Reply:
        """``/play [variant] [level N] [sente|gote|random] [time] [handicap NAME [taking]]``: a
        game against the bot."""
        terms = await read_terms(ctx, self.people, self.config.default_time, "play.bad_arg")
        if terms.opponent is not None:
            raise UserError("play.person", name=terms.opponent.name)
        return await self.start_game(ctx, terms)

    async def start_game(self, ctx: Context, terms: ChallengeTerms) -> Reply:
        """Start a game of the asker against the bot on ``terms``; the bot moves first if it
        has sente."""
        if terms.rated:
            raise UserError("bot.unrated")
        store = self.store
        mine = await store.active_game(ctx.chat, ctx.user)
        if mine is not None:
            raise UserError("challenge.you_busy", game=mine.id)
        variant_id = terms.variant or await store.latest_variant(ctx.chat) or DEFAULT_VARIANT
        color = {"sente": SENTE, "gote": GOTE}.get(terms.color)
        if color is None:
            color = self.rng.choice((SENTE, GOTE))
        players = (ctx.user, ENGINE_PLAYER) if color == SENTE else (ENGINE_PLAYER, ctx.user)
        level = terms.level or DEFAULT_LEVEL
        game = new_game(
            ctx.chat,
            variant_id,
            players,
            terms.time_per_move,
            ctx.now,
            handicap=terms.handicap,  # the asker's side is the one the handicap gives them
            main_time=terms.main_time,
            engine_level=level,
        )
        try:
            timers = self.games.clock_timers(game, ctx.now)
            game = await store.create_game(game, timers, free=(ctx.user,))
        except VersionConflict:
            mine = await store.active_game(ctx.chat, ctx.user)
            raise UserError("challenge.you_busy", game=mine.id if mine else "?") from None
        self.bell.ring()
        log.info("game %s: %s against the bot at level %s", game.id, ctx.user, game.engine_level)
        names = await self.people.names(game, ctx.lang)
        start = game_started(ctx, game, names)
        about = ctx.t("bot.started", name=names[color ^ 1])
        expect = ctx.t(f"bot.level.{game.engine_level}")  # what to expect of this level
        reply = await self.replies.game_reply(ctx, game, [start, about, expect])
        self.opponent.after(ctx, game)
        return reply
