"""Changing a game on the board: playing a legal move, and saving a change with the reply
that shows it (a person's move, the bot's, a takeback)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.core import present
from bot.core.api import Reply
from bot.core.context import Context, UserError
from bot.core.delivery import Delivery
from bot.core.games import Games, finish
from bot.core.replies import Replies
from bot.core.shogi_clock import turn_over
from bot.store.models import GameRow
from rules import Move, Position


@dataclass(eq=False)
class Mover:
    """Saves changes of the board and makes the replies that show them."""

    games: Games
    replies: Replies
    delivery: Delivery

    async def play(
        self,
        ctx: Context,
        game: GameRow,
        pos: Position,
        move: Move,
        names: tuple[str, str],
        *,
        notify: bool = False,
    ) -> tuple[Reply, GameRow]:
        """Play the legal ``move``: a person's, or with ``notify`` the bot's (its reply queued
        for the game's chat with the move, see :meth:`commit`).  The reply, and the game as
        saved.  A person's move after their deadline is refused: the game is lost on time (its
        timer, woken here, ends it at once), however late the timers run."""
        if game.deadline is not None and ctx.now >= game.deadline:
            self.games.bell.ring()
            raise UserError("clock.too_late", game=game.id)
        before = pos.copy()
        pos.make_unchecked(move)  # read_move returned a legal move: checked once, not twice
        shown = present.format_move(before, move, ctx.settings.notation)
        new = turn_over(
            game,
            pos.side,
            ctx.now,
            moves=(*game.moves, before.usi(move)),
            draw_offer=None,
            takeback_offer=None,
            updated_at=ctx.now,
        )
        outcome = pos.outcome()
        if outcome is not None:
            new = finish(new, outcome.termination.value, outcome.winner, ctx.now)
        line = ctx.t("move.played", mover=names[before.side], move=shown)
        # the image marks the move
        return await self._commit(ctx, new, [line], pos=pos, clocks=True, notify=notify)

    async def commit(
        self,
        ctx: Context,
        new: GameRow,
        lines: Sequence[str],
        *,
        pos: Position | None = None,
        clocks: bool,
        notify: bool = False,
    ) -> Reply:
        """Save ``new`` (``pos``: its position, when known) and make the reply saying so, with
        ``lines``, the board and whose turn it is.

        By default the reply is the asker's, made once the write committed.  With ``notify``
        (the bot's own moves, which answer no request) it is made first and queued for the
        game's chat in the same transaction, then sent: delivered at least once, and never
        without the move, nor the move without it.
        """
        reply, _saved = await self._commit(ctx, new, lines, pos=pos, clocks=clocks, notify=notify)
        return reply

    async def _commit(
        self,
        ctx: Context,
        new: GameRow,
        lines: Sequence[str],
        *,
        pos: Position | None,
        clocks: bool,
        notify: bool,
    ) -> tuple[Reply, GameRow]:
        """:meth:`commit`, and the game as saved."""
        replies = self.replies
        if not notify:
            # The board is drawn while the move is written: the image does not depend on the
            # write, and the write's wait for the disk overlaps the drawing.
            drawing = None if pos is None else await replies.start_board(new, pos, ctx.settings)
            try:
                saved = await self.games.save(new, ctx.now, clocks=clocks)
            except BaseException:
                if drawing is not None:
                    drawing.cancel()  # the move was not made: nobody sees this board
                raise
            if pos is not None:
                self.games.positions.put(saved, pos)
            reply = await replies.game_reply(ctx, saved, lines, pos=pos, drawing=drawing)
            return reply, saved
        shown = replace(new, version=new.version + 1)
        reply = await replies.game_reply(ctx, shown, lines, pos=pos, announce=False)
        notice = self.delivery.notice("move", new.chat, reply, ctx.now, game_id=new.id)
        saved = await self.games.save(new, ctx.now, clocks=clocks, notices=[notice])
        if pos is not None:
            self.games.positions.put(saved, pos)
        self.delivery.kick()
        return reply, saved

    async def finish(
        self,
        ctx: Context,
        game: GameRow,
        termination: str,
        winner: int | None,
        line: str,
        *,
        pos: Position | None = None,
    ) -> Reply:
        """End ``game`` (resigned, drawn, aborted, declared) and show the result."""
        ended = finish(game, termination, winner, ctx.now)
        saved = await self.games.save(ended, ctx.now, clocks=False)
        return await self.replies.game_reply(ctx, saved, [line], pos=pos)
