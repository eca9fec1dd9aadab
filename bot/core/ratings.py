"""Ratings: ``/rating [@user] [variant]``, the rating lines of a finished game's result, and
what ``/leaderboard`` and ``/history`` read their words with (:func:`rating_args`).

What counts is decided by :attr:`bot.store.models.GameRow.rateable`; the store applies Glicko-2
(:mod:`bot.glicko2`) in the transaction that finishes the game.  A player's rating is kept
per variant in each community (``ChatKey.community_id``: a Discord server, a Telegram group,
else the chat) and over the whole platform.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core import present
from bot.core.api import Button, Reply
from bot.core.base import Context, UserError, parse_number
from bot.core.messages import plural, text
from bot.glicko2 import Rating, shown
from bot.store.models import ChatKey, GameRow, RatingChange, RatingRow

if TYPE_CHECKING:
    from bot.core.service import GameService

STREAK_PAGE = 50  # games read at a time while counting a streak back from the latest
MAX_PAGE = 10_000  # the highest page number read (more is a typo: it is refused)
_USER_KEY = re.compile(r"^(discord|telegram|console):\S+$")


def change_line(changes: list[RatingChange], names: tuple[str, str], lang: str) -> str:
    """``Ratings: Alice 1500? → 1662? (+162), Bob …`` for a finished game (sente first)."""
    parts = [
        text("rating.change", lang, name=name, **change_words(change))
        for change, name in zip(changes, names, strict=False)
    ]
    return text("rating.changes", lang, changes=parts)


def change_words(change: RatingChange) -> dict[str, str]:
    """``before``, ``after`` and ``delta`` (``+162``) of one rating change, as shown."""
    before = Rating(change.rating_before, change.deviation_before)
    after = Rating(change.rating_after, change.deviation_after)
    delta = round(after.rating) - round(before.rating)
    return {"before": shown(before), "after": shown(after), "delta": f"{delta:+d}"}


def where_words(ctx: Context) -> str:
    """ "this server" in a Discord server (its community), else "this chat"."""
    return ctx.t("rating.where.server" if ctx.chat.community else "rating.where.here")


def score_of(game: GameRow, player: str) -> float | None:
    """1 for ``player``'s win, 0.5 for a draw, 0 for a loss; None for an aborted game."""
    if game.termination == "aborted":
        return None
    if game.winner is None:
        return 0.5
    return 1.0 if (game.winner == 0) == (game.sente == player) else 0.0


@dataclass(frozen=True)
class RatingArgs:
    """What the words of /rating, /leaderboard or /history say: whose, which variant, which
    page (1 when not said)."""

    player: str
    variant: str | None
    page: int


async def rating_args(
    svc: GameService, ctx: Context, usage: str, *, variant: bool = True, page: bool = False
) -> RatingArgs:
    """Read ``[@user] [variant] [page]`` (those the command takes): a platform mention or
    ``@name`` (a user key, as page buttons write it), a variant word, a page number.  Any
    other word is refused with the message ``usage``."""
    from bot.core.challenges import VARIANT_WORDS

    target = ctx.request.target
    player = target.key if target else ctx.user
    unknown = {m.lower() for m in ctx.request.unknown_mentions}
    found_variant: str | None = None
    found_page: int | None = None
    for word in ctx.args:
        low = word.lower()
        number = parse_number(word) if page else None
        if low in unknown:
            raise UserError("challenge.unknown_user", name=word)
        if low.startswith("@") and len(low) > 1:
            if target is not None and low[1:] in (
                target.name.lower(),
                (target.handle or "").lower(),
            ):
                continue
            player = (await svc.user_by_name(ctx, word)).key
        elif _USER_KEY.match(word) and word.startswith(f"{ctx.chat.platform}:"):
            if await svc.store.get_user(word) is None:
                raise UserError("challenge.unknown_user", name=word)
            player = word
        elif variant and low in VARIANT_WORDS and found_variant is None:
            found_variant = VARIANT_WORDS[low]
        elif number is not None and found_page is None:
            if not 1 <= number <= MAX_PAGE:
                raise UserError("page.range", page=word, most=MAX_PAGE)
            found_page = number
        else:
            raise UserError(usage, word=word)
    return RatingArgs(player, found_variant, found_page or 1)


def pages_of(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))


def check_page(page: int, pages: int) -> None:
    if page > pages:
        raise UserError("page.missing", page=page, pages=pages)


def page_buttons(
    ctx: Context, action: str, page: int, pages: int
) -> tuple[tuple[Button, ...], ...]:
    """◀ and ▶ buttons to the pages around ``page`` (``action`` then the page number)."""
    row = []
    if page > 1:
        row.append(Button(ctx.t("button.page_back", page=page - 1), f"{action} {page - 1}"))
    if page < pages:
        row.append(Button(ctx.t("button.page_next", page=page + 1), f"{action} {page + 1}"))
    return (tuple(row),) if row else ()


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


class Ratings:
    """The /rating command, over the service's store and its users."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc

    async def cmd_rating(self, ctx: Context) -> Reply:
        args = await rating_args(self.svc, ctx, "rating.bad_arg")
        store = self.svc.store
        platform, community = ctx.chat.platform, ctx.chat.community_id
        here = {r.variant: r for r in await store.ratings_of(platform, community, args.player)}
        overall = {r.variant: r for r in await store.ratings_of(platform, "", args.player)}
        name = await self.svc.name(args.player)
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
        store = self.svc.store
        lines = []
        best = await store.best_win(chat.platform, chat.community_id, player, variant)
        if best is not None:
            lines.append(
                ctx.t(
                    "rating.best_win",
                    rating=shown(Rating(best.rating_before, best.deviation_before)),
                    name=await self.svc.name(best.player),
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
            games = await self.svc.store.finished_games(
                chat.platform, chat.community_id, player, variant=variant,
                offset=offset, limit=STREAK_PAGE,
            )  # fmt: skip
            rated = await self.svc.store.player_changes(player, [g.id for g in games])
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
