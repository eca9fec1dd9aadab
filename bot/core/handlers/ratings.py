"""Ratings: ``/rating [@user] [variant]``.

What counts is decided by :attr:`bot.store.models.GameRow.rateable`; the store applies Glicko-2
(:mod:`bot.glicko2`) in the transaction that finishes the game.  A player's rating is kept
per variant in each community (``ChatKey.community_id``: a Discord server, a Telegram group,
else the chat) and over the whole platform.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core import present
from bot.core.api import Reply
from bot.core.context import Context
from bot.core.handlers.player_args import rating_args, where_words
from bot.core.messages import plural
from bot.core.people import People
from bot.core.rating_lines import score_of
from bot.glicko2 import Rating, shown
from bot.store.interface import Store
from bot.store.models import ENGINE_PLAYER, ChatKey, RatingRow

STREAK_PAGE = 50  # games read at a time while counting a streak back from the latest


def _row_line(ctx: Context, where: str, row: RatingRow | None) -> str:
    if row is None:
        return ctx.t("rating.none_here", where=where)
    return ctx.t(
        "rating.line",
        where=where,
        rating=shown(Rating(row.rating, row.deviation)),
        deviation=round(row.deviation),
        games=row.games,
        wins=row.wins,
        losses=row.losses,
        draws=row.draws,
    )


@dataclass(eq=False)
class Ratings:
    """The /rating command."""

    store: Store
    people: People

    async def cmd_rating(self, ctx: Context) -> Reply:
        args = await rating_args(self.store, self.people, ctx, "rating.bad_arg")
        if args.player == ENGINE_PLAYER:
            return Reply(ctx.t("rating.bot_unrated", name=await self.people.name(ENGINE_PLAYER)))
        store = self.store
        platform, community = ctx.chat.platform, ctx.chat.community_id
        here = {r.variant: r for r in await store.ratings_of(platform, community, args.player)}
        overall = {r.variant: r for r in await store.ratings_of(platform, "", args.player)}
        name = await self.people.name(args.player)
        variants = [args.variant] if args.variant else sorted(set(here) | set(overall))
        if not variants:
            return Reply(ctx.t("rating.no_games", name=name))
        lines = [ctx.t("rating.title", name=name)]
        for v in variants:
            lines.append(ctx.t("rating.variant", variant=present.variant_name(v, ctx.lang)))
            lines.append(_row_line(ctx, where_words(ctx), here.get(v)))
            if v in here:
                lines += await self.feats(ctx, ctx.chat, args.player, v)
            lines.append(_row_line(ctx, ctx.t("rating.where.overall"), overall.get(v)))
        return Reply("\n".join(lines))

    async def feats(self, ctx: Context, chat: ChatKey, player: str, variant: str) -> list[str]:
        """The best win and the current streak of ``player`` in ``variant`` in the chat's
        community (lines of /rating)."""
        store = self.store
        lines = []
        best = await store.best_win(chat.platform, chat.community_id, player, variant)
        if best is not None:
            lines.append(
                ctx.t(
                    "rating.best_win",
                    rating=shown(Rating(best.rating_before, best.deviation_before)),
                    name=await self.people.name(best.player),
                    game=best.game_id,
                )
            )
        streak, score = await self.streak(chat, player, variant)
        if streak:
            kind = {1.0: "wins", 0.5: "draws", 0.0: "losses"}[score]
            counted = plural(f"rating.streak.{kind}", ctx.lang, streak)
            lines.append(ctx.t("rating.streak", streak=counted))
        return lines

    async def streak(self, chat: ChatKey, player: str, variant: str) -> tuple[int, float]:
        """How many of ``player``'s latest rated games in ``variant`` here ended alike, and
        how (1 won, 0.5 drawn, 0 lost); (0, 0) before any."""
        count, first, offset = 0, None, 0
        while True:
            games = await self.store.finished_games(
                chat.platform, chat.community_id, player, variant=variant,
                offset=offset, limit=STREAK_PAGE,
            )  # fmt: skip
            rated = await self.store.player_changes(player, [g.id for g in games])
            for game in games:
                if game.id not in rated:
                    continue  # casual, short or aborted: no part of a rated streak
                score = score_of(game, player)
                if first is None:
                    first = score
                if score != first:
                    return count, first or 0.0
                count += 1
            if len(games) < STREAK_PAGE:
                return count, first or 0.0
            offset += STREAK_PAGE
