"""``/leaderboard [variant|puzzles] [page]``: the community's best settled ratings (in a
variant's games, or in puzzles), and the asker's place.

The board holds the players of the chat's community (a Discord server, a Telegram group, else
the chat) whose rating in the variant is not provisional, best first, ten a page, read through
the index ``ratings_board``.  Front ends that show pictures get the page as an image (drawn by
:mod:`render.leaderboard`) with ◀ ▶ buttons; the console gets the same rows as text.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.core import present
from bot.core.api import Attachment, Reply
from bot.core.args import parse_number
from bot.core.args import shown as shown_word
from bot.core.context import LIST_LIMIT, Buttons, Context, UserError
from bot.core.handlers.player_args import (
    MAX_PAGE,
    check_page,
    page_buttons,
    pages_of,
    rating_args,
    where_words,
)
from bot.core.people import People
from bot.core.pictures import Pictures
from bot.core.replies import Replies
from bot.core.words import PUZZLE_BOARD_WORDS
from bot.glicko2 import PROVISIONAL_DEVIATION, Rating, shown
from bot.store.interface import Store
from bot.store.models import RatingRow
from render.leaderboard import Entry, render_leaderboard

log = logging.getLogger(__name__)

DEFAULT_VARIANT = "shogi"  # in a chat that has played nothing yet
TROPHY = "🏆 "  # before the title in text (the image draws the title alone)


def place_line(ctx: Context, mine: Rating, place: int | None, total: int) -> str:
    """The asker's place on a board of ``total`` (None: provisional, not on it)."""
    rating = shown(mine)
    if place is None:
        return ctx.t(
            "leaderboard.you_provisional", rating=rating, deviation=round(mine.deviation),
            threshold=round(PROVISIONAL_DEVIATION),
        )  # fmt: skip
    return ctx.t("leaderboard.you", place=place, total=total, rating=rating)


