"""Ratings: ``/rating [@user] [variant]`` and the rating lines of a finished game's result.

What counts is decided by :attr:`bot.store.models.GameRow.rateable`; the store applies Glicko-2
(:mod:`bot.core.glicko2`) in the transaction that finishes the game.  A player's rating is kept
per variant in each community (the chat: the store keeps no guild or group above it) and over
the whole platform.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core import present
from bot.core.api import Reply
from bot.core.base import Context, UserError
from bot.core.glicko2 import Rating, shown
from bot.core.messages import text
from bot.store.models import RatingChange, RatingRow

if TYPE_CHECKING:
    from bot.core.service import GameService


def change_line(changes: list[RatingChange], names: tuple[str, str], lang: str) -> str:
    """``Ratings: Alice 1500? → 1662? (+162), Bob …`` for a finished game (sente first)."""
    parts = []
    for change, name in zip(changes, names, strict=False):
        before = Rating(change.rating_before, change.deviation_before)
        after = Rating(change.rating_after, change.deviation_after)
        delta = round(after.rating) - round(before.rating)
        parts.append(
            text(
                "rating.change",
                lang,
                name=name,
                before=shown(before),
                after=shown(after),
                delta=f"{delta:+d}",
            )
        )
    return text("rating.changes", lang, changes=", ".join(parts))


def _row_line(ctx: Context, where: str, row: RatingRow | None) -> str:
    if row is None:
        return ctx.t("rating.none_here", where=ctx.t(f"rating.where.{where}"))
    return ctx.t(
        "rating.line",
        where=ctx.t(f"rating.where.{where}"),
        rating=shown(Rating(row.rating, row.deviation)),
        deviation=round(row.deviation),
        games=row.games,
        wins=row.wins,
        losses=row.losses,
        draws=row.draws,
    )


class Ratings:
    """The ratings commands, over the service's store and its users."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc

    async def cmd_rating(self, ctx: Context) -> Reply:
        from bot.core.challenges import VARIANT_WORDS

        player = ctx.request.target.key if ctx.request.target else ctx.user
        target = ctx.request.target
        unknown = {m.lower() for m in ctx.request.unknown_mentions}
        variant: str | None = None
        for word in ctx.args:
            low = word.lower()
            if low in unknown:
                raise UserError("challenge.unknown_user", name=word)
            if low.startswith("@") and len(low) > 1:
                if target is not None and low[1:] in (
                    target.name.lower(),
                    (target.handle or "").lower(),
                ):
                    continue
                player = (await self.svc.user_by_name(ctx, word)).key
            elif low in VARIANT_WORDS and variant is None:
                variant = VARIANT_WORDS[low]
            else:
                raise UserError("rating.bad_arg", word=word)
        store = self.svc.store
        platform = ctx.chat.platform
        here = {r.variant: r for r in await store.ratings_of(platform, ctx.chat.chat_id, player)}
        overall = {r.variant: r for r in await store.ratings_of(platform, "", player)}
        name = await self.svc.name(player)
        variants = [variant] if variant else sorted(set(here) | set(overall))
        if not variants:
            return Reply(ctx.t("rating.no_games", name=name))
        lines = [ctx.t("rating.title", name=name)]
        for v in variants:
            lines.append(ctx.t("rating.variant", variant=present.variant_name(v, ctx.lang)))
            lines.append(_row_line(ctx, "here", here.get(v)))
            lines.append(_row_line(ctx, "overall", overall.get(v)))
        return Reply("\n".join(lines))
