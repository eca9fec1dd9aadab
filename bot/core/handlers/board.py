"""Looking at games: ``/board``, ``/moves`` (where a piece can go) and ``/games``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core import present
from bot.core.api import Reply
from bot.core.args import plain_number, shown
from bot.core.context import LIST_LIMIT, Context, UserError, listing
from bot.core.games import Games
from bot.core.people import People
from bot.core.pictures import Pictures
from bot.core.replies import Replies
from bot.core.shogi_clock import is_live
from bot.store.interface import Store
from bot.store.models import GameRow
from render import moves_played
from rules import Move, Position, RulesError
from rules.notation import read_square


@dataclass(eq=False)
class BoardViews:
    """Boards, a piece's moves, and the asker's games."""

    store: Store
    games: Games
    people: People
    replies: Replies
    pictures: Pictures

    async def cmd_board(self, ctx: Context) -> Reply:
        """The game's board now; ``/board GAME MOVE`` (Discord: the ``move`` option) the
        board after move MOVE (0: the start), as ``/analyse`` suggests for a blunder."""
        words, ply_word = list(ctx.args), ctx.request.options.get("move")
        if ply_word is not None:  # named options: the game is the game option, if given
            words = [ctx.request.options["game"]] if "game" in ctx.request.options else []
        elif len(words) == 2:
            ply_word = words.pop()
        game, rest = await self.games.pick(ctx, words, player=False)
        if rest:
            raise UserError("game.bad_number", text=shown(rest[0]))
        names = await self.people.names(game, ctx.lang)
        pos = await self.games.position_of(game)
        if ply_word is not None:
            return await self.after_move(ctx, game, names, pos, ply_word)
        ply = moves_played(pos)  # the number the image and the text board show
        lines = position_lines(ctx, game, names, pos, "board.header", ply=ply)
        return await self.replies.game_reply(
            ctx, game, lines, pos=pos, mention_mover=False, announce=False
        )

    async def after_move(
        self, ctx: Context, game: GameRow, names: tuple[str, str], now: Position, word: str
    ) -> Reply:
        """The board of ``game`` after its move numbered ``word``, ``now`` its position."""
        total = len(game.moves)
        ply = plain_number(word)
        if ply is None:
            raise UserError("board.bad_ply", text=shown(word))
        if ply > total:
            raise UserError("board.no_such_ply", game=game.id, ply=ply, total=total)
        pos = now.copy()
        for _ in range(total - ply):
            pos.pop()
        lines = position_lines(ctx, game, names, pos, "board.after_move", ply=ply, total=total)
        return await self.marked(ctx, pos, names, [], "\n".join(lines))

    async def cmd_moves(self, ctx: Context) -> Reply:
        """Where the piece on a square can go, on the board with its destinations marked.

        A piece of the side not to move gets the moves it would have if its side were to move
        in the position as it stands (``Position.with_side_to_move``), and the reply says so.
        A piece that gives check now lists taking the king among them: that is its threat.
        The square is written in any notation ``/move`` reads (``7g``, ``77``, ``７七``).
        """
        if len(ctx.args) == 1 and not ctx.args[0].startswith("#"):
            # a lone word is the square (77 is 7g, not game #77): a game number needs its #
            game, rest = await self.games.unnamed(ctx, player=False), list(ctx.args)
        else:
            game, rest = await self.games.pick(ctx, ctx.args, player=False)
        if not rest:
            raise UserError("moves.missing")
        pos = await self.games.position_of(game)
        if rest[0].endswith("*") and len(rest[0]) > 1:  # P*: where a piece in hand may go
            return await self.drops(ctx, game, pos, rest[0])
        try:
            sq = read_square(pos.variant, rest[0])
        except RulesError as exc:
            raise UserError(
                "moves.bad_square", problem=present.rules_problem(exc, pos, ctx.lang)
            ) from None
        square = present.square_name(pos.variant, sq, ctx.settings.notation)
        value = pos.piece_at(sq)
        if not value:
            raise UserError("moves.empty_square", square=square)
        color = 0 if value > 0 else 1
        piece_type = pos.variant.piece(abs(value))
        names = await self.people.names(game, ctx.lang)
        facts: dict[str, Any] = {
            "owner": names[color],
            "color": present.color_name(color, ctx.lang),
            "piece": piece_type.names.get(ctx.lang) or piece_type.name,
            "square": square,
        }
        waiting = color != pos.side
        on_its_turn = pos.with_side_to_move(color) if waiting else pos
        moves = [m for m in on_its_turn.legal_moves() if m.from_sq == sq]
        if not moves:
            raise UserError("moves.none_waiting" if waiting else "moves.none", **facts)
        notation = ctx.settings.notation
        texts = sorted({present.format_move(on_its_turn, m, notation) for m in moves})
        key = "moves.list_waiting" if waiting else "moves.list"
        listed = ctx.t("describe.list").join(texts)
        return await self.marked(ctx, pos, names, moves, ctx.t(key, moves=listed, **facts))

    async def drops(self, ctx: Context, game: GameRow, pos: Position, word: str) -> Reply:
        """``/moves P*``: the squares where the asker (a watcher: the side to move) may drop
        that piece from the hand, or why nowhere."""
        piece = pos.variant.by_letter.get(word[:-1].upper())
        if piece is None or piece.promoted:
            raise UserError("moves.bad_drop", text=shown(word))
        color = game.player_color(ctx.user)
        color = pos.side if color is None else color
        names = await self.people.names(game, ctx.lang)
        facts: dict[str, Any] = {
            "owner": names[color],
            "color": present.color_name(color, ctx.lang),
            "piece": piece.names.get(ctx.lang) or piece.name,
        }
        on_its_turn = pos.with_side_to_move(color) if color != pos.side else pos
        moves = [m for m in on_its_turn.legal_moves() if m.drop == piece.kind]
        if not moves:
            raise UserError("moves.no_drops", **facts)
        notation = ctx.settings.notation
        squares = [present.square_name(pos.variant, m.to_sq, notation) for m in moves]
        said = ctx.t("moves.drops", squares=ctx.t("describe.list").join(sorted(squares)), **facts)
        return await self.marked(ctx, pos, names, moves, said)

    async def marked(
        self, ctx: Context, pos: Position, names: tuple[str, str], moves: list[Move], said: str
    ) -> Reply:
        """``said`` with the board, the squares ``moves`` go to marked."""
        targets = tuple(sorted({m.to_sq for m in moves}))
        image = await self.pictures.board_attachment(pos, ctx.settings, names, targets)
        board = None
        if image is None or self.replies.shows_text_board(ctx, ctx.chat):
            board = present.board_text(pos, ctx.settings, names, marks=frozenset(targets))
        return Reply(said, image=image, text_board=board)

    async def cmd_games(self, ctx: Context) -> Reply:
        games = await self.store.active_games_of(ctx.user, limit=LIST_LIMIT)
        if not games:
            return Reply(ctx.t("games.none"), ephemeral=True)
        total = len(games)
        if total == LIST_LIMIT:
            total = await self.store.count_active_games_of(ctx.user)
        lines = []
        for game in games:
            color = game.player_color(ctx.user)
            assert color is not None
            pos = await self.games.position_of(game)
            names = await self.people.names(game, ctx.lang)
            turn = (
                ctx.t("games.your_turn")
                if pos.side == color
                else ctx.t("games.their_turn", name=names[pos.side])
            )
            deadline = (  # the clock, and the deadline of the player to move (not the bot's)
                ", " + present.format_time_control(game.time_per_move, ctx.lang, game.main_time)
                if game.time_per_move
                else ""
            )
            if game.deadline is not None:
                deadline += ", " + present.format_deadline(
                    game.deadline, ctx.now, ctx.lang, ctx.chat.platform, precise=is_live(game)
                )
            where = (
                ctx.t("games.here")
                if game.chat.chat_id == ctx.chat.chat_id
                else ctx.t("games.elsewhere", chat=game.chat.chat_id)
            )
            lines.append(
                ctx.t(
                    "games.line",
                    game=game.id,
                    opponent=names[color ^ 1],
                    variant=present.game_variant_name(game.variant, game.start_sfen, ctx.lang),
                    n=moves_played(pos),
                    turn=turn,
                    deadline=deadline,
                    where=where,
                )
            )
        return Reply(ctx.t("games.title") + "\n" + listing(ctx, lines, total), ephemeral=True)


def position_lines(
    ctx: Context, game: GameRow, names: tuple[str, str], pos: Position, key: str, **numbers: int
) -> list[str]:
    """``/board``'s text: the header ``key`` (with ``numbers``), the last move that led to
    ``pos`` in the chat's notation, and the SFEN (to paste into other programs)."""
    variant = present.game_variant_name(game.variant, game.start_sfen, ctx.lang)
    lines = [ctx.t(key, game=game.id, sente=names[0], gote=names[1], variant=variant, **numbers)]
    if pos.last_move is not None:
        probe = pos.copy()
        last = probe.pop()
        move = present.format_move(probe, last, ctx.settings.notation)
        lines.append(ctx.t("board.last_move", move=move))
    lines.append(ctx.t("board.sfen", sfen=pos.sfen()))
    return lines
