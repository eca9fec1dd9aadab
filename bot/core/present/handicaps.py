"""Handicaps as a chat names them: a game's handicap (read from its start position) and its
name in the chat's language, with the Japanese name players know it by."""

from __future__ import annotations

from bot.core.messages import text
from bot.core.present.moves import variant_name
from rules import load_variant
from rules.handicaps import Handicap


def handicap_of(variant_id: str, start_sfen: str) -> Handicap | None:
    """The handicap of ``variant_id`` whose start position is ``start_sfen``, or None."""
    for handicap in load_variant(variant_id).handicaps.values():
        if handicap.sfen == start_sfen:
            return handicap
    return None


def handicap_name(variant_id: str, handicap_id: str, lang: str = "en") -> str:
    """``Rook (飛車落ち)``: the handicap's name in ``lang``, and in Japanese after it."""
    names = load_variant(variant_id).handicaps[handicap_id].names
    name = names.get(lang) or names["en"]
    japanese = names.get("ja")
    return name if lang == "ja" or not japanese else f"{name} ({japanese})"


def game_variant_name(variant_id: str, start_sfen: str, lang: str = "en") -> str:
    """The variant of a game, with its handicap when it starts from one."""
    handicap = handicap_of(variant_id, start_sfen)
    if handicap is None:
        return variant_name(variant_id, lang)
    return text(
        "game.variant_handicap",
        lang,
        variant=variant_name(variant_id, lang),
        handicap=handicap_name(variant_id, handicap.id, lang),
    )
