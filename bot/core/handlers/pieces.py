"""Pieces: ``/piece NAME`` (how it moves, with a diagram) and ``/cheatsheet``."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core import present
from bot.core.api import Attachment, Button, Reply
from bot.core.context import Context, UserError
from bot.core.pictures import Pictures
from bot.core.present.piece_moves import moves_in_words
from bot.core.words import variant_of
from bot.store.interface import Store
from render import render_cheatsheet, render_piece
from render.theme import DEFAULT_THEME
from rules import PieceType, RulesError, load_variant
from rules.lookup import AmbiguousPieceError, UnknownPieceError, find_piece

DEFAULT_VARIANTS = ("shogi", "wa")  # piece questions in a chat that plays no game


def local_name(piece: PieceType, ctx: Context) -> str:
    return piece.names.get(ctx.lang) or piece.name


def local_names(names: list[str], variants: tuple[str, ...], lang: str) -> list[str]:
    """Piece names the lookup offered (as written in the variant files, often English) as the
    names of those pieces in ``lang``; each piece once."""
    out: list[str] = []
    for name in names:
        try:
            piece = find_piece(name, list(variants))[0].piece
        except RulesError:
            piece = None
        local = (piece.names.get(lang) or piece.name) if piece else name  # never pl's "pion"
        if local not in out:
            out.append(local)
    return out


def piece_buttons(names: list[str]) -> tuple[tuple[Button, ...], ...]:
    """One button per piece name (``/piece NAME``), those that fit a platform's 64 bytes."""
    buttons = tuple(Button(n, f"piece {n}") for n in names if len(f"piece {n}".encode()) <= 64)
    return (buttons,) if buttons else ()


def variant_arg(word: str) -> str:
    """The variant ``word`` names; refused when it names none."""
    found = variant_of(word)
    if found is None:
        raise UserError("variant.unknown", word=word)
    return found


@dataclass(eq=False)
class Pieces:
    """Answers about pieces, drawn on the pictures thread."""

    store: Store
    pictures: Pictures

    async def cmd_cheatsheet(self, ctx: Context) -> Reply:
        word = ctx.args[0] if ctx.args else None
        variant_id = variant_arg(word) if word else (await self.chat_variants(ctx))[0]
        variant = load_variant(variant_id)
        words = present.diagram_words(ctx.lang)
        data = await self.pictures.draw(render_cheatsheet, variant, DEFAULT_THEME, words)
        return Reply(
            ctx.t("cheatsheet.caption", variant=present.variant_name(variant_id, ctx.lang)),
            image=Attachment(data, f"cheatsheet-{variant_id}.png", "image/png"),
        )

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
        if len(args) > 1 and variant_of(args[-1]) is not None:
            variants: tuple[str, ...] = (variant_arg(args.pop()),)
        else:
            variants = await self.chat_variants(ctx)
        query = " ".join(args)
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
            exc.params["candidates"] = names
            problem = (  # the names offered as the chat's language has them, as the buttons do
                ctx.t(present.rules_key(exc), **exc.params)
                if names
                else present.rules_problem(exc, load_variant(variants[0]), ctx.lang)
            )
            raise UserError(
                "piece.not_found", buttons=piece_buttons(names), problem=problem, sheets=sheets
            ) from None
        best = matches[0]  # best first: an unpromoted piece before a promoted one of that name
        fitting = list(
            dict.fromkeys(m.piece.name for m in matches if m.variant_id == best.variant_id)
        )
        if len(fitting) > 1:  # two pieces fit ("swallow": Swallow's Wings, Gliding Swallow): ask
            names = local_names(fitting, (best.variant_id,), ctx.lang)
            raise UserError(
                "piece.which",
                buttons=piece_buttons(names),
                query=query,
                names=names,
                sheets=f"/cheatsheet {best.variant_id}",
            )
        return await self.piece_reply(ctx, best.variant_id, best.piece.kind)

    async def piece_reply(self, ctx: Context, variant_id: str, kind: int) -> Reply:
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
        data = await self.pictures.draw(render_piece, variant, kind, DEFAULT_THEME, words)
        image = Attachment(data, f"{variant_id}-{name}.png", "image/png")
        return Reply(caption, image=image)
