"""Challenges between people: ``/challenge``, ``/accept``, ``/decline``, ``/cancel``, and their
expiry.  A challenge to the bot becomes a game at once (:class:`BotGames`)."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, replace

from bot.config import Config
from bot.core import present
from bot.core.api import Button, Reply, User
from bot.core.args import parse_number, shown
from bot.core.clock import Bell
from bot.core.context import LIST_LIMIT, Context, UserError, listing
from bot.core.games import Games, new_game
from bot.core.handlers.vs_bot import BotGames
from bot.core.messages import text
from bot.core.people import People
from bot.core.replies import Replies, challenge_variant, game_started
from bot.core.terms import read_terms
from bot.store.errors import ChallengeAlreadyOpen, VersionConflict
from bot.store.interface import Store
from bot.store.models import ChallengeRow, ChallengeStatus
from rules import GOTE, SENTE

log = logging.getLogger("komabot.service")


@dataclass(eq=False)
class Challenges:
    """Challenges in a chat, from the challenge card to the game it starts."""

    store: Store
    config: Config
    people: People
    games: Games
    replies: Replies
    bot_games: BotGames
    rng: random.Random
    bell: Bell

    async def cmd_challenge(self, ctx: Context) -> Reply:
        terms = await read_terms(ctx, self.people, self.config.default_time)
        opponent = terms.opponent
        if terms.level is not None and not terms.vs_bot:
            raise UserError("bot.level_for_bot", level=terms.level)
        if opponent is not None:
            if opponent.key == ctx.user:
                raise UserError("challenge.self")
            await self.people.remember(opponent)
        if ctx.settings.threads and ctx.request.options.get("threads") == "1":
            # The front end opens a thread and asks again from inside it.
            return Reply(
                "", thread_title=ctx.t("challenge.thread_name", name=ctx.request.user.name)
            )
        if terms.vs_bot:  # the bot accepts at once (see bot.core.handlers.vs_bot)
            return await self.bot_games.start_game(ctx, terms)
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
                handicap=terms.handicap,
                main_time=terms.main_time,
            )
        except ChallengeAlreadyOpen as exc:
            raise UserError("challenge.already_open", challenge=exc.challenge_id) from None
        self.bell.ring()
        card = await self.challenge_card(ctx, challenge)
        if terms.by_name and opponent is not None:
            said = ctx.t(
                "challenge.by_name",
                who=await self.people.who(opponent.key),
                name=opponent.name,
                challenge=challenge.id,
            )
            card = replace(card, text=said + "\n" + card.text)
        return card

    async def challenge_card(self, ctx: Context, ch: ChallengeRow) -> Reply:
        challenger = await self.people.name(ch.challenger)
        color = ctx.t("color.random") if ch.color == "random" else ctx.t(f"color.{ch.color}")
        params = dict(
            challenge=ch.id,
            challenger=challenger,
            variant=challenge_variant(ch, ctx.lang),
            color=color,
            time=present.format_time_control(ch.time_per_move, ctx.lang, ch.main_time)
            + ("" if ch.rated or ch.handicap else " · " + ctx.t("challenge.casual")),
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
            challenged = await self.people.name(ch.challenged)
            body = ctx.t("challenge.card", challenged=challenged, **params)
            buttons = (
                Button(ctx.t("button.accept"), f"accept {ch.id}", "success"),
                Button(ctx.t("button.decline"), f"decline {ch.id}", "danger"),
                Button(ctx.t("button.cancel"), f"cancel {ch.id}", "secondary"),
            )
            mentions = (await self.people.user(ch.challenged),)
        if ch.handicap:  # the challenger gives it (plays gote) or takes it (plays sente)
            other = await self.people.name(ch.challenged) if ch.challenged else None
            giver = challenger if ch.color == "gote" else other
            body += "\n" + ctx.t(
                "challenge.handicap_note", giver=giver or ctx.t("challenge.handicap_accepter")
            )
        return Reply(body, buttons=(buttons,), mentions=mentions, card=f"challenge:{ch.id}")

    async def pick_challenge(self, ctx: Context, *, mine: bool) -> ChallengeRow:
        """The challenge named by the first argument, or the only fitting one in this chat."""
        if ctx.args:
            number = parse_number(ctx.args[0])
            if number is None:
                raise UserError("challenge.bad_number", text=shown(ctx.args[0]))
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
            lines = [await self.replies.challenge_line(ctx, c) for c in candidates]
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
                "challenge.not_for_you",
                challenge=ch.id,
                name=await self.people.name(ch.challenged),
            )
        await self.check_free(ctx, ch)
        challenger_color = {"sente": SENTE, "gote": GOTE}.get(ch.color)
        if challenger_color is None:
            challenger_color = self.rng.choice((SENTE, GOTE))
        sente, gote = (
            (ch.challenger, ctx.user) if challenger_color == SENTE else (ctx.user, ch.challenger)
        )
        game = new_game(
            replace(ch.chat, community=ctx.chat.community),  # taken in its chat
            ch.variant,
            (sente, gote),
            ch.time_per_move,
            ctx.now,
            challenge_id=ch.id,
            rated=ch.rated,  # two people: rated unless casual (see GameRow.rateable)
            handicap=ch.handicap,  # its colour is the challenger's: the giver plays gote
            main_time=ch.main_time,
        )
        try:
            timers = self.games.clock_timers(game, ctx.now)
            game = await self.store.accept_challenge(ch.id, game, timers)
        except VersionConflict:
            fresh = await self.store.get_challenge(ch.id)
            await self.require_open(ctx, fresh or ch)
            await self.check_free(ctx, ch)
            raise
        self.bell.ring()
        name = await self.people.name(ctx.user)
        await self.replies.edit_card(
            ch.chat,
            f"challenge:{ch.id}",
            Reply(ctx.t("challenge.closed.accepted", challenge=ch.id, name=name, game=game.id)),
        )
        names = await self.people.names(game, ctx.lang)
        start = game_started(ctx, game, names)
        return await self.replies.game_reply(ctx, game, [start])

    async def check_free(self, ctx: Context, ch: ChallengeRow) -> None:
        """Refuse when either player already has a game in progress in the challenge's chat."""
        mine = await self.store.active_game(ch.chat, ctx.user)
        if mine is not None:
            raise UserError("challenge.accepter_busy", game=mine.id)
        theirs = await self.store.active_game(ch.chat, ch.challenger)
        if theirs is not None:
            raise UserError(
                "challenge.challenger_busy",
                name=await self.people.name(ch.challenger),
                game=theirs.id,
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
                "challenge.not_for_you",
                challenge=ch.id,
                name=await self.people.name(ch.challenged),
            )
        return await self.close(ctx, ch, ChallengeStatus.DECLINED)

    async def cmd_cancel(self, ctx: Context) -> Reply:
        ch = await self.pick_challenge(ctx, mine=True)
        await self.require_open(ctx, ch)
        if ch.challenger != ctx.user:
            raise UserError(
                "challenge.cancel_not_yours",
                challenge=ch.id,
                name=await self.people.name(ch.challenger),
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
            f"challenge.closed.{status.value}",
            challenge=ch.id,
            name=await self.people.name(ctx.user),
        )
        await self.replies.edit_card(ch.chat, f"challenge:{ch.id}", Reply(line))
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
        await self.replies.edit_card(ch.chat, f"challenge:{ch.id}", Reply(line))
        return ch
