"""What ``/rating``, ``/leaderboard`` and ``/history`` read: whose, which variant, which page;
and the page buttons they answer with."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.api import Button
from bot.core.args import parse_number, shown, written_as_number
from bot.core.context import Context, UserError
from bot.core.messages import plural
from bot.core.people import People, mentions
from bot.core.words import BOT_WORDS, variant_of
from bot.store.interface import Store
from bot.store.models import ENGINE_PLAYER

MAX_PAGE = 10_000  # the highest page number read (more is a typo: it is refused)
_USER_KEY = re.compile(r"^(discord|telegram|console):\S+$")


def where_words(ctx: Context) -> str:
    """ "this server" in a Discord server (its community), else "this chat"."""
    return ctx.t("rating.where.server" if ctx.chat.community else "rating.where.here")


@dataclass(frozen=True)
class RatingArgs:
    """What the words of /rating, /leaderboard or /history say: whose, which variant, which
    page (1 when not said)."""

    player: str
    variant: str | None
    page: int


async def rating_args(
    store: Store,
    people: People,
    ctx: Context,
    usage: str,
    *,
    variant: bool = True,
    page: bool = False,
) -> RatingArgs:
    """Read ``[@user] [variant] [page]`` (those the command takes): a platform mention or
    ``@name`` (a user key, as page buttons write it), a variant word, a page number.  Any
    other word is refused with the message ``usage``.  The bot (a mention of it, ``bot``,
    ``@komabot``) is the player :data:`ENGINE_PLAYER`; naming two players is refused (one
    at a time), never settled by taking the last."""
    target = ctx.request.target
    more = ctx.request.more_targets
    named = [user.key for user in (target, *more) if user is not None]
    if ctx.request.to_bot:
        named.append(ENGINE_PLAYER)
    unknown = {m.lower() for m in ctx.request.unknown_mentions}
    found_variant: str | None = None
    found_page: int | None = None
    for word in ctx.args:
        low = word.lower()
        number = parse_number(word) if page else None
        if low in unknown:
            raise UserError("challenge.unknown_user", name=word)
        if low.startswith("@") and len(low) > 1:
            if mentions(low, target, *more):
                continue
            if low[1:] in BOT_WORDS and await _nobody_named(store, ctx, word):
                named.append(ENGINE_PLAYER)
            else:
                named.append((await people.user_by_name(ctx, word)).key)
        elif low in BOT_WORDS:
            named.append(ENGINE_PLAYER)
        elif _USER_KEY.match(word) and word.startswith(f"{ctx.chat.platform}:"):
            if await store.get_user(word) is None:
                raise UserError("challenge.unknown_user", name=word)
            named.append(word)
        elif variant and variant_of(low) is not None and found_variant is None:
            found_variant = variant_of(low)
        elif page and found_page is None and (number is not None or written_as_number(word)):
            if number is None:
                raise UserError("page.range", page=shown(word), most=MAX_PAGE)
            if not 1 <= number <= MAX_PAGE:
                raise UserError("page.range", page=shown(word), most=MAX_PAGE)
            found_page = number
        else:
            raise UserError(usage, word=shown(word))
    player = await people.one_player(named)
    return RatingArgs(player or ctx.user, found_variant, found_page or 1)


async def _nobody_named(store: Store, ctx: Context, word: str) -> bool:
    """Whether no person here is called ``word`` without its ``@`` (``@bot`` is then the bot)."""
    return not await store.users_named(ctx.chat.platform, word[1:])


def pages_of(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))


def check_page(ctx: Context, page: int, pages: int) -> None:
    if page > pages:
        raise UserError("page.missing", page=page, pages=plural("page.count", ctx.lang, pages))


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
