"""``/export``: a game's record (KIF, KIFU, CSA, USI) or its replay as an animated GIF."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.core import present
from bot.core.analyses import Analyses
from bot.core.api import Attachment, Reply
from bot.core.args import parse_number, shown
from bot.core.context import Context, UserError
from bot.core.exports import ExportBusy, Exports, gif_export, record_export
from bot.core.games import Games
from bot.core.messages import text
from bot.core.people import People
from bot.core.replies import export_formats
from bot.core.words import EXPORT_FORMATS
from bot.store.interface import Store
from bot.store.models import GameRow
from engine.analysis_kif import kif_comments
from rules import Outcome, Termination, load_variant
from rules.records import ExportedFile, GameRecord, RecordError

MIME = {
    "kif": "text/plain; charset=shift_jis",
    "kifu": "text/plain; charset=utf-8",
    "csa": "text/plain",
    "usi": "text/plain",
    "gif": "image/gif",
}
GIF_MAX_BYTES = 8 * 1024 * 1024


@dataclass(eq=False)
class Export:
    """Makes export files on the export threads (see :mod:`bot.core.exports`)."""

    store: Store
    games: Games
    people: People
    exports: Exports
    analyses: Analyses  # an analysed game's KIF and KIFU carry the analysis as comments

    async def cmd_export(self, ctx: Context) -> Reply:
        args = list(ctx.args)
        fmt = None
        if args and parse_number(args[0]) is None:
            fmt = args.pop(0).lower().lstrip(".")
        if args:
            number = parse_number(args[0])
            if number is None or len(args) > 1:
                raise UserError("game.bad_number", text=shown(" ".join(args)))
            game = await self.games.by_number(ctx, number)
        else:
            found = await self.store.last_game(ctx.chat, ctx.user)
            if found is None:
                games = await self.store.active_games_in_chat(ctx.chat, limit=2)
                if len(games) != 1:
                    raise UserError("export.none")
                found = games[0]
            game = found
        names = await self.people.names(game, ctx.lang)
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
            notation = ctx.settings.notation  # each frame names its move as the chat writes it
            variant = load_variant(game.variant)
            try:
                return await self.exports.make(
                    (*game_key, options, notation, GIF_MAX_BYTES),
                    gif_export,
                    variant,
                    game.start_sfen,
                    game.moves,
                    GIF_MAX_BYTES,
                    options,
                    notation,
                    gif=True,
                )
            except ExportBusy:
                raise UserError("export.busy", game=game.id) from None
            except ValueError:
                raise UserError("export.too_big", game=game.id) from None
        analysis = await self.analyses.kept(game)
        comments = kif_comments(analysis) if analysis is not None else None
        try:
            return await self.exports.make(
                (*game_key, *names, ctx.lang, self.analyses.key(game) if analysis else None),
                record_export,
                self.record(game, names, ctx.lang),
                fmt,
                comments,
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
            time_control=(game.main_time, game.time_per_move)
            if game.main_time and game.time_per_move
            else None,
        )
