"""Offers to the opponent: ``/draw`` and ``/takeback`` (offer or ask, accept, decline).

Both go the same way: the offer is stored with the game and put to the opponent with buttons;
their answer accepts or declines it; offering what the opponent already offered accepts it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.core import present
from bot.core.api import Button, Reply
from bot.core.args import parse_number
from bot.core.context import Context, UserError
from bot.core.games import Games
from bot.core.messages import listing
from bot.core.moving import Mover
from bot.core.people import People
from bot.core.replies import Replies
from bot.core.shogi_clock import turn_over
from bot.core.words import ANSWER_WORDS, DRAW_ANSWERS, TAKEBACK_ANSWERS
from bot.store.models import GameRow
from rules import Position, Termination


@dataclass(frozen=True)
class Offer:
    """One kind of offer: its answer words (the first makes the offer), the game field that
    holds who made it, and its messages: ``bad_arg``, ``already``, ``none_to_answer``,
    ``declined`` and the two buttons' labels."""

    answers: tuple[str, ...]
    made_by: Callable[[GameRow], int | None]
    with_maker: Callable[[GameRow, int | None], GameRow]
    command: str
    bad_arg: str
    already: str
    none_to_answer: str
    declined: str
    accept_button: str
    decline_button: str

    @property
    def make(self) -> str:
        return self.answers[0]


DRAW = Offer(
    DRAW_ANSWERS,
    lambda g: g.draw_offer,
    lambda g, c: replace(g, draw_offer=c),
    "draw",
    "draw.bad_arg",
    "draw.already",
    "draw.none_to_answer",
    "draw.declined",
    "button.draw_accept",
    "button.draw_decline",
)
TAKEBACK = Offer(
    TAKEBACK_ANSWERS,
    lambda g: g.takeback_offer,
    lambda g, c: replace(g, takeback_offer=c),
    "takeback",
    "takeback.bad_arg",
    "takeback.already",
    "takeback.none_to_answer",
    "takeback.declined",
    "button.takeback_accept",
    "button.takeback_decline",
)


def read_answer(args: Sequence[str], offer: Offer) -> tuple[str | None, list[str]]:
    """The answer word (first argument) and the rest; a bare game number means making the
    offer; None for a word that is no answer."""
    rest = list(args)
    if not rest or parse_number(rest[0]) is not None:
        return offer.make, rest
    word = rest[0].lower()
    word = ANSWER_WORDS.get(word, word)
    if word not in offer.answers:
        return None, rest
    return word, rest[1:]


def takeback_plies(pos: Position, color: int) -> int:
    """Plies to undo so that ``color``'s last move is taken back (0 when it has none)."""
    plies = pos.ply
    if plies == 0:
        return 0
    if pos.side != color:  # color moved last
        return 1
    return 2 if plies >= 2 else 0


def moves_text(ctx: Context, pos: Position, plies: int) -> str:
    """The last ``plies`` moves of ``pos`` in the chat's notation."""
    probe = pos.copy()
    moves = []
    for _ in range(plies):
        move = probe.pop()
        moves.append(present.format_move(probe, move, ctx.settings.notation))
    return listing(moves[::-1], ctx.lang)


@dataclass(frozen=True)
class Asked:
    """An offer command as read: the answer, the game, the asker's colour, both names."""

    answer: str
    game: GameRow
    color: int
    names: tuple[str, str]

    @property
    def opponent(self) -> str:
        return self.names[self.color ^ 1]


