"""What every command handler of the game service shares: context, lookups, replies."""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar

from bot.config import Config
from bot.core import present
from bot.core.api import Attachment, Button, Outbox, Reply, Request, User
from bot.core.clock import Clock
from bot.core.exports import Exports
from bot.core.messages import text
from bot.core.positions import INLINE_PLIES, DamagedRecordError, PositionCache, rebuild
from bot.store.errors import StoreWriteError
from bot.store.interface import Store
from bot.store.models import (
    ENGINE_PLAYER,
    ChallengeRow,
    ChatKey,
    ChatSettings,
    GameRow,
    GameStatus,
    NewNotice,
    NewTimer,
    TimerKind,
    UserRow,
)
from rules import AmbiguousMoveError, IllegalMoveError, Position, RulesError

if TYPE_CHECKING:
    from bot.core.bot_player import BotPlayer
    from bot.core.delivery import Delivery

log = logging.getLogger("komabot.service")
T = TypeVar("T")

_NUMBER = re.compile(r"^#?(\d{1,12})$")
# Platform handles (Telegram usernames, Discord user names), kept in the store's key-value
# state: user id -> handle, and lower-case handle -> user id.
USER_HANDLE = "user-handle"
HANDLE_USER = "handle-user"


class UserError(Exception):
    """A request the service refuses; ``key`` and ``params`` name the message to show."""

    def __init__(
        self, key: str, /, *, buttons: tuple[tuple[Button, ...], ...] = (), **params: object
    ) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.buttons = buttons


@dataclass(frozen=True)
class Context:
    """One request with what the handlers look up for it.

    ``after`` holds work to start once the reply has been handed back (the bot's turn after a
    move: its answer then follows the mover's board rather than racing it)."""

    request: Request
    chat: ChatKey
    user: str  # user key
    settings: ChatSettings
    now: float
    after: list[Callable[[], None]] = field(default_factory=list, compare=False)

    @property
    def lang(self) -> str:
        return self.settings.language

    @property
    def args(self) -> tuple[str, ...]:
        return self.request.args

    def t(self, key: str, /, **params: object) -> str:
        return text(key, self.lang, **params)


LIST_LIMIT = 10
"""Rows a reply lists at most; the rest are counted ("… and 12 more")."""
LIST_CHARS = 1200
"""Characters of listed rows in one reply at most (platforms cap messages: Discord 2,000)."""
LINE_CHARS = 200


def listing(ctx: Context, lines: Sequence[str], total: int) -> str:
    """``lines`` (of ``total`` rows) one per line, cut to fit a message, the rest counted."""
    shown: list[str] = []
    used = 0
    for line in lines:
        if len(line) > LINE_CHARS:
            line = line[: LINE_CHARS - 1] + "…"
        if shown and used + len(line) + 1 > LIST_CHARS:
            break
        shown.append(line)
        used += len(line) + 1
    if total > len(shown):
        shown.append(ctx.t("list.more", count=total - len(shown)))
    return "\n".join(shown)


def game_started(ctx: Context, game: GameRow, names: tuple[str, str]) -> str:
    """The line that opens a game: its number, the players, the variant, the time per move."""
    return ctx.t(
        "game.started",
        game=game.id,
        sente=names[0],
        gote=names[1],
        variant=present.variant_name(game.variant, ctx.lang),
        time=present.format_time_control(game.time_per_move, ctx.lang),
    )


def parse_number(word: str) -> int | None:
    """``12`` or ``#12`` -> 12; anything else None."""
    m = _NUMBER.match(word.strip())
    return int(m.group(1)) if m else None


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


