"""What a request that lost a race is told: what came first (a move, a resignation, a draw
agreed...), that its own action was not done, and the board as it is now."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.api import Reply
from bot.core.context import Context, GameChanged
from bot.core.people import People
from bot.core.replies import Replies
from bot.store.errors import VersionConflict
from bot.store.interface import Store
from bot.store.models import GameRow
from rules import Termination

# how a game that ended while the request was under way ended, said as what came first
_ENDED_FIRST = {
    Termination.RESIGNATION: "conflict.first.resigned",
    Termination.TIMEOUT: "conflict.first.timeout",
    Termination.AGREED_DRAW: "conflict.first.drawn",
    Termination.ABORTED: "conflict.first.aborted",
    Termination.IMPASSE: "conflict.first.impasse",
}


def what_came_first(ctx: Context, read: GameRow, now: GameRow, names: tuple[str, str]) -> str:
    """``bob resigned first``, ``alice moved first``...: how ``now`` differs from ``read``."""
    if not now.active and now.termination is not None:
        key = _ENDED_FIRST.get(Termination(now.termination))
        if key is not None:
            loser = names[now.winner ^ 1] if now.winner is not None else ""
            return ctx.t(key, name=loser)
    if len(now.moves) > len(read.moves):
        return ctx.t("conflict.first.moved", name=names[now.side_to_move ^ 1])
    if len(now.moves) < len(read.moves):
        return ctx.t("conflict.first.took_back")
    return ctx.t("conflict.first.offer")


@dataclass(eq=False)
class Conflicts:
    """Replies to requests whose write found the game (or challenge) changed."""

    store: Store
    people: People
    replies: Replies

    async def reply(self, ctx: Context, exc: VersionConflict) -> Reply:
        """Say that the request lost a race and to what, with the board as it is now."""
        game = None
        if isinstance(exc, GameChanged):
            game = await self.store.get_game(exc.game.id)
        if game is None:
            game = await self.store.active_game(ctx.chat, ctx.user)
        if game is None:
            return Reply(ctx.t("conflict.other"), ephemeral=True)
        read = ctx.games_read.get(game.id, exc.game if isinstance(exc, GameChanged) else game)
        names = await self.people.names(game, ctx.lang)
        lost = "conflict.lost.move" if ctx.request.command == "move" else "conflict.lost.other"
        reason = ctx.t(
            "conflict.reason",
            first=what_came_first(ctx, read, game, names),
            lost=ctx.t(lost, command=ctx.request.command),
        )
        said = ctx.t("error.conflict", game=game.id, reason=reason)
        reply = await self.replies.game_reply(
            ctx, game, [said], mention_mover=False, announce=False
        )
        return Reply(reply.text, image=reply.image, ephemeral=True, text_board=reply.text_board)
