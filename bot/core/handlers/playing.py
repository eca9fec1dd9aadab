"""Playing: ``/move`` (and moves typed bare), ``/resign``, ``/abort``, ``/impasse``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core import present
from bot.core.api import Button, Reply
from bot.core.args import parse_number
from bot.core.context import Context, UserError
from bot.core.games import Games, reads_as_move
from bot.core.handlers.puzzle import Puzzles
from bot.core.messages import plural
from bot.core.move_reading import read_move
from bot.core.moving import Mover
from bot.core.opponent.player import BotPlayer
from bot.core.words import CONFIRM_WORDS
from bot.store.interface import Store
from rules import (
    Termination,
    declare_impasse,
    impasse_report,
)


@dataclass(eq=False)
class Playing:
    """A player's own actions on the board of their game."""

    store: Store
    games: Games
    mover: Mover
    opponent: BotPlayer
    puzzles: Puzzles

    async def cmd_move(self, ctx: Context) -> Reply:
        if ctx.request.options.get("bare") == "1" and not await self.bare_move_wanted(ctx):
            return Reply("", silent=True)
        try:
            game, rest, color, names = await self.games.of_player(ctx, ctx.args, move_text=True)
        except UserError:
            if await self.puzzles.takes_move(ctx):  # no game to move in here, a puzzle going on
                return await self.puzzles.cmd_move(ctx)
            raise
        pos = await self.games.position_of(game)
        if not rest:
            example = "move.example.shogi" if game.variant == "shogi" else "move.example.wa"
            raise UserError("move.missing", example=ctx.t(example))
        if pos.side != color:
            if pos.side == game.engine_color:
                self.opponent.request(game)  # already under way, unless it failed: again
                raise UserError("bot.thinking", name=names[pos.side], game=game.id)
            raise UserError("move.not_your_turn", name=names[pos.side], game=game.id)
        move = read_move(ctx, pos, " ".join(rest), f"move {{}} {game.id}")
        reply, played = await self.mover.play(ctx, game, pos, move, names)
        self.opponent.after(ctx, played)  # in a game against the bot: its turn, once replied
        return reply

    async def bare_move_wanted(self, ctx: Context) -> bool:
        """Whether a message that is only ``ctx.args`` (sent with ``bare=1``) is a move to play:
        the chat (or the channel of its thread, option ``parent``) has bare moves on, the author
        plays a game here and the text reads as a move (legal or not) in that game."""
        if len(ctx.args) != 1:
            return False
        on = ctx.settings.bare_moves
        parent = ctx.request.options.get("parent")
        if not on and parent:
            on = (await self.store.get_settings(replace(ctx.chat, chat_id=parent))).bare_moves
        if not on:
            return False
        game = await self.store.active_game(ctx.chat, ctx.user)
        if game is None:
            return await self.puzzles.takes_move(ctx) and await self.puzzles.reads_as_move(ctx)
        # a move that is not playable gets told why; chatter with a digit in it is left alone
        return reads_as_move(await self.games.position_of(game), ctx.args[0])

    async def cmd_resign(self, ctx: Context) -> Reply:
        words = [a.lower() for a in ctx.args]
        confirmed = bool(words) and words[0] in CONFIRM_WORDS
        if confirmed:
            words = words[1:]
        elif words and parse_number(words[-1]) is None:
            raise UserError("resign.bad_arg")
        game, rest, color, names = await self.games.of_player(ctx, words)
        if rest:
            raise UserError("resign.bad_arg")
        if not confirmed:
            return Reply(
                ctx.t("resign.confirm", game=game.id, opponent=names[color ^ 1]),
                buttons=((Button(ctx.t("button.resign"), f"resign confirm {game.id}", "danger"),),),
                ephemeral=True,
            )
        line = ctx.t("resign.done", name=names[color])
        return await self.mover.finish(ctx, game, Termination.RESIGNATION.value, color ^ 1, line)

    async def cmd_abort(self, ctx: Context) -> Reply:
        game, _rest, color, names = await self.games.of_player(ctx, ctx.args)
        if len(game.moves) >= 2:
            raise UserError("abort.too_late", game=game.id)
        line = ctx.t("abort.done", name=names[color], game=game.id)
        return await self.mover.finish(ctx, game, Termination.ABORTED.value, None, line)

    async def cmd_impasse(self, ctx: Context) -> Reply:
        game, _rest, color, names = await self.games.of_player(ctx, ctx.args)
        pos = await self.games.position_of(game)
        if pos.variant.impasse is None:
            raise UserError("impasse.none", variant=present.variant_name(game.variant, ctx.lang))
        if pos.side != color:
            raise UserError("impasse.not_your_turn", name=names[pos.side])
        report = impasse_report(pos)
        if report.unmet:  # each unmet condition once, with its numbers, in the chat's language
            raise UserError("impasse.refused", reasons=present.impasse_problems(report, ctx.lang))
        outcome = declare_impasse(pos)
        points = plural("impasse.points", ctx.lang, report.points)
        line = ctx.t("impasse.done", name=names[color], points=points)
        term = outcome.termination.value
        return await self.mover.finish(ctx, game, term, outcome.winner, line, pos=pos)