class ServiceBase:
    """State and helpers of the game service; the command mixins build on it."""

    bot_player: BotPlayer  # Komabot as a player (bot.core.bot_player), set by GameService
    delivery: Delivery  # messages sent on the service's own (bot.core.delivery)

    def __init__(
        self,
        store: Store,
        config: Config | None = None,
        *,
        clock: Clock | None = None,
        outboxes: Mapping[str, Outbox] | None = None,
        rng: random.Random | None = None,
        render_images: bool = True,
    ) -> None:
        from bot.core.clock import SystemClock

        self.store = store
        self.config = config or Config()
        self.clock: Clock = clock or SystemClock()
        self.outboxes: dict[str, Outbox] = dict(outboxes or {})
        self.rng = rng or random.Random()
        self.render_images = render_images
        self.positions = PositionCache()
        self._names: dict[str, str] = {}
        self._handles: dict[str, str | None] = {}
        self._name_write_failed = False
        self.timers_changed: Callable[[], None] = lambda: None
        # Board images, one at a time: drawing is mostly Python under the interpreter lock, so
        # a second board thread only makes two boards share it (bench/service.py, 1,000 games,
        # back to back: one thread 242-256 moves/s, p99 19.4-20.7 ms; two 230-232, 21.1-23.2).
        self._boards = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-board")
        # other pictures (pieces, cheat sheets, leaderboards) apart, never in a board's way
        self._drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-draw")
        self.exports = Exports()  # /export's files: own threads, limits, cache
        # long games not cached are rebuilt here, not behind board images on the drawing threads
        self._rebuilding = ThreadPoolExecutor(max_workers=1, thread_name_prefix="komabot-replay")

    # --- people -------------------------------------------------------------------------

    async def remember(self, user: User) -> None:
        """Keep the user's current display name (for mentions and boards) and platform handle
        (to tell people of one name apart)."""
        if self._names.get(user.key) != user.name:
            await self.store.save_user(UserRow(user.key, user.platform, user.id, user.name))
            self._names[user.key] = user.name
        # handle_of reads the stored handle once per process: a restart writes nothing new
        if user.handle and await self.handle_of(user.key) != user.handle:
            await self.store.put_state(user.platform, USER_HANDLE, user.id, user.handle)
            await self.store.put_state(user.platform, HANDLE_USER, user.handle.lower(), user.id)
            self._handles[user.key] = user.handle

    async def remember_quietly(self, *users: User | None) -> None:
        """:meth:`remember` the people of a request; a database that takes no writes (read-only,
        disk full) only costs the name update, never the request (logged once)."""
        for user in users:
            if user is None:
                continue
            try:
                await self.remember(user)
            except StoreWriteError as exc:
                if not self._name_write_failed:
                    log.warning("cannot keep user names (%s); requests go on without", exc)
                self._name_write_failed = True

    async def handle_of(self, key: str) -> str | None:
        """The platform handle last seen for the user ``key``, if any."""
        if key not in self._handles:
            platform, _, uid = key.partition(":")
            self._handles[key] = await self.store.get_state(platform, USER_HANDLE, uid)
        return self._handles[key]

    async def user_with_handle(self, platform: str, handle: str) -> str | None:
        """The key of the user last seen with ``handle`` (ignoring case) who still has it."""
        uid = await self.store.get_state(platform, HANDLE_USER, handle.lower())
        if uid is None:
            return None
        key = f"{platform}:{uid}"
        current = await self.handle_of(key)
        return key if current is not None and current.lower() == handle.lower() else None

    async def name(self, key: str) -> str:
        if key == ENGINE_PLAYER:
            return text("bot.brand")
        if key not in self._names:
            row = await self.store.get_user(key)
            self._names[key] = row.name if row else key.partition(":")[2]
        return self._names[key]

    async def names(self, game: GameRow, lang: str = "en") -> tuple[str, str]:
        """The players' names; the bot's says its level ("Komabot, level 4", in ``lang``)."""
        names = [await self.name(game.sente), await self.name(game.gote)]
        if game.engine_color is not None:
            names[game.engine_color] = text("bot.name", lang, level=game.engine_level)
        return names[0], names[1]

    async def user(self, key: str) -> User:
        platform, _, uid = key.partition(":")
        return User(platform, uid, await self.name(key))  # type: ignore[arg-type]

    # --- games --------------------------------------------------------------------------

    async def game_by_number(self, ctx: Context, number: int) -> GameRow:
        game = await self.store.get_game(number)
        if game is None or game.chat.platform != ctx.chat.platform:
            raise UserError("game.not_found", game=number)
        if game.chat.chat_id != ctx.chat.chat_id and game.player_color(ctx.user) is None:
            raise UserError("game.other_chat", game=number)
        return game

    async def pick_game(
        self, ctx: Context, args: Sequence[str], *, player: bool, move_text: bool = False
    ) -> tuple[GameRow, list[str]]:
        """The game a command is about and the arguments left.

        A trailing ``12`` or ``#12`` names the game (one that does not exist is an error);
        else the author's active game in this chat; for watchers (``player=False``) also the
        only game in progress here.  After move text (``move_text``) see :meth:`game_number`.
        """
        rest = list(args)
        number = await self.game_number(ctx, rest, move_text=move_text)
        if number is not None:
            rest.pop()
            game = await self.game_by_number(ctx, number)
        else:
            game = await self.unnamed_game(ctx, player=player)
        if player and game.player_color(ctx.user) is None:
            names = await self.names(game, ctx.lang)
            raise UserError("game.not_player", sente=names[0], gote=names[1], game=game.id)
        return game, rest

    async def game_number(
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
            meant = await self.unnamed_game(ctx, player=True)
            pos = await self.position_of(meant)
        except (UserError, DamagedRecordError):
            return number  # no game to read the move in: the number can only name one
        return None if reads_as_move(pos, " ".join(words)) else number

    async def unnamed_game(self, ctx: Context, *, player: bool) -> GameRow:
        """The game a command means when no number names it: the author's active game here;
        in a private chat with the bot their only one anywhere; for watchers (not ``player``)
        the only game in progress here."""
        found = await self.store.active_game(ctx.chat, ctx.user)
        if found is None and ctx.request.options.get("chat") == "private":
            found = await self.only_game_anywhere(ctx)
        if found is not None:
            return found
        if player:
            last = await self.store.last_game(ctx.chat, ctx.user)
            if last is not None:  # say how their latest game here ended
                self.require_active(ctx, last, await self.names(last, ctx.lang))
            raise UserError("game.none_here")
        return await self.only_game_here(ctx)

    async def only_game_anywhere(self, ctx: Context) -> GameRow | None:
        """In a private chat with the bot: the author's one active game, wherever it is."""
        games = await self.store.active_games_of(ctx.user, limit=LIST_LIMIT)
        if len(games) > 1:
            total = len(games)
            if total == LIST_LIMIT:
                total = await self.store.count_active_games_of(ctx.user)
            lines = [await self.game_line(ctx, g) for g in games]
            raise UserError("game.several_of_yours", games=listing(ctx, lines, total))
        return games[0] if games else None

    async def only_game_here(self, ctx: Context) -> GameRow:
        games = await self.store.active_games_in_chat(ctx.chat, limit=LIST_LIMIT)
        if not games:
            raise UserError("game.none_in_chat")
        if len(games) > 1:
            total = len(games)
            if total == LIST_LIMIT:
                total = await self.store.count_active_games_in_chat(ctx.chat)
            lines = [await self.game_line(ctx, g) for g in games]
            raise UserError("game.several_in_chat", games=listing(ctx, lines, total))
        return games[0]

    async def game_line(self, ctx: Context, game: GameRow) -> str:
        names = await self.names(game, ctx.lang)
        pos = await self.position_of(game)
        return ctx.t(
            "game.line",
            game=game.id,
            sente=names[0],
            gote=names[1],
            variant=present.variant_name(game.variant, ctx.lang),
            turn=ctx.t("game.turn", name=names[pos.side]),
        )

    async def challenge_line(self, ctx: Context, ch: ChallengeRow) -> str:
        challenged = await self.name(ch.challenged) if ch.challenged else ctx.t("challenge.anyone")
        return ctx.t(
            "challenge.line",
            challenge=ch.id,
            challenger=await self.name(ch.challenger),
            challenged=challenged,
            variant=present.variant_name(ch.variant, ctx.lang),
            time=present.format_time_control(ch.time_per_move, ctx.lang),
        )

    def require_active(self, ctx: Context, game: GameRow, names: tuple[str, str]) -> None:
        if not game.active:
            raise UserError(
                "game.finished", game=game.id, result=present.result_text(game, names, ctx.lang)
            )

    @staticmethod
    def deadline_for(game: GameRow, side_to_move: int, now: float) -> float | None:
        """When the player to move must have moved: None without a clock, and never for the
        bot (it cannot lose on time; deadlines and reminders are the person's alone)."""
        if not game.time_per_move or game.player(side_to_move) == ENGINE_PLAYER:
            return None
        return now + game.time_per_move

    def clock_timers(self, game: GameRow, now: float) -> list[NewTimer]:
        """The deadline and reminders of the player to move in ``game`` (its stored version)."""
        if not game.active or game.deadline is None:
            return []
        timers = [NewTimer(TimerKind.DEADLINE, game.deadline, game.id, None, game.version)]
        for offset in self.config.reminders:
            due = game.deadline - offset
            if due > now and (game.time_per_move is None or offset < game.time_per_move):
                timers.append(
                    NewTimer(TimerKind.REMINDER, due, game.id, None, game.version, offset)
                )
        return timers

    async def save_game(
        self, new: GameRow, now: float, *, clocks: bool, notices: Sequence[NewNotice] = ()
    ) -> GameRow:
        """Write ``new`` (carrying the version it was read at); ``clocks`` replaces its timers;
        ``notices`` are queued in the same transaction.

        Raises VersionConflict when the game changed meanwhile.
        """
        timers: list[NewTimer] | None = None
        if clocks or not new.active:
            timers = self.clock_timers(replace(new, version=new.version + 1), now)
        saved = await self.store.update_game(new, timers, notices=notices)
        if timers:
            self.timers_changed()
        return saved

    async def commit(
        self,
        ctx: Context,
        new: GameRow,
        lines: Sequence[str],
        *,
        pos: Position | None = None,
        clocks: bool,
        notify: bool = False,
    ) -> Reply:
        """Save ``new`` (``pos``: its position, when known) and make the reply saying so, with
        ``lines``, the board and whose turn it is.

        By default the reply is the asker's, made once the write committed.  With ``notify``
        (the bot's own moves, which answer no request) it is made first and queued for the
        game's chat in the same transaction, then sent: delivered at least once, and never
        without the move, nor the move without it.
        """
        if not notify:
            # The board is drawn while the move is written: the image does not depend on the
            # write, and the write's wait for the disk overlaps the drawing.
            drawing = None if pos is None else await self.start_board(new, pos, ctx.settings)
            try:
                saved = await self.save_game(new, ctx.now, clocks=clocks)
            except BaseException:
                if drawing is not None:
                    drawing.cancel()  # the move was not made: nobody sees this board
                raise
            if pos is not None:
                self.positions.put(saved, pos)
            return await self.game_reply(ctx, saved, lines, pos=pos, drawing=drawing)
        shown = replace(new, version=new.version + 1)
        reply = await self.game_reply(ctx, shown, lines, pos=pos, announce=False)
        notice = self.delivery.notice("move", new.chat, reply, ctx.now, game_id=new.id)
        saved = await self.save_game(new, ctx.now, clocks=clocks, notices=[notice])
        if pos is not None:
            self.positions.put(saved, pos)
        self.delivery.kick()
        return reply

    def finish(self, game: GameRow, termination: str, winner: int | None, now: float) -> GameRow:
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

    # --- replies ------------------------------------------------------------------------

    async def game_reply(
        self,
        ctx: Context | None,
        game: GameRow,
        lines: Sequence[str],
        *,
        pos: Position | None = None,
        settings: ChatSettings | None = None,
        buttons: tuple[tuple[Button, ...], ...] = (),
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
        pos = pos or await self.position_of(game)
        names = await self.names(game, lang)
        body = list(lines)
        mentions: tuple[User, ...] = ()
        if game.active:
            if pos.is_check():
                body.append(text("move.check", lang))
            mover = names[pos.side]
            color = present.color_name(pos.side, lang)
            bot_to_move = pos.side == game.engine_color
            if bot_to_move:
                body.append(text("bot.to_move", lang, name=mover, color=color))
            elif game.deadline is not None:
                deadline = present.format_deadline(game.deadline, now, lang, game.chat.platform)
                body.append(
                    text("move.next_deadline", lang, name=mover, color=color, deadline=deadline)
                )
            else:
                body.append(text("move.next", lang, name=mover, color=color))
            if game.draw_offer is not None:
                body.append(text("offer.draw_pending", lang, name=names[game.draw_offer]))
            if game.takeback_offer is not None:
                body.append(text("offer.takeback_pending", lang, name=names[game.takeback_offer]))
            if mention_mover and not bot_to_move:
                mentions = (await self.user(game.player(pos.side)),)
        else:
            result = present.result_text(game, names, lang)
            body.append(text("game.over", lang, game=game.id, result=result))
            changes = await self.store.rating_changes(game)
            if changes:
                from bot.core.ratings import change_line  # ratings builds on this module

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
            "\n".join(body),
            image=image,
            buttons=buttons,
            mentions=mentions,
            text_board=board,
        )
        return await self.announce(ctx, game, reply) if ctx and announce else reply

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
        """The board image of ``game`` at ``pos`` as the chat's ``settings`` draw it, started
        now (``pos`` is copied first: it may change meanwhile); await the result when needed.
        A finished game's image says the result."""
        names = names or await self.names(game, settings.language)
        result = present.result_caption(game, names, settings.language)  # "" while it goes on
        return asyncio.ensure_future(
            self.board_attachment(pos.copy(), settings, names, result=result)
        )

    async def board_attachment(
        self,
        pos: Position,
        settings: ChatSettings,
        names: tuple[str, str],
        highlights: tuple[int, ...] = (),
        result: str = "",
    ) -> Attachment | None:
        """The board PNG, drawn on the board thread (the loop keeps serving); None if off.
        ``result`` is a finished game's caption (``present.result_caption``)."""
        if not self.render_images:
            return None
        board = functools.partial(present.board_image, pos, settings, names, highlights, result)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._boards, board)
        except Exception:
            # The answer still goes out (with the text board): what was done stays visible.
            log.exception("drawing the board failed")
            return None

    async def draw(self, fn: Callable[..., T], *args: object) -> T:
        """Run an image function other than a board on its own thread, off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._drawing, functools.partial(fn, *args))

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


def export_formats(variant_id: str) -> tuple[str, ...]:
    """The record formats a game of ``variant_id`` can be exported in, the default first."""
    from rules.records import formats_for

    return (*formats_for(variant_id), "gif")


def export_buttons(game: GameRow) -> tuple[Button, ...]:
    return tuple(
        Button(fmt.upper(), f"export {fmt} {game.id}") for fmt in export_formats(game.variant)
    )
