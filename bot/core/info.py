"""Looking: ``board``, ``moves``, ``games``, ``export``, ``piece``, ``cheatsheet``,
``settings`` and ``help``."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from bot.core import present
from bot.core.api import Attachment, Button, Reply
from bot.core.base import (
    LIST_LIMIT,
    Context,
    ServiceBase,
    UserError,
    export_formats,
    listing,
    parse_number,
)
from bot.core.commands import BY_NAME, COMMANDS, EXPORT_FORMATS, find_command
from bot.core.exports import ExportBusy, gif_export, record_export
from bot.core.messages import LANGUAGES, text
from bot.core.movewords import moves_in_words
from bot.store.models import ChatSettings, GameRow, ReminderRoute
from render import moves_played
from rules import Outcome, PieceType, Position, RulesError, Termination, load_variant
from rules.records import ExportedFile, GameRecord

SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "language": LANGUAGES,
    "notation": ("western", "japanese", "usi"),
    "style": ("kanji", "international"),
    "perspective": ("mover", "sente"),
    "bare": ("on", "off"),
    "threads": ("on", "off"),
    "reminders": ("chat", "dm"),
}
USER_SETTINGS = frozenset({"reminders"})  # kept per user, not per chat
SETTING_FIELDS = {"style": "piece_style", "bare": "bare_moves"}  # key -> ChatSettings field
SETTING_ALIASES = {
    "language": "language",
    "lang": "language",
    "язык": "language",
    "język": "language",
    "言語": "language",
    "notation": "notation",
    "moves": "notation",
    "style": "style",
    "pieces": "style",
    "piece_style": "style",
    "perspective": "perspective",
    "view": "perspective",
    "flip": "perspective",
    "bare": "bare",
    "bare-moves": "bare",
    "bare_moves": "bare",
    "threads": "threads",
    "thread": "threads",
    "reminders": "reminders",
    "reminder": "reminders",
    "remind": "reminders",
}
VALUE_ALIASES = {
    "english": "en",
    "eng": "en",
    "russian": "ru",
    "rus": "ru",
    "русский": "ru",
    "日本語": "ja",
    "polish": "pl",
    "polski": "pl",
    "pol": "pl",
    "hodges": "western",
    "kif": "japanese",
    "turn": "mover",
    "western-pieces": "international",
    "latin": "international",
    "yes": "on",
    "true": "on",
    "1": "on",
    "no": "off",
    "false": "off",
    "0": "off",
    "private": "dm",
    "direct": "dm",
    "pm": "dm",
    "channel": "chat",
    "group": "chat",
}
MIME = {
    "kif": "text/plain; charset=shift_jis",
    "kifu": "text/plain; charset=utf-8",
    "csa": "text/plain",
    "usi": "text/plain",
    "gif": "image/gif",
}
GIF_MAX_BYTES = 8 * 1024 * 1024
COMPLETE_ROWS = 100  # games or challenges autocomplete looks through (25 are offered)


DEFAULT_VARIANTS = ("shogi", "wa")  # piece questions in a chat that plays no game


def local_name(piece: PieceType, ctx: Context) -> str:
    return piece.names.get(ctx.lang) or piece.name


def local_names(names: list[str], variants: tuple[str, ...], lang: str) -> list[str]:
    """Piece names the lookup offered (as written in the variant files, often English) as the
    names of those pieces in ``lang``; each piece once."""
    from rules.lookup import find_piece

    out: list[str] = []
    for name in names:
        try:
            piece = find_piece(name, list(variants))[0].piece
        except RulesError:
            piece = None
        local = (piece.names.get(lang) if piece else None) or name
        if local not in out:
            out.append(local)
    return out


def piece_buttons(names: list[str]) -> tuple[tuple[Button, ...], ...]:
    """One button per piece name (``/piece NAME``), those that fit a platform's 64 bytes."""
    buttons = tuple(Button(n, f"piece {n}") for n in names if len(f"piece {n}".encode()) <= 64)
    return (buttons,) if buttons else ()


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


