"""Replies about games: the board with whose turn it is (or the result), and sending them to
the game's chat through its platform's outbox."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.chat import ChatKey
from bot.core import present
from bot.core.api import Attachment, Button, Outbox, Reply, User
from bot.core.clock import Clock
from bot.core.context import Buttons, Context
from bot.core.games import Games
from bot.core.messages import text
from bot.core.people import People
from bot.core.pictures import Pictures
from bot.core.rating_lines import change_line
from bot.core.shogi_clock import is_live, main_time_left
from bot.store.interface import Store
from bot.store.models import ENGINE_PLAYER, ChallengeRow, ChatSettings, GameRow
from rules import Position
from rules.records import formats_for

log = logging.getLogger("komabot.service")


def export_formats(variant_id: str) -> tuple[str, ...]:
    """The record formats a game of ``variant_id`` can be exported in, the default first."""
    return (*formats_for(variant_id), "gif")


def export_buttons(game: GameRow) -> tuple[Button, ...]:
    return tuple(
        Button(fmt.upper(), f"export {fmt} {game.id}") for fmt in export_formats(game.variant)
    )


def game_started(ctx: Context, game: GameRow, names: tuple[str, str]) -> str:
    """The line that opens a game: its number, the players, the variant, the time per move."""
    return ctx.t(
        "game.started",
        game=game.id,
        sente=names[0],
        gote=names[1],
        variant=present.game_variant_name(game.variant, game.start_sfen, ctx.lang),
        time=present.format_time_control(game.time_per_move, ctx.lang, game.main_time),
    )


def main_time_line(game: GameRow, names: tuple[str, str], lang: str, now: float) -> str:
    """``⏱ Main time left: Alice ☗ 9:30 · Bob ☖ byoyomi``: both sides' main time at ``now``
    (the bot's is ``—``: it has no clock)."""

    def left_to(side: int) -> str:
        if game.player(side) == ENGINE_PLAYER:
            return "—"
        left = main_time_left(game, side, now)
        return present.format_clock(left) if left > 0 else text("time.in_byoyomi", lang)

    shown = [left_to(0), left_to(1)]
    return text(
        "move.main_time",
        lang,
        sente=names[0],
        gote=names[1],
        sente_left=shown[0],
        gote_left=shown[1],
    )


def challenge_variant(ch: ChallengeRow, lang: str) -> str:
    """The variant a challenge is for, with its handicap if it has one."""
    if ch.handicap is None:
        return present.variant_name(ch.variant, lang)
    return text(
        "game.variant_handicap",
        lang,
        variant=present.variant_name(ch.variant, lang),
        handicap=present.handicap_name(ch.variant, ch.handicap, lang),
    )


@dataclass(eq=False)
class Replies:
    """Makes game replies and sends messages to chats."""

    store: Store
    people: People
    games: Games
    pictures: Pictures
    outboxes: Mapping[str, Outbox]  # the service's own dict: front ends attached later count
    clock: Clock

    async def game_reply(
        self,
        ctx: Context | None,
        game: GameRow,
        lines: Sequence[str],
        *,
        pos: Position | None = None,
        settings: ChatSettings | None = None,
        buttons: Buttons = (),
        mention_mover: bool = True,
        now: float | None = None,
        announce: bool = True,
        drawing: asyncio.Future[Attachment | None] | None = None,
    ) -> Reply:
        """``lines``, then whose turn (or the result), with the board image and text board.

        With ``announce``, a reply to someone acting from another chat also goes to the game's.
        ``drawing`` is the board image already under way (``start_board``), if it is.
        """
        settings = settings or (ctx.settings if ctx else await self.store.get_settings(game.chat))
        lang = settings.language
        now = self.clock.now() if now is None else now
        pos = pos or await self.games.position_of(game)
        names = await self.people.names(game, lang)
        body = list(lines)
        mentions: tuple[User, ...] = ()
        if game.active:
            body += self._turn_lines(game, pos, names, lang, now)
            if mention_mover and pos.side != game.engine_color:
                mentions = (await self.people.user(game.player(pos.side)),)
        else:
            result = present.result_text(game, names, lang)
            body.append(text("game.over", lang, game=game.id, result=result))
            changes = await self.store.rating_changes(game)
            if changes:
                body.append(change_line(changes, names, lang))
            body.append(text("game.over.export", lang))
            buttons = (*buttons, export_buttons(game))
        if drawing is None:
            drawing = await self.start_board(game, pos, settings, names)
        image = await drawing
        board = None  # the text board: only where it is seen (see shows_text_board)
        if image is None or self.shows_text_board(ctx, game.chat):
            board = present.board_text(pos, settings, names)
        reply = Reply(
            "\n".join(body), image=image, buttons=buttons, mentions=mentions, text_board=board,
            lang=lang,
        )  # fmt: skip
        return await self.announce(ctx, game, reply) if ctx and announce else reply

    @staticmethod
    def _turn_lines(
        game: GameRow, pos: Position, names: tuple[str, str], lang: str, now: float
    ) -> list[str]:
        """Check, whose turn and by when, and the offers waiting for an answer."""
        t = text
        lines = [t("move.check", lang)] if pos.is_check() else []
        mover = names[pos.side]
        color = present.color_name(pos.side, lang)
        if pos.side == game.engine_color:
            lines.append(t("bot.to_move", lang, name=mover, color=color))
        elif game.deadline is not None:
            deadline = present.format_deadline(
                game.deadline, now, lang, game.chat.platform, precise=is_live(game)
            )
            lines.append(t("move.next_deadline", lang, name=mover, color=color, deadline=deadline))
        else:
            lines.append(t("move.next", lang, name=mover, color=color))
        if game.time_left is not None:
            lines.append(main_time_line(game, names, lang, now))
        if game.draw_offer is not None:
            lines.append(t("offer.draw_pending", lang, name=names[game.draw_offer]))
        if game.takeback_offer is not None:
            lines.append(t("offer.takeback_pending", lang, name=names[game.takeback_offer]))
        return lines

    def shows_text_board(self, ctx: Context | None, chat: ChatKey) -> bool:
        """Whether a reply with a board image should also carry the board as text: the request
        says its front end shows text boards (option ``text_board=1``), or the front end
        (outbox) of ``chat``'s platform says so (``shows_text_board = True``).  Discord and
        Telegram show the text board only when there is no image: without one it is always
        built."""
        if ctx is not None and ctx.request.options.get("text_board") == "1":
            return True
        front = self.outboxes.get(chat.platform)
        return bool(getattr(front, "shows_text_board", False))

    async def start_board(
        self,
        game: GameRow,
        pos: Position,
        settings: ChatSettings,
        names: tuple[str, str] | None = None,
    ) -> asyncio.Future[Attachment | None]:
        """The board image of ``game`` at ``pos`` started now (see ``Pictures.start_board``)."""
        names = names or await self.people.names(game, settings.language)
        return self.pictures.start_board(game, pos, settings, names)

    async def challenge_line(self, ctx: Context, ch: ChallengeRow) -> str:
        """One open challenge in a list."""
        challenged = (
            await self.people.name(ch.challenged) if ch.challenged else ctx.t("challenge.anyone")
        )
        return ctx.t(
            "challenge.line",
            challenge=ch.id,
            challenger=await self.people.name(ch.challenger),
            challenged=challenged,
            variant=challenge_variant(ch, ctx.lang),
            time=present.format_time_control(ch.time_per_move, ctx.lang, ch.main_time),
        )

    async def announce(self, ctx: Context, game: GameRow, reply: Reply) -> Reply:
        """``reply`` for the asker; when they acted from another chat (a private chat with the
        bot), the game's own chat gets a copy so the opponent and watchers see it."""
        if (ctx.chat.platform, ctx.chat.chat_id) != (game.chat.platform, game.chat.chat_id):
            await self.send(game.chat, reply)
        return reply

    async def send(self, chat: ChatKey, reply: Reply) -> bool:
        """Post ``reply`` to ``chat`` through its platform's outbox; False (logged) if it could
        not be delivered."""
        outbox = self.outboxes.get(chat.platform)
        if outbox is None:
            log.warning("no outbox for platform %s; message to %s dropped", chat.platform, chat.key)
            return False
        try:
            await outbox.send(chat, reply)
        except Exception:
            log.exception("sending to %s failed", chat.key)
            return False
        return True

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        outbox = self.outboxes.get(chat.platform)
        if outbox is None:
            return
        try:
            await outbox.edit_card(chat, card, reply)
        except Exception:
            log.exception("editing card %s in %s failed", card, chat.key)
