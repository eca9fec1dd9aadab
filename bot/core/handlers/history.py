"""``/history [@user] [page]``: a player's finished games in this community, newest first.

Each line gives the game number (for ``/export``), the opponent, the variant, the result from
the player's side and what the game did to their rating (or that it changed none); ten a page,
with ◀ ▶ buttons whose actions name the player by key (``history discord:42 2``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core import present
from bot.core.api import Reply
from bot.core.context import LIST_LIMIT, Context
from bot.core.handlers.player_args import (
    check_page,
    page_buttons,
    pages_of,
    rating_args,
    where_words,
)
from bot.core.people import People
from bot.core.rating_lines import change_words, score_of
from bot.store.interface import Store
from bot.store.models import GameRow, RatingChange

OUTCOMES = {1.0: "won", 0.5: "drawn", 0.0: "lost"}


@dataclass(eq=False)
class History:
    """The /history command."""

    store: Store
    people: People

    async def cmd_history(self, ctx: Context) -> Reply:
        args = await rating_args(
            self.store, self.people, ctx, "history.bad_arg", variant=False, page=True
        )
        store = self.store
        chat = ctx.chat
        name = await self.people.name(args.player)
        total = await store.count_finished_games(chat.platform, chat.community_id, args.player)
        if total == 0:
            return Reply(ctx.t("history.none", name=name, where=where_words(ctx)))
        pages = pages_of(total, LIST_LIMIT)
        check_page(ctx, args.page, pages)
        games = await store.finished_games(
            chat.platform, chat.community_id, args.player,
            offset=(args.page - 1) * LIST_LIMIT, limit=LIST_LIMIT,
        )  # fmt: skip
        changes = await store.player_changes(args.player, [g.id for g in games])
        title = ctx.t(
            "history.title", name=name, where=where_words(ctx), page=args.page, pages=pages
        )
        lines = [title]
        for game in games:
            lines.append(await self.line(ctx, game, args.player, changes.get(game.id)))
        lines.append(ctx.t("history.export"))
        buttons = page_buttons(ctx, f"history {args.player}", args.page, pages)
        return Reply("\n".join(lines), buttons=buttons)

    async def line(
        self, ctx: Context, game: GameRow, player: str, change: RatingChange | None
    ) -> str:
        sente, gote = await self.people.names(game, ctx.lang)
        opponent = gote if game.sente == player else sente
        score = score_of(game, player)
        reason = ctx.t(f"result.{game.termination or 'aborted'}")
        if score is None:
            result = ctx.t("history.aborted")
        else:
            outcome = OUTCOMES[score]
            result = ctx.t(f"history.{outcome}", reason=reason)
        rating = (
            ctx.t("history.change", **change_words(change))
            if change is not None
            else ctx.t("history.unrated")
        )
        return ctx.t(
            "history.line",
            game=game.id,
            opponent=opponent,
            variant=present.game_variant_name(game.variant, game.start_sfen, ctx.lang),
            result=result,
            rating=rating,
        )
