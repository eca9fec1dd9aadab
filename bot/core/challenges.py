"""Challenges: ``challenge``, ``accept``, ``decline``, ``cancel``, and their expiry."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace

from bot.config import parse_duration
from bot.core import present
from bot.core.api import Button, Reply, User
from bot.core.base import (
    LIST_LIMIT,
    Context,
    ServiceBase,
    UserError,
    game_started,
    listing,
    parse_number,
)
from bot.core.messages import text
from bot.store.errors import ChallengeAlreadyOpen, VersionConflict
from bot.store.models import ChallengeRow, ChallengeStatus, GameRow, GameStatus
from rules import GOTE, SENTE, load_variant

log = logging.getLogger("komabot.service")

VARIANT_WORDS = {
    "shogi": "shogi",
    "standard": "shogi",
    "honshogi": "shogi",
    "wa": "wa",
    "washogi": "wa",
    "wa-shogi": "wa",
    "wa-drops": "wa-drops",
    "wadrops": "wa-drops",
    "wa+drops": "wa-drops",
    "wa-shogi-drops": "wa-drops",
}
COLOR_WORDS = {
    "random": "random",
    "any": "random",
    "sente": "sente",
    "black": "sente",
    "first": "sente",
    "gote": "gote",
    "white": "gote",
    "second": "gote",
}
RATED_WORDS = {
    "rated": True,
    "casual": False,
    "unrated": False,
    "рейтинговая": True,
    "товарищеская": False,
}
"""Whether a game between two people counts for ratings (it does unless ``casual``)."""
NO_TIME_WORDS = ("none", "no", "off", "unlimited", "-", "∞")
BOT_WORDS = frozenset({"bot", "komabot", "computer", "engine", "cpu", "ai", "бот"})
"""Words that name the bot itself as the opponent (front ends also pass a mention of the bot
as ``Request.to_bot``)."""
LEVEL_WORDS = frozenset({"level", "lvl", "lv", "уровень"})  # followed by the number
_LEVEL_GLUED = re.compile(r"^(?:level|lvl|lv|l)=?(\d+)$")  # level4, lvl=4, l4
_BOT = object()  # the opponent named by a word of BOT_WORDS
MIN_TIME = 3600
MAX_TIME = 30 * 86400


@dataclass(frozen=True)
class ChallengeTerms:
    opponent: User | None  # a person (None: anyone, or the bot)
    variant: str | None  # None: not named
    color: str  # the side of the one who asks: random, sente or gote
    time_per_move: int | None
    by_name: bool = False  # the opponent was found by a typed name, not a platform mention
    vs_bot: bool = False  # the bot itself is the opponent
    level: int | None = None  # the bot's level, when one was named
    rated: bool | None = None  # rated or casual, when said (None: rated between people)


def parse_level(word: str) -> int:
    """A level of the bot, 1 to 8, from ``word``; UserError otherwise."""
    from engine.levels import HIGHEST, LOWEST

    if not word.isdigit() or not LOWEST <= int(word) <= HIGHEST:
        raise UserError("bot.level_range", word=word, low=LOWEST, high=HIGHEST)
    return int(word)


class ChallengeCommands(ServiceBase):
    async def parse_terms(self, ctx: Context, usage: str = "challenge.bad_arg") -> ChallengeTerms:
        """Read ``[@user|bot] [variant] [colour] [time] [level N]`` in any order (a bare
        number is a level, a word of BOT_WORDS the bot); a word that is none of them is
        refused with the message ``usage``."""
        found: dict[str, tuple[str, object]] = {}

        def put(what: str, word: str, value: object) -> None:
            if what in found:
                raise UserError(
                    "challenge.twice",
                    word=found[what][0],
                    other=word,
                    what=ctx.t(f"challenge.what.{what}"),
                )
            found[what] = (word, value)

        opponent = ctx.request.target
        unknown = {m.lower() for m in ctx.request.unknown_mentions}
        words = list(ctx.args)
        while words:
            word = words.pop(0)
            low = word.lower()
            glued = _LEVEL_GLUED.match(low)
            if low in unknown:
                raise UserError("challenge.unknown_user", name=word)
            if low.startswith("@") and len(low) > 1:
                if opponent is not None and low[1:] in (
                    opponent.name.lower(),
                    (opponent.handle or "").lower(),
                ):
                    continue
                put("opponent", word, await self.user_by_name(ctx, word))
            elif low in BOT_WORDS:
                put("opponent", word, _BOT)
            elif low in LEVEL_WORDS:
                if not words:
                    raise UserError("bot.level_missing", word=word)
                number = words.pop(0)
                put("level", f"{word} {number}", parse_level(number))
            elif glued or low.isdigit():
                put("level", word, parse_level(glued.group(1) if glued else low))
            elif low in VARIANT_WORDS:
                put("variant", word, VARIANT_WORDS[low])
            elif low in COLOR_WORDS:
                put("color", word, COLOR_WORDS[low])
            elif low in RATED_WORDS:
                put("rated", word, RATED_WORDS[low])
            elif low in NO_TIME_WORDS:
                put("time", word, None)
            else:
                try:
                    seconds = parse_duration(low)
                except ValueError:
                    raise UserError(usage, word=word) from None
                if not MIN_TIME <= seconds <= MAX_TIME:
                    raise UserError(
                        "challenge.time_range",
                        low=present.format_duration(MIN_TIME, ctx.lang),
                        high=present.format_duration(MAX_TIME, ctx.lang),
                        time=word,
                    )
                put("time", word, seconds)
        vs_bot = ctx.request.to_bot
        if vs_bot and opponent is not None:
            raise UserError(
                "challenge.twice",
                word="@" + opponent.name,
                other=ctx.t("bot.mention"),
                what=ctx.t("challenge.what.opponent"),
            )
        if "opponent" in found:
            if opponent is not None or (vs_bot and found["opponent"][1] is not _BOT):
                raise UserError(
                    "challenge.twice",
                    word="@" + opponent.name if opponent else found["opponent"][0],
                    other=found["opponent"][0] if opponent else ctx.t("bot.mention"),
                    what=ctx.t("challenge.what.opponent"),
                )
            if found["opponent"][1] is _BOT:
                vs_bot = True
            else:
                opponent = found["opponent"][1]  # type: ignore[assignment]
        time_value = found["time"][1] if "time" in found else self.config.default_time
        variant = found.get("variant")
        level = found.get("level")
        rated = found.get("rated")
        return ChallengeTerms(
            opponent,
            str(variant[1]) if variant else None,
            str(found.get("color", ("", "random"))[1]),
            time_value,  # type: ignore[arg-type]
            by_name="opponent" in found and not vs_bot,
            vs_bot=vs_bot,
            level=int(level[1]) if level else None,  # type: ignore[call-overload]
            rated=bool(rated[1]) if rated else None,
        )

    async def user_by_name(self, ctx: Context, word: str) -> User:
        """The one user ``@name`` can mean: typed text is matched against display names and
        handles (Telegram usernames, Discord user names) of the people the bot knows on this
        platform, never against ids; a name two people share is refused with their handles.

        Display names are anyone's to choose, so only a platform mention (``Request.target``)
        names a person for certain; the challenge card says whom a typed name was taken for.
        """
        name = word[1:]
        platform = ctx.chat.platform
        if name.isdecimal():
            raise UserError("challenge.number_name", name=word)
        keys = [row.key for row in await self.store.users_named(platform, name)]
        by_handle = await self.user_with_handle(platform, name)
        if by_handle is not None and by_handle not in keys:
            keys.insert(0, by_handle)
        if not keys:
            raise UserError("challenge.unknown_user", name=word)
        if len(keys) > 1:
            people = [await self.who(key) for key in keys]
            raise UserError("challenge.ambiguous_user", name=word, people=people)
        user = await self.user(keys[0])
        return User(user.platform, user.id, user.name, await self.handle_of(user.key))

    async def who(self, key: str) -> str:
        """A user's display name with their handle: ``Bob (@bob_real)``."""
        name = await self.name(key)
        handle = await self.handle_of(key)
        return f"{name} (@{handle})" if handle else name

    async def cmd_challenge(self, ctx: Context) -> Reply:
        terms = await self.parse_terms(ctx)
        opponent = terms.opponent
        if terms.level is not None and not terms.vs_bot:
            raise UserError("bot.level_for_bot", level=terms.level)
        if opponent is not None:
            if opponent.key == ctx.user:
                raise UserError("challenge.self")
            await self.remember(opponent)
        if ctx.settings.threads and ctx.request.options.get("threads") == "1":
            # The front end opens a thread and asks again from inside it.
            return Reply(
                "", thread_title=ctx.t("challenge.thread_name", name=ctx.request.user.name)
            )
        if terms.vs_bot:  # the bot accepts at once (see bot.core.bot_player)
            return await self.bot_player.start_game(ctx, terms)
        mine = await self.store.active_game(ctx.chat, ctx.user)
        if mine is not None:
            raise UserError("challenge.you_busy", game=mine.id)
        if opponent is not None:
            theirs = await self.store.active_game(ctx.chat, opponent.key)
            if theirs is not None:
                raise UserError("challenge.they_busy", name=opponent.name, game=theirs.id)
        for open_one in await self.store.open_challenges(ctx.chat, by=ctx.user):
            if open_one.expires_at > ctx.now:
                raise UserError("challenge.already_open", challenge=open_one.id)
            await self.expire_challenge(open_one.id)  # past its time; its timer is late
        try:
            # The store holds one open challenge per person per chat even against requests
            # racing this one (the check above only gives the usual answer sooner).
            challenge = await self.store.create_challenge(
                ctx.chat,
                ctx.user,
                opponent.key if opponent else None,
                terms.variant or "shogi",
                terms.color,
                terms.time_per_move,
                ctx.now,
                ctx.now + self.config.challenge_ttl,
                rated=terms.rated is not False,
            )
        except ChallengeAlreadyOpen as exc:
            raise UserError("challenge.already_open", challenge=exc.challenge_id) from None
        self.timers_changed()
        card = await self.challenge_card(ctx, challenge)
        if terms.by_name and opponent is not None:
            said = ctx.t(
                "challenge.by_name",
                who=await self.who(opponent.key),
                name=opponent.name,
                challenge=challenge.id,
            )
            card = replace(card, text=said + "\n" + card.text)
        return card

    async def challenge_card(self, ctx: Context, ch: ChallengeRow) -> Reply:
        challenger = await self.name(ch.challenger)
        color = ctx.t("color.random") if ch.color == "random" else ctx.t(f"color.{ch.color}")
        params = dict(
            challenge=ch.id,
            challenger=challenger,
            variant=present.variant_name(ch.variant, ctx.lang),
            color=color,
            time=present.format_time_control(ch.time_per_move, ctx.lang)
            + ("" if ch.rated else " · " + ctx.t("challenge.casual")),
            expires=present.format_when(ch.expires_at, ctx.lang, ch.chat.platform),
        )
        buttons: tuple[Button, ...]
        if ch.challenged is None:
            body = ctx.t("challenge.card_open", **params)
            buttons = (
                Button(ctx.t("button.accept"), f"accept {ch.id}", "success"),
                Button(ctx.t("button.cancel"), f"cancel {ch.id}", "secondary"),
            )
            mentions: tuple[User, ...] = ()
        else:
            body = ctx.t("challenge.card", challenged=await self.name(ch.challenged), **params)
            buttons = (
                Button(ctx.t("button.accept"), f"accept {ch.id}", "success"),
                Button(ctx.t("button.decline"), f"decline {ch.id}", "danger"),
                Button(ctx.t("button.cancel"), f"cancel {ch.id}", "secondary"),
            )
            mentions = (await self.user(ch.challenged),)
        return Reply(body, buttons=(buttons,), mentions=mentions, card=f"challenge:{ch.id}")

    async def pick_challenge(self, ctx: Context, *, mine: bool) -> ChallengeRow:
        """The challenge named by the first argument, or the only fitting one in this chat."""
        if ctx.args:
            number = parse_number(ctx.args[0])
            if number is None:
                raise UserError("challenge.bad_number", text=ctx.args[0])
            ch = await self.store.get_challenge(number)
            if ch is None or ch.chat.platform != ctx.chat.platform:
                raise UserError("challenge.not_found", challenge=number)
            if ch.chat.chat_id != ctx.chat.chat_id:
                raise UserError("challenge.other_chat", challenge=number)
            return ch

        by, to = (ctx.user, None) if mine else (None, ctx.user)
        # At most LIST_LIMIT, those addressed to the user first (so one of them is the one).
        candidates = await self.store.open_challenges(ctx.chat, by=by, to=to, limit=LIST_LIMIT)
        if not candidates:
            raise UserError("challenge.none_for_you")
        direct = [c for c in candidates if c.challenged == ctx.user]
        if len(direct) == 1:
            return direct[0]
        if len(candidates) > 1:
            total = len(candidates)
            if total == LIST_LIMIT:
                total = await self.store.count_open_challenges(ctx.chat, by=by, to=to)
            lines = [await self.challenge_line(ctx, c) for c in candidates]
            raise UserError("challenge.several", challenges=listing(ctx, lines, total))
        return candidates[0]

    async def require_open(self, ctx: Context, ch: ChallengeRow) -> None:
        if ch.status is ChallengeStatus.OPEN and ch.expires_at <= ctx.now:
            ch = await self.expire_challenge(ch.id) or ch
        if ch.status is not ChallengeStatus.OPEN:
            raise UserError(
                "challenge.not_open",
                challenge=ch.id,
                status=ctx.t(f"challenge.status.{ch.status.value}"),
            )

    async def cmd_accept(self, ctx: Context) -> Reply:
        ch = await self.pick_challenge(ctx, mine=False)
        await self.require_open(ctx, ch)
        if ch.challenger == ctx.user:
            raise UserError("challenge.own", challenge=ch.id)
        if ch.challenged is not None and ch.challenged != ctx.user:
            raise UserError(
                "challenge.not_for_you", challenge=ch.id, name=await self.name(ch.challenged)
            )
        await self.check_free(ctx, ch)
        challenger_color = {"sente": SENTE, "gote": GOTE}.get(ch.color)
        if challenger_color is None:
            challenger_color = self.rng.choice((SENTE, GOTE))
        sente, gote = (
            (ch.challenger, ctx.user) if challenger_color == SENTE else (ctx.user, ch.challenger)
        )
        variant = load_variant(ch.variant)
        game = GameRow(
            id=0,
            chat=replace(ch.chat, community=ctx.chat.community),  # taken in its chat
            variant=ch.variant,
            start_sfen=variant.start_sfen,
            moves=(),
            version=1,
            sente=sente,
            gote=gote,
            status=GameStatus.ACTIVE,
            termination=None,
            winner=None,
            time_per_move=ch.time_per_move,
            deadline=ctx.now + ch.time_per_move if ch.time_per_move else None,
            draw_offer=None,
            takeback_offer=None,
            created_at=ctx.now,
            updated_at=ctx.now,
            challenge_id=ch.id,
            rated=ch.rated,  # two people: rated unless casual (see GameRow.rateable)
        )
        try:
            game = await self.store.accept_challenge(ch.id, game, self.clock_timers(game, ctx.now))
        except VersionConflict:
            fresh = await self.store.get_challenge(ch.id)
            await self.require_open(ctx, fresh or ch)
            await self.check_free(ctx, ch)
            raise
        self.timers_changed()
        name = await self.name(ctx.user)
        await self.edit_card(
            ch.chat,
            f"challenge:{ch.id}",
            Reply(ctx.t("challenge.closed.accepted", challenge=ch.id, name=name, game=game.id)),
        )
        names = await self.names(game, ctx.lang)
        start = game_started(ctx, game, names)
        return await self.game_reply(ctx, game, [start])

    async def check_free(self, ctx: Context, ch: ChallengeRow) -> None:
        """Refuse when either player already has a game in progress in the challenge's chat."""
        mine = await self.store.active_game(ch.chat, ctx.user)
        if mine is not None:
            raise UserError("challenge.accepter_busy", game=mine.id)
        theirs = await self.store.active_game(ch.chat, ch.challenger)
        if theirs is not None:
            raise UserError(
                "challenge.challenger_busy", name=await self.name(ch.challenger), game=theirs.id
            )

    async def cmd_decline(self, ctx: Context) -> Reply:
        ch = await self.pick_challenge(ctx, mine=False)
        await self.require_open(ctx, ch)
        if ch.challenger == ctx.user:
            raise UserError("challenge.own", challenge=ch.id)
        if ch.challenged is None:
            raise UserError("challenge.decline_open")
        if ch.challenged != ctx.user:
            raise UserError(
                "challenge.not_for_you", challenge=ch.id, name=await self.name(ch.challenged)
            )
        return await self.close(ctx, ch, ChallengeStatus.DECLINED)

    async def cmd_cancel(self, ctx: Context) -> Reply:
        ch = await self.pick_challenge(ctx, mine=True)
        await self.require_open(ctx, ch)
        if ch.challenger != ctx.user:
            raise UserError(
                "challenge.cancel_not_yours", challenge=ch.id, name=await self.name(ch.challenger)
            )
        return await self.close(ctx, ch, ChallengeStatus.CANCELLED)

    async def close(self, ctx: Context, ch: ChallengeRow, status: ChallengeStatus) -> Reply:
        try:
            await self.store.close_challenge(ch.id, status)
        except VersionConflict:
            fresh = await self.store.get_challenge(ch.id)
            await self.require_open(ctx, fresh or ch)
            raise
        line = ctx.t(
            f"challenge.closed.{status.value}", challenge=ch.id, name=await self.name(ctx.user)
        )
        await self.edit_card(ch.chat, f"challenge:{ch.id}", Reply(line))
        return Reply(line)

    async def expire_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """Close an open challenge as expired and update its card; None if it was not open."""
        try:
            ch = await self.store.close_challenge(challenge_id, ChallengeStatus.EXPIRED)
        except VersionConflict:
            return None
        log.info("challenge %s expired", ch.id)
        settings = await self.store.get_settings(ch.chat)
        line = text("challenge.closed.expired", settings.language, challenge=ch.id)
        await self.edit_card(ch.chat, f"challenge:{ch.id}", Reply(line))
        return ch