@dataclass(eq=False)
class Offers:
    """Draw and takeback offers and their answers."""

    games: Games
    people: People
    replies: Replies
    mover: Mover

    async def cmd_draw(self, ctx: Context) -> Reply:
        asked = await self._read(ctx, DRAW)
        game, color, names = asked.game, asked.color, asked.names
        if asked.answer == DRAW.make:
            if game.engine_color is not None:  # nothing stored
                return Reply(ctx.t("bot.no_draw", name=asked.opponent, game=game.id))
            said = ctx.t("draw.offered", name=names[color], game=game.id, opponent=asked.opponent)
            return await self._offer(ctx, DRAW, asked, said)
        declined = await self._decline(ctx, DRAW, asked)
        if declined is not None:
            return declined
        line = ctx.t("draw.agreed", name=names[color])
        return await self.mover.finish(ctx, game, Termination.AGREED_DRAW.value, None, line)

    async def cmd_takeback(self, ctx: Context) -> Reply:
        asked = await self._read(ctx, TAKEBACK)
        game, color, names = asked.game, asked.color, asked.names
        pos = await self.games.position_of(game)
        if asked.answer == TAKEBACK.make:
            plies = takeback_plies(pos, color)
            if plies == 0:
                raise UserError("takeback.nothing", game=game.id)
            if game.engine_color is not None:
                # The bot agrees at once, in every game: all games are casual until ratings
                # exist (a rated game against it would refuse here).  The person's last move
                # goes, and the bot's answer to it if it came: it is the person's turn again.
                return await self._take_back(ctx, game, pos, plies, asked.opponent)
            said = ctx.t(
                "takeback.asked",
                name=names[color],
                moves=moves_text(ctx, pos, plies),
                game=game.id,
                opponent=asked.opponent,
            )
            return await self._offer(ctx, TAKEBACK, asked, said)
        declined = await self._decline(ctx, TAKEBACK, asked)
        if declined is not None:
            return declined
        return await self._take_back(ctx, game, pos, takeback_plies(pos, color ^ 1), names[color])

    async def _read(self, ctx: Context, offer: Offer) -> Asked:
        answer, args = read_answer(ctx.args, offer)
        if answer is None:
            raise UserError(offer.bad_arg, word=ctx.args[0])
        game, rest, color, names = await self.games.of_player(ctx, args)
        if rest:
            raise UserError(offer.bad_arg, word=rest[0])
        if answer == offer.make and offer.made_by(game) == color ^ 1:
            answer = "accept"  # offering what the opponent offered is agreeing to it
        return Asked(answer, game, color, names)

    async def _offer(self, ctx: Context, offer: Offer, asked: Asked, said: str) -> Reply:
        """Store the offer and put it to the opponent with buttons to answer."""
        game, color = asked.game, asked.color
        if offer.made_by(game) == color:
            raise UserError(offer.already, opponent=asked.opponent)
        action = f"{offer.command} {{}} {game.id}"
        buttons = (
            Button(ctx.t(offer.accept_button), action.format("accept"), "success"),
            Button(ctx.t(offer.decline_button), action.format("decline"), "danger"),
        )
        return await self._to_opponent(ctx, offer.with_maker(game, color), color, said, buttons)

    async def _decline(self, ctx: Context, offer: Offer, asked: Asked) -> Reply | None:
        """Refuse an answer with no offer to answer; decline the offer when asked to (the
        reply); None when it is accepted."""
        game, color = asked.game, asked.color
        if offer.made_by(game) != color ^ 1:
            raise UserError(offer.none_to_answer, opponent=asked.opponent)
        if asked.answer != "decline":
            return None
        said = ctx.t(offer.declined, name=asked.names[color], game=game.id)
        return await self._to_opponent(ctx, offer.with_maker(game, None), color, said)

    async def _to_opponent(
        self,
        ctx: Context,
        game: GameRow,
        color: int,
        message: str,
        buttons: tuple[Button, ...] = (),
    ) -> Reply:
        """Save an offer (or its refusal) by ``color`` and tell the opponent, with buttons."""
        saved = await self.games.save(replace(game, updated_at=ctx.now), ctx.now, clocks=False)
        return await self.replies.announce(
            ctx,
            game,
            Reply(
                message,
                buttons=(buttons,) if buttons else (),
                mentions=(await self.people.user(saved.player(color ^ 1)),),
            ),
        )

    async def _take_back(
        self, ctx: Context, game: GameRow, pos: Position, plies: int, agreed_by: str
    ) -> Reply:
        """Undo the last ``plies`` moves of ``game`` (``agreed_by`` allowed it)."""
        undone = moves_text(ctx, pos, plies)
        bot_moves = 0
        for _ in range(plies):
            pos.pop()
            bot_moves += pos.side == game.engine_color
        scores = game.engine_scores[: len(game.engine_scores) - bot_moves]
        new = turn_over(  # the time the player to move used is theirs
            game,
            pos.side,
            ctx.now,
            moves=game.moves[: len(game.moves) - plies],
            takeback_offer=None,
            draw_offer=None,
            updated_at=ctx.now,
            engine_scores=scores,
        )
        line = ctx.t("takeback.done", name=agreed_by, moves=undone)
        return await self.mover.commit(ctx, new, [line], pos=pos, clocks=True)
