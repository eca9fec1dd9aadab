"""Playing: ``move``, ``resign``, ``draw``, ``abort``, ``takeback``, ``impasse``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.core import present
from bot.core.api import Button, Reply
from bot.core.base import Context, ServiceBase, UserError, reads_as_move
from bot.core.messages import listing, plural
from bot.store.models import GameRow
from rules import (
    AmbiguousMoveError,
    IllegalMoveError,
    Move,
    Position,
    RulesError,
    Termination,
    declare_impasse,
    impasse_report,
)


def button_rows(buttons: Sequence[Button], per_row: int = 5) -> tuple[tuple[Button, ...], ...]:
    return tuple(tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row))


class PlayCommands(ServiceBase):
    async def player_game(
        self, ctx: Context, args: Sequence[str], *, move_text: bool = False
    ) -> tuple[GameRow, list[str], int, tuple[str, str]]:
        """The author's active game, the arguments left, their colour and both names."""
        game, rest = await self.pick_game(ctx, args, player=True, move_text=move_text)
        names = await self.names(game, ctx.lang)
        self.require_active(ctx, game, names)
        color = game.player_color(ctx.user)
        assert color is not None
        return game, rest, color, names

    # --- move ---------------------------------------------------------------------------

    async def cmd_move(self, ctx: Context) -> Reply:
        if ctx.request.options.get("bare") == "1" and not await self.bare_move_wanted(ctx):
            return Reply("", silent=True)
        game, rest, color, names = await self.player_game(ctx, ctx.args, move_text=True)
        pos = await self.position_of(game)
        if not rest:
            example = "move.example.shogi" if game.variant == "shogi" else "move.example.wa"
            raise UserError("move.missing", example=ctx.t(example))
        if pos.side != color:
            if pos.side == game.engine_color:
                self.bot_player.request(game)  # already under way, unless it failed: again
                raise UserError("bot.thinking", name=names[pos.side], game=game.id)
            raise UserError("move.not_your_turn", name=names[pos.side], game=game.id)
        move_text = " ".join(rest)
        move = self.read_move(ctx, game, pos, move_text)
        return await self.play(ctx, game, pos, move, names)

    async def bare_move_wanted(self, ctx: Context) -> bool:
        """Whether a message that is only ``ctx.args`` (sent with ``bare=1``) is a move to play:
        the chat (or the channel of its thread, option ``parent``) has bare moves on, the author
        plays a game here and the text reads as a move (legal or not) in that game."""
        if len(ctx.args) != 1:
            return False
        on = ctx.settings.bare_moves
        parent = ctx.request.options.get("parent")
        if not on and parent:
            on = (await self.store.get_settings(replace(ctx.chat, chat_id=parent))).bare_moves
        if not on:
            return False
        game = await self.store.active_game(ctx.chat, ctx.user)
        if game is None:
            return False
        # a move that is not playable gets told why; chatter with a digit in it is left alone
        return reads_as_move(await self.position_of(game), ctx.args[0])

    def read_move(self, ctx: Context, game: GameRow, pos: Position, move_text: str) -> Move:
        try:
            return present.parse_move(pos, move_text)
        except AmbiguousMoveError as exc:
            candidates: list[Move] = list(exc.params.get("candidates", ()))
            buttons = [
                Button(
                    present.format_move(pos, m, ctx.settings.notation),
                    f"move {pos.usi(m)} {game.id}",
                    "primary",
                )
                for m in candidates[:25]
            ]
            key = "move.promotion_choice" if exc.code == "promotion_choice" else "move.ambiguous"
            raise UserError(key, buttons=button_rows(buttons), text=move_text) from None
        except IllegalMoveError as exc:
            problem = present.rules_problem(exc, pos, ctx.lang, ctx.settings.notation)
            raise UserError("move.illegal", problem=problem) from None
        except RulesError as exc:
            raise UserError(
                "move.malformed",
                problem=present.rules_problem(exc, pos, ctx.lang, ctx.settings.notation),
            ) from None

    async def play(
        self,
        ctx: Context,
        game: GameRow,
        pos: Position,
        move: Move,
        names: tuple[str, str],
        *,
        notify: bool = False,
    ) -> Reply:
        """Play the legal ``move``: a person's, or with ``notify`` the bot's (its reply queued
        for the game's chat with the move, see ``commit``).  In a game against the bot its
        turn is queued once the reply is out."""
        before = pos.copy()
        pos.make_unchecked(move)  # read_move returned a legal move: checked once, not twice
        shown = present.format_move(before, move, ctx.settings.notation)
        new = replace(
            game,
            moves=(*game.moves, before.usi(move)),
            draw_offer=None,
            takeback_offer=None,
            updated_at=ctx.now,
            deadline=self.deadline_for(game, pos.side, ctx.now),
        )
        outcome = pos.outcome()
        if outcome is not None:
            new = self.finish(new, outcome.termination.value, outcome.winner, ctx.now)
        line = ctx.t("move.played", mover=names[before.side], move=shown)
        # the image marks the move
        reply = await self.commit(ctx, new, [line], pos=pos, clocks=True, notify=notify)
        self.bot_player.after(ctx, replace(new, version=new.version + 1))
        return reply

    # --- resign -------------------------------------------------------------------------

    async def cmd_resign(self, ctx: Context) -> Reply:
        words = [a.lower() for a in ctx.args]
        confirmed = bool(words) and words[0] in ("yes", "confirm", "y", "sure")
        if confirmed:
            words = words[1:]
        elif words and not words[-1].lstrip("#").isdigit():
            raise UserError("resign.bad_arg")
        game, rest, color, names = await self.player_game(ctx, words)
        if rest:
            raise UserError("resign.bad_arg")
        if not confirmed:
            return Reply(
                ctx.t("resign.confirm", game=game.id, opponent=names[color ^ 1]),
                buttons=((Button(ctx.t("button.resign"), f"resign confirm {game.id}", "danger"),),),
                ephemeral=True,
            )
        saved = await self.save_game(
            self.finish(game, Termination.RESIGNATION.value, color ^ 1, ctx.now),
            ctx.now,
            clocks=False,
        )
        return await self.game_reply(ctx, saved, [ctx.t("resign.done", name=names[color])])

    # --- draw ---------------------------------------------------------------------------

    async def cmd_draw(self, ctx: Context) -> Reply:
        answer, args = _answer(ctx.args, ("offer", "accept", "decline"), "offer")
        if answer is None:
            raise UserError("draw.bad_arg", word=ctx.args[0])
        game, rest, color, names = await self.player_game(ctx, args)
        if rest:
            raise UserError("draw.bad_arg", word=rest[0])
        opponent = names[color ^ 1]
        if answer == "offer" and game.draw_offer == color ^ 1:
            answer = "accept"
        if answer == "offer" and game.engine_color is not None:
            return Reply(ctx.t("bot.no_draw", name=opponent, game=game.id))  # nothing stored
        if answer == "offer":
            if game.draw_offer == color:
                raise UserError("draw.already", opponent=opponent)
            return await self.put_to_opponent(
                ctx,
                replace(game, draw_offer=color),
                color,
                ctx.t("draw.offered", name=names[color], game=game.id, opponent=opponent),
                (
                    Button(ctx.t("button.draw_accept"), f"draw accept {game.id}", "success"),
                    Button(ctx.t("button.draw_decline"), f"draw decline {game.id}", "danger"),
                ),
            )
        if game.draw_offer != color ^ 1:
            raise UserError("draw.none_to_answer", opponent=opponent)
        if answer == "decline":
            return await self.put_to_opponent(
                ctx,
                replace(game, draw_offer=None),
                color,
                ctx.t("draw.declined", name=names[color], game=game.id),
            )
        saved = await self.save_game(
            self.finish(game, Termination.AGREED_DRAW.value, None, ctx.now), ctx.now, clocks=False
        )
        return await self.game_reply(ctx, saved, [ctx.t("draw.agreed", name=names[color])])

    async def put_to_opponent(
        self,
        ctx: Context,
        game: GameRow,
        color: int,
        message: str,
        buttons: tuple[Button, ...] = (),
    ) -> Reply:
        """Save an offer (or its refusal) by ``color`` and tell the opponent, with buttons."""
        saved = await self.save_game(replace(game, updated_at=ctx.now), ctx.now, clocks=False)
        return await self.announce(
            ctx,
            game,
            Reply(
                message,
                buttons=(buttons,) if buttons else (),
                mentions=(await self.user(saved.player(color ^ 1)),),
            ),
        )

    # --- abort --------------------------------------------------------------------------

    async def cmd_abort(self, ctx: Context) -> Reply:
        game, _rest, color, names = await self.player_game(ctx, ctx.args)
        if len(game.moves) >= 2:
            raise UserError("abort.too_late", game=game.id)
        saved = await self.save_game(
            self.finish(game, Termination.ABORTED.value, None, ctx.now), ctx.now, clocks=False
        )
        return await self.game_reply(
            ctx, saved, [ctx.t("abort.done", name=names[color], game=game.id)]
        )

    # --- takeback -----------------------------------------------------------------------

    async def cmd_takeback(self, ctx: Context) -> Reply:
        answer, args = _answer(ctx.args, ("ask", "accept", "decline"), "ask")
        if answer is None:
            raise UserError("takeback.bad_arg", word=ctx.args[0])
        game, rest, color, names = await self.player_game(ctx, args)
        if rest:
            raise UserError("takeback.bad_arg", word=rest[0])
        opponent = names[color ^ 1]
        if answer == "ask" and game.takeback_offer == color ^ 1:
            answer = "accept"
        pos = await self.position_of(game)
        if answer == "ask":
            plies = _takeback_plies(pos, color)
            if plies == 0:
                raise UserError("takeback.nothing", game=game.id)
            if game.engine_color is not None:
                # The bot agrees at once, in every game: all games are casual until ratings
                # exist (a rated game against it would refuse here).  The person's last move
                # goes, and the bot's answer to it if it came: it is the person's turn again.
                return await self.take_back(ctx, game, pos, plies, opponent)
            if game.takeback_offer == color:
                raise UserError("takeback.already", opponent=opponent)
            asked = ctx.t(
                "takeback.asked",
                name=names[color],
                moves=self.moves_text(ctx, pos, plies),
                game=game.id,
                opponent=opponent,
            )
            return await self.put_to_opponent(
                ctx,
                replace(game, takeback_offer=color),
                color,
                asked,
                (
                    Button(
                        ctx.t("button.takeback_accept"), f"takeback accept {game.id}", "success"
                    ),
                    Button(
                        ctx.t("button.takeback_decline"), f"takeback decline {game.id}", "danger"
                    ),
                ),
            )
        if game.takeback_offer != color ^ 1:
            raise UserError("takeback.none_to_answer", opponent=opponent)
        if answer == "decline":
            return await self.put_to_opponent(
                ctx,
                replace(game, takeback_offer=None),
                color,
                ctx.t("takeback.declined", name=names[color], game=game.id),
            )
        return await self.take_back(ctx, game, pos, _takeback_plies(pos, color ^ 1), names[color])

    async def take_back(
        self, ctx: Context, game: GameRow, pos: Position, plies: int, agreed_by: str
    ) -> Reply:
        """Undo the last ``plies`` moves of ``game`` (``agreed_by`` allowed it)."""
        undone = self.moves_text(ctx, pos, plies)
        bot_moves = 0
        for _ in range(plies):
            pos.pop()
            bot_moves += pos.side == game.engine_color
        scores = game.engine_scores[: len(game.engine_scores) - bot_moves]
        new = replace(
            game,
            moves=game.moves[: len(game.moves) - plies],
            takeback_offer=None,
            draw_offer=None,
            updated_at=ctx.now,
            deadline=self.deadline_for(game, pos.side, ctx.now),
            engine_scores=scores,
        )
        line = ctx.t("takeback.done", name=agreed_by, moves=undone)
        return await self.commit(ctx, new, [line], pos=pos, clocks=True)

    def moves_text(self, ctx: Context, pos: Position, plies: int) -> str:
        """The last ``plies`` moves of ``pos`` in the chat's notation."""
        probe = pos.copy()
        moves = []
        for _ in range(plies):
            move = probe.pop()
            moves.append(present.format_move(probe, move, ctx.settings.notation))
        return listing(moves[::-1], ctx.lang)

    # --- impasse ------------------------------------------------------------------------

    async def cmd_impasse(self, ctx: Context) -> Reply:
        game, _rest, color, names = await self.player_game(ctx, ctx.args)
        pos = await self.position_of(game)
        if pos.variant.impasse is None:
            raise UserError("impasse.none", variant=present.variant_name(game.variant, ctx.lang))
        if pos.side != color:
            raise UserError("impasse.not_your_turn", name=names[pos.side])
        report = impasse_report(pos)
        if report.unmet:  # each unmet condition once, with its numbers, in the chat's language
            raise UserError("impasse.refused", reasons=present.impasse_problems(report, ctx.lang))
        outcome = declare_impasse(pos)
        saved = await self.save_game(
            self.finish(game, outcome.termination.value, outcome.winner, ctx.now),
            ctx.now,
            clocks=False,
        )
        return await self.game_reply(
            ctx,
            saved,
            [
                ctx.t(
                    "impasse.done",
                    name=names[color],
                    points=plural("impasse.points", ctx.lang, report.points),
                )
            ],
            pos=pos,
        )


def _answer(
    args: Sequence[str], answers: tuple[str, ...], default: str
) -> tuple[str | None, list[str]]:
    """The answer word (first argument) and the rest; a bare game number means ``default``."""
    rest = list(args)
    if not rest or rest[0].lstrip("#").isdigit():
        return default, rest
    word = rest[0].lower()
    aliases = {"yes": "accept", "no": "decline", "agree": "accept", "refuse": "decline"}
    word = aliases.get(word, word)
    if word not in answers:
        return None, rest
    return word, rest[1:]


def _takeback_plies(pos: Position, color: int) -> int:
    """Plies to undo so that ``color``'s last move is taken back (0 when it has none)."""
    plies = pos.ply
    if plies == 0:
        return 0
    if pos.side != color:  # color moved last
        return 1
    return 2 if plies >= 2 else 0
