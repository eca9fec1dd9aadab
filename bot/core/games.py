"""Games: finding the one a request means, its position, its clock, and saving it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from bot.chat import ChatKey
from bot.config import Config
from bot.core import present
from bot.core.args import parse_number
from bot.core.clock import Bell
from bot.core.context import LIST_LIMIT, Context, GameChanged, UserError, listing
from bot.core.people import People
from bot.core.positions import INLINE_PLIES, DamagedRecordError, PositionCache, rebuild
from bot.core.shogi_clock import deadline_for, reminder_offsets, start_time_left
from bot.store.errors import VersionConflict
from bot.store.interface import Store
from bot.store.models import GameRow, GameStatus, NewNotice, NewTimer, TimerKind
from rules import AmbiguousMoveError, IllegalMoveError, Position, RulesError, load_variant


def reads_as_move(pos: Position, move_text: str) -> bool:
    """Whether ``move_text`` is a move in ``pos``: playable, or one that names a piece and a
    square but is illegal or ambiguous there (rather than chatter or a stray number)."""
    try:
        present.parse_move(pos, move_text)
    except (IllegalMoveError, AmbiguousMoveError):
        return True
    except RulesError:
        return False
    return True


def finish(game: GameRow, termination: str, winner: int | None, now: float) -> GameRow:
    """``game`` ended by ``termination`` (``winner`` the winning colour, None for none)."""
    return replace(
        game,
        status=GameStatus.FINISHED,
        termination=termination,
        winner=winner,
        finished_at=now,
        updated_at=now,
        deadline=None,
        draw_offer=None,
        takeback_offer=None,
    )


def new_game(
    chat: ChatKey,
    variant_id: str,
    players: tuple[str, str],
    time_per_move: int | None,
    now: float,
    handicap: str | None = None,
    main_time: int | None = None,
    **extra: Any,
) -> GameRow:
    """A game about to start in ``chat`` (``players``: sente, gote), from the start position
    of ``handicap`` (one of the variant's, gote to move) or the variant's, with ``main_time``
    each (``time_per_move`` then the byoyomi), its first deadline set; ``extra`` are the other
    fields of :class:`GameRow` it has (its challenge, level...)."""
    variant = load_variant(variant_id)
    game = GameRow(
        id=0,
        chat=chat,
        variant=variant_id,
        start_sfen=variant.handicaps[handicap].sfen if handicap else variant.start_sfen,
        moves=(),
        version=1,
        sente=players[0],
        gote=players[1],
        status=GameStatus.ACTIVE,
        termination=None,
        winner=None,
        time_per_move=time_per_move,
        deadline=None,
        draw_offer=None,
        takeback_offer=None,
        created_at=now,
        updated_at=now,
        main_time=main_time or None,
        time_left=start_time_left(main_time),
        **extra,
    )
    return replace(game, deadline=deadline_for(game, game.side_to_move, now))


class Games:
    """The games of the store as requests see them, with their positions cached."""

    def __init__(self, store: Store, config: Config, people: People, bell: Bell) -> None:
        self.store = store
        self.config = config
        self.people = people
        self.bell = bell  # rung when a game's timers changed
        self.positions = PositionCache()
        # long games not cached are rebuilt here, not behind board images on the drawing threads
        self._rebuilding = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-replay")

    def close(self) -> None:
        self._rebuilding.shutdown(wait=False)

    async def position_of(self, game: GameRow) -> Position:
        """The position after every move of ``game`` (a fresh copy), as
        ``self.positions.position`` gives it.  One not cached is rebuilt (``positions.rebuild``:
        the stored moves replayed unchecked behind cheap guards); a game longer than
        ``INLINE_PLIES`` on a worker thread, off the event loop."""
        pos = self.positions.cached(game)
        if pos is None:
            if len(game.moves) <= INLINE_PLIES:
                pos = rebuild(game)
            else:
                loop = asyncio.get_running_loop()
                pos = await loop.run_in_executor(self._rebuilding, rebuild, game)
            self.positions.put(game, pos)  # keeps its own copy
        return pos

    # --- which game -----------------------------------------------------------------------

    async def by_number(self, ctx: Context, number: int) -> GameRow:
        game = await self.store.get_game(number)
        if game is None or game.chat.platform != ctx.chat.platform:
            raise UserError("game.not_found", game=number)
        if game.chat.chat_id != ctx.chat.chat_id and game.player_color(ctx.user) is None:
            raise UserError("game.other_chat", game=number)
        return game

    async def pick(
        self, ctx: Context, args: Sequence[str], *, player: bool, move_text: bool = False
    ) -> tuple[GameRow, list[str]]:
        """The game a command is about and the arguments left.

        A trailing ``12`` or ``#12`` names the game (one that does not exist is an error);
        else the author's active game in this chat; for watchers (``player=False``) also the
        only game in progress here.  After move text (``move_text``) see :meth:`number_in`.
        """
        rest = list(args)
        number = await self.number_in(ctx, rest, move_text=move_text)
        if number is not None:
            rest.pop()
            game = await self.by_number(ctx, number)
        else:
            game = await self.unnamed(ctx, player=player)
        ctx.games_read.setdefault(game.id, game)
        if player and game.player_color(ctx.user) is None:
            names = await self.people.names(game, ctx.lang)
            raise UserError("game.not_player", sente=names[0], gote=names[1], game=game.id)
        return game, rest

    async def of_player(
        self, ctx: Context, args: Sequence[str], *, move_text: bool = False
    ) -> tuple[GameRow, list[str], int, tuple[str, str]]:
        """The author's active game, the arguments left, their colour and both names."""
        game, rest = await self.pick(ctx, args, player=True, move_text=move_text)
        names = await self.people.names(game, ctx.lang)
        self.require_active(ctx, game, names)
        color = game.player_color(ctx.user)
        assert color is not None
        return game, rest, color, names

    async def number_in(
        self, ctx: Context, words: Sequence[str], *, move_text: bool = False
    ) -> int | None:
        """The game number ``words`` end with (``12`` or ``#12``), or None.

        After move text a bare number may be part of the move (``77 76`` on 9x9): it is when
        the whole text reads as a move (playable or not) in the game the author would mean
        without it; otherwise it names a game, whether or not that game exists.  A lone word
        is the move itself.
        """
        number = parse_number(words[-1]) if words else None
        if number is None or not move_text or words[-1].lstrip().startswith("#"):
            return number
        if len(words) < 2:
            return None
        try:
            meant = await self.unnamed(ctx, player=True)
            pos = await self.position_of(meant)
        except (UserError, DamagedRecordError):
            return number  # no game to read the move in: the number can only name one
        return None if reads_as_move(pos, " ".join(words)) else number

    async def unnamed(self, ctx: Context, *, player: bool) -> GameRow:
        """The game a command means when no number names it: the author's active game here;
        in a private chat with the bot their only one anywhere; for watchers (not ``player``)
        the only game in progress here."""
        found = await self.store.active_game(ctx.chat, ctx.user)
        if found is None and ctx.request.options.get("chat") == "private":
            found = await self._only_one_anywhere(ctx)
        if found is not None:
            return found
        if player:
            last = await self.store.last_game(ctx.chat, ctx.user)
            if last is not None:  # say how their latest game here ended
                self.require_active(ctx, last, await self.people.names(last, ctx.lang))
            raise UserError("game.none_here")
        return await self._only_one_here(ctx)

    async def _only_one_anywhere(self, ctx: Context) -> GameRow | None:
        """In a private chat with the bot: the author's one active game, wherever it is."""
        games = await self.store.active_games_of(ctx.user, limit=LIST_LIMIT)
        if len(games) > 1:
            total = len(games)
            if total == LIST_LIMIT:
                total = await self.store.count_active_games_of(ctx.user)
            lines = [await self.line(ctx, g) for g in games]
            raise UserError("game.several_of_yours", games=listing(ctx, lines, total))
        return games[0] if games else None

    async def _only_one_here(self, ctx: Context) -> GameRow:
        games = await self.store.active_games_in_chat(ctx.chat, limit=LIST_LIMIT)
        if not games:
            raise UserError("game.none_in_chat")
        if len(games) > 1:
            total = len(games)
            if total == LIST_LIMIT:
                total = await self.store.count_active_games_in_chat(ctx.chat)
            lines = [await self.line(ctx, g) for g in games]
            raise UserError("game.several_in_chat", games=listing(ctx, lines, total))
        return games[0]

    async def line(self, ctx: Context, game: GameRow) -> str:
        """One game in a list: number, players, variant, whose turn."""
        names = await self.people.names(game, ctx.lang)
        pos = await self.position_of(game)
        return ctx.t(
            "game.line",
            game=game.id,
            sente=names[0],
            gote=names[1],
            variant=present.game_variant_name(game.variant, game.start_sfen, ctx.lang),
            turn=ctx.t("game.turn", name=names[pos.side]),
        )

    @staticmethod
    def require_active(ctx: Context, game: GameRow, names: tuple[str, str]) -> None:
        if not game.active:
            raise UserError(
                "game.finished", game=game.id, result=present.result_text(game, names, ctx.lang)
            )

    # --- clocks and saving ----------------------------------------------------------------

    def clock_timers(self, game: GameRow, now: float, version: int | None = None) -> list[NewTimer]:
        """The deadline and reminders of the player to move in ``game`` at ``version`` (by
        default its own: the stored one)."""
        if not game.active or game.deadline is None:
            return []
        version = game.version if version is None else version
        timers = [NewTimer(TimerKind.DEADLINE, game.deadline, game.id, None, version)]
        for offset in reminder_offsets(game, self.config.reminders):
            due = game.deadline - offset
            if due > now:
                timers.append(NewTimer(TimerKind.REMINDER, due, game.id, None, version, offset))
        return timers

    async def save(
        self, new: GameRow, now: float, *, clocks: bool, notices: Sequence[NewNotice] = ()
    ) -> GameRow:
        """Write ``new`` (carrying the version it was read at); ``clocks`` replaces its timers;
        ``notices`` are queued in the same transaction.

        Raises :class:`GameChanged` when the game changed meanwhile.
        """
        timers: list[NewTimer] | None = None
        if clocks or not new.active:
            timers = self.clock_timers(new, now, version=new.version + 1)
        try:
            saved = await self.store.update_game(new, timers, notices=notices)
        except VersionConflict:
            raise GameChanged(new) from None
        if timers:
            self.bell.ring()
        return saved