class InfoCommands(ServiceBase):
    # --- board / moves ------------------------------------------------------------------

    async def cmd_board(self, ctx: Context) -> Reply:
        game, rest = await self.pick_game(ctx, ctx.args, player=False)
        if rest:
            number = rest[0]
            raise UserError("game.bad_number", text=number)
        names = await self.names(game, ctx.lang)
        pos = await self.position_of(game)
        lines = [
            ctx.t(
                "board.header",
                game=game.id,
                sente=names[0],
                gote=names[1],
                variant=present.variant_name(game.variant, ctx.lang),
                ply=moves_played(pos),  # the number the image and the text board show
            )
        ]
        if pos.last_move is not None:
            probe = pos.copy()
            last = probe.pop()
            lines.append(
                ctx.t(
                    "board.last_move", move=present.format_move(probe, last, ctx.settings.notation)
                )
            )
        return await self.game_reply(ctx, game, lines, pos=pos, mention_mover=False, announce=False)

    async def cmd_moves(self, ctx: Context) -> Reply:
        """Where the piece on a square can go, on the board with its destinations marked.

        A piece of the side not to move gets the moves it would have if its side were to move
        in the position as it stands (``Position.with_side_to_move``), and the reply says so.
        A piece that gives check now lists taking the king among them: that is its threat.
        """
        game, rest = await self.pick_game(ctx, ctx.args, player=False)
        if not rest:
            raise UserError("moves.missing")
        pos = await self.position_of(game)
        try:
            sq = pos.tables.parse_square(rest[0].lower())
        except RulesError as exc:
            raise UserError(
                "moves.bad_square", problem=present.rules_problem(exc, pos, ctx.lang)
            ) from None
        square = present.square_name(pos.variant, sq, ctx.settings.notation)
        value = pos.board[sq]
        if not value:
            raise UserError("moves.empty_square", square=square)
        color = 0 if value > 0 else 1
        piece_type = pos.variant.piece(abs(value))
        names = await self.names(game, ctx.lang)
        facts = {
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
        targets = tuple(sorted({m.to_sq for m in moves}))
        key = "moves.list_waiting" if waiting else "moves.list"
        image = await self.board_attachment(pos, ctx.settings, names, targets)
        board = None
        if image is None or self.shows_text_board(ctx, ctx.chat):
            board = present.board_text(pos, ctx.settings, names, marks=frozenset(targets))
        listed = ctx.t("describe.list").join(texts)
        return Reply(ctx.t(key, moves=listed, **facts), image=image, text_board=board)

    # --- games --------------------------------------------------------------------------

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
            pos = await self.position_of(game)
            names = await self.names(game, ctx.lang)
            turn = (
                ctx.t("games.your_turn")
                if pos.side == color
                else ctx.t("games.their_turn", name=names[pos.side])
            )
            deadline = (
                ", " + present.format_deadline(game.deadline, ctx.now, ctx.lang, ctx.chat.platform)
                if game.deadline is not None
                else ""
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
                    variant=present.variant_name(game.variant, ctx.lang),
                    n=moves_played(pos),
                    turn=turn,
                    deadline=deadline,
                    where=where,
                )
            )
        return Reply(ctx.t("games.title") + "\n" + listing(ctx, lines, total), ephemeral=True)

    # --- export -------------------------------------------------------------------------

    async def cmd_export(self, ctx: Context) -> Reply:
        args = list(ctx.args)
        fmt = None
        if args and parse_number(args[0]) is None:
            fmt = args.pop(0).lower().lstrip(".")
        if args:
            number = parse_number(args[0])
            if number is None or len(args) > 1:
                raise UserError("game.bad_number", text=" ".join(args))
            game = await self.game_by_number(ctx, number)
        else:
            found = await self.store.last_game(ctx.chat, ctx.user)
            if found is None:
                games = await self.store.active_games_in_chat(ctx.chat, limit=2)
                if len(games) != 1:
                    raise UserError("export.none")
                found = games[0]
            game = found
        names = await self.names(game, ctx.lang)
        formats = export_formats(game.variant)
        if fmt is not None and fmt not in EXPORT_FORMATS:  # name only this game's formats
            raise UserError("export.bad_format", fmt=fmt, formats=list(formats))
        fmt = fmt or formats[0]
        if fmt not in formats:
            raise UserError(
                "export.not_for_variant",
                fmt=fmt,
                variant=present.variant_name(game.variant, ctx.lang),
                formats=list(formats),
            )
        made = await self.export_file(ctx, game, names, fmt)
        attachment = Attachment(made.data, f"game-{game.id}.{fmt}", MIME[fmt])
        replaced = made.replaced
        words = [ctx.t("export.done", game=game.id, fmt=fmt.upper())]
        if replaced:  # characters Shift-JIS cannot hold (an emoji in a name) became ?
            chars = " ".join(replaced)
            words.append(ctx.t("export.replaced", chars=chars, fmt=fmt.upper(), game=game.id))
        return Reply(" ".join(words), files=(attachment,))

    async def export_file(
        self, ctx: Context, game: GameRow, names: tuple[str, str], fmt: str
    ) -> ExportedFile:
        """The file ``/export`` sends, made on the export threads and remembered (see
        ``bot.core.exports`` for the limits): nothing here grows with the game's length."""
        # the game's version and number of moves stand for its moves (hashing those would
        # cost time in proportion to the game)
        game_key = (game.id, game.version, len(game.moves), fmt)
        if fmt == "gif":
            result = present.result_caption(game, names, ctx.lang)  # on the last frame
            options = present.board_options(ctx.settings, names, result=result)
            variant = load_variant(game.variant)
            try:
                return await self.exports.make(
                    (*game_key, options, GIF_MAX_BYTES),
                    gif_export,
                    variant,
                    game.start_sfen,
                    game.moves,
                    GIF_MAX_BYTES,
                    options,
                    gif=True,
                )
            except ExportBusy:
                raise UserError("export.busy", game=game.id) from None
            except ValueError:
                raise UserError("export.too_big", game=game.id) from None
        from rules.records import RecordError

        try:
            return await self.exports.make(
                (*game_key, *names, ctx.lang),
                record_export,
                self.record(game, names, ctx.lang),
                fmt,
            )
        except RecordError as exc:
            raise UserError("export.unavailable", fmt=fmt.upper(), problem=exc.message) from None

    @staticmethod
    def record(game: GameRow, names: tuple[str, str], lang: str = "en") -> GameRecord:
        result = None
        if game.termination is not None:
            result = Outcome(Termination(game.termination), game.winner)

        def when(ts: float | None) -> dt.datetime | None:
            return dt.datetime.fromtimestamp(ts, dt.UTC) if ts is not None else None

        return GameRecord(
            variant=game.variant,
            start_sfen=game.start_sfen,
            moves=game.moves,
            sente=names[0],
            gote=names[1],
            result=result,
            started=when(game.created_at),
            ended=when(game.finished_at),
            event=text("export.event", lang, game=game.id),
            site=f"Komabot {game.chat.platform}",
        )

    # --- settings -----------------------------------------------------------------------

    async def cmd_settings(self, ctx: Context) -> Reply:
        settings = ctx.settings
        named = [(k, v) for k, v in ctx.request.options.items() if k in SETTING_CHOICES]
        typed = [w for pair in named for w in pair] if named else list(ctx.args)
        words = [w.lower() for w in typed]
        changes: list[str] = []
        route: ReminderRoute | None = None
        i = 0
        while i < len(words):
            word = VALUE_ALIASES.get(words[i], words[i])
            key = SETTING_ALIASES.get(word)
            if key is None:
                owners = [k for k, values in SETTING_CHOICES.items() if word in values]
                if not owners:
                    raise UserError("settings.bad_key", word=typed[i])
                if len(owners) > 1:
                    keys = present.or_list(owners, ctx.lang)
                    raise UserError("settings.which_key", word=typed[i], keys=keys)
                key, value = owners[0], word
                i += 1
            else:
                if i + 1 >= len(words):
                    raise UserError(
                        "settings.missing_value", key=key, choices=list(SETTING_CHOICES[key])
                    )
                value = VALUE_ALIASES.get(words[i + 1], words[i + 1])
                if value not in SETTING_CHOICES[key]:
                    raise UserError(
                        "settings.bad_value",
                        value=typed[i + 1],
                        key=key,
                        choices=list(SETTING_CHOICES[key]),
                    )
                i += 2
            if key == "reminders":
                route = ReminderRoute(value)
            else:
                field = SETTING_FIELDS.get(key, key)
                stored: object = value == "on" if value in ("on", "off") else value
                settings = replace(settings, **{field: stored})
            changes.append(f"{key} {value}")
        if (
            settings.language == "ja" != ctx.settings.language
            and not any(c.startswith("notation ") for c in changes)
            and settings.notation == "western"
        ):  # a chat turned Japanese writes moves as Japanese players do, unless told otherwise
            settings = replace(settings, notation="japanese")
            changes.append("notation japanese")
        if not changes:
            return Reply(await self.settings_text(ctx, settings))
        if settings != ctx.settings:
            self.require_settings_admin(ctx)
            await self.store.save_settings(ctx.chat, settings)
        if route is not None:
            await self.store.set_reminder_route(ctx.user, route)
        # answered in the chat's new language, if that changed
        return Reply(text("settings.changed", settings.language, changes=list(changes)))

    @staticmethod
    def require_settings_admin(ctx: Context) -> None:
        """Refuse a change of the chat's settings from someone the platform says may not manage
        the chat (front ends that know pass ``admin=0|1``; without it anyone may), or when the
        front end had to ask and got no answer (``admin=unknown``)."""
        admin = ctx.request.options.get("admin")
        if admin == "0":
            raise UserError("settings.not_admin")
        if admin == "unknown":
            raise UserError("settings.admin_unknown")

    async def settings_text(self, ctx: Context, settings: ChatSettings) -> str:
        route = await self.store.get_reminder_route(ctx.user)
        return ctx.t(
            "settings.show",
            language=settings.language,
            notation=settings.notation,
            style=settings.piece_style,
            perspective=settings.perspective,
            bare="on" if settings.bare_moves else "off",
            threads="on" if settings.threads else "off",
            reminders=route.value,
        )

    # --- help ---------------------------------------------------------------------------

    async def cmd_help(self, ctx: Context) -> Reply:
        if ctx.args:
            command = find_command(ctx.args[0])
            if command is None:
                raise UserError("help.unknown", word=ctx.args[0])
            aliases = (
                ctx.t("help.aliases", aliases=["/" + a for a in command.aliases])
                if command.aliases
                else ""
            )
            body = ctx.t(
                "help.command",
                name=command.name,
                syntax=command.syntax_in(ctx.lang),
                summary=command.summary(ctx.lang),
                example=command.example,
                aliases=aliases,
            ).replace(f"/{command.name} \n", f"/{command.name}\n")
            if command is BY_NAME["move"]:
                body += ctx.t("help.move_extra")
            return Reply(body)
        lines = [ctx.t("help.title")]
        lines += [f"/{c.name} — {c.summary(ctx.lang)}" for c in COMMANDS]
        lines += [ctx.t("help.footer"), ctx.t("help.play_bot")]
        play = Button(ctx.t("button.play_bot"), "play", "primary")  # /play with its defaults
        return Reply("\n".join(lines), buttons=((play,),))

    # --- pieces -------------------------------------------------------------------------

    async def cmd_cheatsheet(self, ctx: Context) -> Reply:
        word = ctx.args[0] if ctx.args else None
        variant_id = self.variant_arg(ctx, word) if word else (await self.chat_variants(ctx))[0]
        from render import render_cheatsheet
        from render.theme import DEFAULT_THEME

        variant = load_variant(variant_id)
        words = present.diagram_words(ctx.lang)
        data = await self.draw(render_cheatsheet, variant, DEFAULT_THEME, words)
        return Reply(
            ctx.t("cheatsheet.caption", variant=present.variant_name(variant_id, ctx.lang)),
            image=Attachment(data, f"cheatsheet-{variant_id}.png", "image/png"),
        )

    def variant_arg(self, ctx: Context, word: str) -> str:
        from bot.core.challenges import VARIANT_WORDS

        found = VARIANT_WORDS.get(word.lower())
        if found is None:
            raise UserError("variant.unknown", word=word)
        return found

    async def chat_variants(self, ctx: Context) -> tuple[str, ...]:
        """The variants a piece question in this chat is about, most likely first: the game
        the chat is playing (the author's game here, else the chat's only game in progress),
        or when there is none the usual ones."""
        game = await self.store.active_game(ctx.chat, ctx.user)
        if game is None:
            games = await self.store.active_games_in_chat(ctx.chat, limit=2)
            game = games[0] if len(games) == 1 else None
        return (game.variant,) if game is not None else DEFAULT_VARIANTS

    async def cmd_piece(self, ctx: Context) -> Reply:
        args = list(ctx.args)
        if not args:
            raise UserError("piece.missing")
        from bot.core.challenges import VARIANT_WORDS

        if len(args) > 1 and args[-1].lower() in VARIANT_WORDS:
            variants: tuple[str, ...] = (self.variant_arg(ctx, args.pop()),)
        else:
            variants = await self.chat_variants(ctx)
        query = " ".join(args)
        from rules.lookup import AmbiguousPieceError, UnknownPieceError, find_piece

        sheets = " / ".join(f"/cheatsheet {v}" for v in variants)
        try:
            matches = find_piece(query, list(variants))
        except AmbiguousPieceError as exc:
            names = local_names([str(n) for n in exc.params["candidates"]], variants, ctx.lang)
            raise UserError(
                "piece.which",
                buttons=piece_buttons(names),
                query=query,
                names=list(names),
                sheets=sheets,
            ) from None
        except UnknownPieceError as exc:
            offered = [str(n) for n in exc.params.get("candidates", ())]
            names = local_names(offered, variants, ctx.lang)[:5]
            exc.params["candidates"] = local_names(offered, variants, ctx.lang)
            raise UserError(
                "piece.not_found",
                buttons=piece_buttons(names),
                problem=present.rules_problem(exc, load_variant(variants[0]), ctx.lang),
                sheets=sheets,
            ) from None
        best = matches[0]  # best first: an unpromoted piece before a promoted one of that name
        return await self.piece_reply(ctx, best.variant_id, best.piece.kind)

    async def piece_reply(self, ctx: Context, variant_id: str, kind: int) -> Reply:
        from render import render_piece
        from render.theme import DEFAULT_THEME

        variant = load_variant(variant_id)
        piece = variant.piece(kind)
        extra = ""
        if piece.promotes_to:
            extra = ctx.t("piece.promotes", name=local_name(variant.piece(piece.promotes_to), ctx))
        elif piece.promoted:
            extra = ctx.t("piece.promoted_from", name=local_name(variant.piece(piece.base), ctx))
        caption = ctx.t(
            "piece.caption",
            name=local_name(piece, ctx),
            kanji=" / ".join((piece.kanji, *piece.kanji_alternatives)),
            romaji=piece.names.get("romaji", ""),
            variant=present.variant_name(variant_id, ctx.lang),
            moves=moves_in_words(piece.moves, ctx.lang),
            betza=piece.betza,
            promotes=extra,
        )
        name = piece.letter.replace("+", "promoted-")
        words = present.diagram_words(ctx.lang)
        data = await self.draw(render_piece, variant, kind, DEFAULT_THEME, words)
        image = Attachment(data, f"{variant_id}-{name}.png", "image/png")
        return Reply(caption, image=image)

    # --- autocomplete -------------------------------------------------------------------

    async def cmd_complete(self, ctx: Context) -> Reply:
        """Suggestions for a half-typed argument: ``complete COMMAND ARGUMENT CURRENT``.

        Answers with up to 25 buttons whose label is shown and whose action is the value
        (front ends with autocomplete, such as Discord slash commands, use them).
        """
        command, argument, current = (*ctx.args, "", "", "")[:3]
        current = current.strip().lower()
        pairs: list[tuple[str, str]] = []
        if argument == "game":
            for mine in await self.store.active_games_of(ctx.user, limit=COMPLETE_ROWS):
                players = await self.names(mine, ctx.lang)
                color = mine.player_color(ctx.user) or 0
                pairs.append((f"#{mine.id} vs {players[color ^ 1]}", str(mine.id)))
        elif argument == "challenge":
            for ch in await self.store.open_challenges(ctx.chat, limit=COMPLETE_ROWS):
                pairs.append((await self.challenge_line(ctx, ch), str(ch.id)))
        elif (command, argument) in (("move", "move"), ("moves", "square")):
            number = parse_number(ctx.request.options.get("game", ""))
            game = (
                await self.store.get_game(number)
                if number is not None
                else await self.store.active_game(ctx.chat, ctx.user)
            )
            if game is not None and game.active and game.chat.chat_id == ctx.chat.chat_id:
                pos = await self.position_of(game)
                if command == "move":
                    from rules.notation import legal_move_texts

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
