"""Autocomplete for front ends that offer it (Discord slash commands): ``complete``."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.api import Button, Reply
from bot.core.args import parse_number
from bot.core.context import Context
from bot.core.games import Games
from bot.core.people import People
from bot.core.replies import Replies
from bot.store.interface import Store
from bot.store.models import GameRow
from rules import Position
from rules.notation import legal_move_texts

COMPLETE_ROWS = 100  # games or challenges autocomplete looks through (25 are offered)


def movable_squares(pos: Position, user: str, game: GameRow) -> list[int]:
    """Squares whose piece can move on its side's turn (``/moves`` answers for either side):
    the asker's pieces first (a watcher's: the side to move), then the other side's."""
    first = game.player_color(user)
    first = pos.side if first is None else first
    out: list[int] = []
    for color in (first, first ^ 1):
        turn = pos if color == pos.side else pos.with_side_to_move(color)
        out += sorted({m.from_sq for m in turn.legal_moves() if m.from_sq >= 0})
    return out


@dataclass(eq=False)
class Completion:
    """Suggestions for a half-typed argument."""

    store: Store
    games: Games
    people: People
    replies: Replies

    async def cmd_complete(self, ctx: Context) -> Reply:
        """Suggestions for a half-typed argument: ``complete COMMAND ARGUMENT CURRENT``.

        Answers with up to 25 buttons whose label is shown and whose action is the value
        (front ends with autocomplete, such as Discord slash commands, use them).
        """
        command, argument, current = (*ctx.args, "", "", "")[:3]
        current = current.strip().lower()
        pairs: list[tuple[str, str]] = []
        if argument == "game":
            chat = ctx.chat
            games = (  # /analyse takes finished games only: the asker's, newest first
                await self.store.finished_games(
                    chat.platform, chat.community_id, ctx.user, limit=COMPLETE_ROWS
                )
                if command == "analyse"
                else await self.store.active_games_of(ctx.user, limit=COMPLETE_ROWS)
            )
            for mine in games:
                players = await self.people.names(mine, ctx.lang)
                color = mine.player_color(ctx.user) or 0
                pairs.append((f"#{mine.id} vs {players[color ^ 1]}", str(mine.id)))
        elif argument == "challenge":
            for ch in await self.store.open_challenges(ctx.chat, limit=COMPLETE_ROWS):
                pairs.append((await self.replies.challenge_line(ctx, ch), str(ch.id)))
        elif (command, argument) in (("move", "move"), ("moves", "square")):
            number = parse_number(ctx.request.options.get("game", ""))
            game = (
                await self.store.get_game(number)
                if number is not None
                else await self.store.active_game(ctx.chat, ctx.user)
            )
            if game is not None and game.active and game.chat.chat_id == ctx.chat.chat_id:
                pos = await self.games.position_of(game)
                if command == "move":
                    texts = legal_move_texts(pos, ctx.settings.notation)
                    pairs = [(t, t) for t in texts]
                else:
                    labels = pos.tables.square_names
                    pairs = [
                        (labels[sq], labels[sq]) for sq in movable_squares(pos, ctx.user, game)
                    ]
        fitting = [p for p in pairs if p[0].lower().startswith(current) or current in p[1].lower()]
        buttons = tuple(Button(label[:100], value[:100]) for label, value in fitting[:25])
        return Reply("", buttons=(buttons,) if buttons else (), ephemeral=True)