@dataclass(eq=False)
class Leaderboard:
    """The /leaderboard command."""

    store: Store
    people: People
    replies: Replies
    pictures: Pictures

    async def cmd_leaderboard(self, ctx: Context) -> Reply:
        if ctx.args and ctx.args[0].lower() in PUZZLE_BOARD_WORDS:
            return await self.puzzle_board(ctx)
        args = await rating_args(self.store, self.people, ctx, "leaderboard.bad_arg", page=True)
        store = self.store
        chat = ctx.chat
        variant = args.variant or await store.latest_variant(chat) or DEFAULT_VARIANT
        platform, community = chat.platform, chat.community_id
        total = await store.leaderboard_size(platform, community, variant)
        pages = pages_of(total, LIST_LIMIT)
        check_page(ctx, args.page, pages)
        first = (args.page - 1) * LIST_LIMIT
        rows = await store.leaderboard(platform, community, variant, offset=first, limit=LIST_LIMIT)
        variant_name = present.variant_name(variant, ctx.lang)
        title = ctx.t(
            "leaderboard.title", variant=variant_name, where=where_words(ctx), page=args.page,
            pages=pages,
        )  # fmt: skip
        mine = await store.rating(platform, community, ctx.user, variant)
        you = await self.your_place(ctx, mine, total)
        if not rows:
            return Reply("\n".join((ctx.t("leaderboard.empty", variant=variant_name), you)))
        players = [(r.player, r.rating, r.deviation, r.games) for r in rows]
        buttons = page_buttons(ctx, f"leaderboard {variant}", args.page, pages)
        counted = ctx.t("leaderboard.head.games")
        return await self.page(
            ctx, title, first, players, counted, "leaderboard.line", you, buttons
        )

    async def your_place(self, ctx: Context, mine: RatingRow | None, total: int) -> str:
        if mine is None:
            return ctx.t("leaderboard.you_none")
        place = await self.store.leaderboard_place(ctx.chat.platform, ctx.chat.community_id, mine)
        return place_line(ctx, Rating(mine.rating, mine.deviation), place, total)

    async def puzzle_board(self, ctx: Context) -> Reply:
        """``/leaderboard puzzles [page]``: the community's settled puzzle ratings."""
        page = 1
        if len(ctx.args) > 2:
            raise UserError("leaderboard.bad_arg", word=shown_word(ctx.args[2]))
        if len(ctx.args) == 2:
            number = parse_number(ctx.args[1])
            if number is None or not 1 <= number <= MAX_PAGE:
                raise UserError("page.range", page=shown_word(ctx.args[1]), most=MAX_PAGE)
            page = number
        store = self.store
        platform, community = ctx.chat.platform, ctx.chat.community_id
        total = await store.puzzle_leaderboard_size(platform, community)
        pages = pages_of(total, LIST_LIMIT)
        check_page(ctx, page, pages)
        first = (page - 1) * LIST_LIMIT
        rows = await store.puzzle_leaderboard(platform, community, offset=first, limit=LIST_LIMIT)
        title = ctx.t("leaderboard.puzzles.title", where=where_words(ctx), page=page, pages=pages)
        you = await self.your_puzzle_place(ctx, total)
        if not rows:
            return Reply("\n".join((ctx.t("leaderboard.puzzles.empty"), you)))
        players = [(r.player, r.rating, r.deviation, r.attempts) for r in rows]
        buttons = page_buttons(ctx, "leaderboard puzzles", page, pages)
        counted = ctx.t("leaderboard.head.puzzles")
        line = "leaderboard.puzzles.line"
        return await self.page(ctx, title, first, players, counted, line, you, buttons)

    async def page(
        self,
        ctx: Context,
        title: str,
        first: int,
        players: list[tuple[str, float, float, int]],
        counted: str,
        line: str,
        you: str,
        buttons: Buttons,
    ) -> Reply:
        """One page of a board: ``players`` (key, rating, deviation, games or puzzles) from
        place ``first + 1``, as an image where pictures are shown (``counted`` heads the last
        column), else as ``line``s; then ``you`` (the asker's place)."""
        lines = [
            (
                first + n + 1,
                await self.people.name(player),
                shown(Rating(rating, deviation)),
                round(deviation),
                count,
                player == ctx.user,
            )
            for n, (player, rating, deviation, count) in enumerate(players)
        ]
        image = await self.image(ctx, title, lines, counted)
        table = [
            ctx.t(line, place=p, name=n, rating=r, deviation=d, games=g) + (" ◀" if me else "")
            for p, n, r, d, g, me in lines
        ]
        body = [TROPHY + title] if image is not None else [TROPHY + title, *table]
        return Reply("\n".join((*body, you)), image=image, buttons=buttons)

    async def your_puzzle_place(self, ctx: Context, total: int) -> str:
        chat = ctx.chat
        mine = await self.store.puzzle_rating(chat.platform, chat.community_id, ctx.user)
        if mine is None:
            return ctx.t("leaderboard.puzzles.you_none")
        place = await self.store.puzzle_leaderboard_place(mine)
        return place_line(ctx, Rating(mine.rating, mine.deviation), place, total)

    async def image(
        self,
        ctx: Context,
        title: str,
        lines: list[tuple[int, str, str, int, int, bool]],
        counted: str,
    ) -> Attachment | None:
        """The page as a PNG where the front end shows pictures (not the console); ``counted``
        heads the last column (games, puzzles)."""
        if not self.pictures.enabled or self.replies.shows_text_board(ctx, ctx.chat):
            return None
        entries = [Entry(p, n, r, str(g), me) for p, n, r, _, g, me in lines]
        headers = (ctx.t("leaderboard.head.player"), ctx.t("leaderboard.head.rating"), counted)
        try:
            data = await self.pictures.draw(render_leaderboard, title, entries, headers)
        except Exception:
            log.exception("drawing the leaderboard failed")  # the rows go out as text
            return None
        return Attachment(data, "leaderboard.png", "image/png")
