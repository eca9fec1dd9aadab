"""Moves, squares, pieces and variants as a chat writes them, and why a move was refused."""

from __future__ import annotations

import logging

from bot.core.messages import CATALOGUE, listing, text
from rules import SENTE, Move, Position, RulesError, Variant, load_variant, notation
from rules.notation.squares import japanese_square

log = logging.getLogger("komabot.present")


def parse_move(pos: Position, move_text: str) -> Move:
    """A legal move from text in any notation; raises the rules errors otherwise."""
    return notation.parse_move(pos, move_text)


def format_move(pos_before: Position, move: Move, style: str) -> str:
    """``move`` (legal in ``pos_before``) in the chat's notation."""
    return notation.format_move(pos_before, move, style)


def variant_name(variant_id: str, lang: str = "en") -> str:
    v = load_variant(variant_id)
    return v.names.get(lang) or v.names["en"]


def piece_name(pos: Position, letter: str, lang: str = "en") -> str:
    """The name in ``lang`` of the piece with SFEN ``letter`` (the letter if unknown)."""
    piece = pos.variant.by_letter.get(letter)
    if piece is None:
        return letter
    return piece.names.get(lang) or piece.name.lower()


def or_list(items: list[str], lang: str) -> str:
    """``a``, ``a or b``, ``a, b or c`` in ``lang``."""
    if len(items) < 2:
        return "".join(items)
    return text("describe.list", lang).join(items[:-1]) + text("describe.or", lang) + items[-1]


def rules_problem(
    exc: RulesError, where: Position | Variant, lang: str = "en", notation: str = "western"
) -> str:
    """Why a move, a square or a piece name was refused, in ``lang``: the catalogue's
    ``rules.<code>`` with the error's facts (pieces by their names in ``lang``, squares as the
    chat's ``notation`` writes them), and, for an unreadable move, examples of moves that are
    legal now; English replies use the rules core's own message, which the English templates
    mirror."""
    message = rules_key(exc)
    if lang == "en" or message not in CATALOGUE.get(lang, {}):
        return exc.message
    variant = where.variant if isinstance(where, Position) else where
    params = dict(exc.params)

    def name(letter: object) -> str:
        piece = variant.by_letter.get(str(letter))
        return piece.names.get(lang) or piece.name.lower() if piece else str(letter)

    for key in ("piece", "blocker_piece"):
        if key in params:
            params[key] = name(params[key])
    if notation == "japanese":  # ８二 for 8b; what the player wrote stays as written
        for key in SQUARE_FACTS:
            if isinstance(params.get(key), str):
                params[key] = japanese_name(variant, params[key])
            elif isinstance(params.get(key), list):
                params[key] = [japanese_name(variant, str(s)) for s in params[key]]
    for key in ("side", "blocker_side"):
        if key in params:
            params[key] = color_name(int(params[key]), lang)
    if "kinds" in params:
        params["kinds"] = or_list([name(k) for k in params["kinds"]], lang)
    for key in ("attackers", "candidates"):
        if key in params:
            params[key] = listing(list(params[key]), lang)
    for key in ("texts", "origins"):
        if key in params:
            params[key] = or_list([str(t) for t in params[key]], lang)
    if "variant_id" in params:
        params["variant"] = variant_name(str(params.pop("variant_id")), lang)
    try:
        problem = CATALOGUE[lang][message].format(**params)
    except (KeyError, IndexError):  # facts missing: the English message still says why
        log.error("rules.%s lacks a fact in %s: %s", exc.code, lang, sorted(params))
        return exc.message
    examples = exc.params.get("examples")
    if isinstance(examples, dict) and examples:
        problem += text("rules.examples", lang, **{k: examples[k] for k in EXAMPLE_STYLES})
        if "drop" in examples:
            problem += text("rules.examples.drop", lang, drop=examples["drop"])
    return problem


EXAMPLE_STYLES = ("usi", "western", "japanese")
SQUARE_FACTS = ("square", "origin", "blocker", "king", "other", "attackers", "origins")


def square_name(variant: Variant, sq: int, notation: str) -> str:
    """Square ``sq`` as the chat's notation writes it: ``８二`` in Japanese, else ``8b``."""
    if notation == "japanese":
        return japanese_square(variant, sq)
    return variant.tables.square_names[sq]


def japanese_name(variant: Variant, square: str) -> str:
    """A square's Japanese name (``８二``); anything that is not a square name as it was."""
    sq = variant.tables.square_index.get(square)
    return japanese_square(variant, sq) if sq is not None else square


def rules_key(exc: RulesError) -> str:
    """The catalogue key of a rules error: ``rules.<code>.<reason>`` when the error names the
    particular reason within its code (``malformed_move``: ``drop_with_origin``...), else
    ``rules.<code>``."""
    reason = exc.params.get("reason")
    return f"rules.{exc.code}.{reason}" if reason else f"rules.{exc.code}"


def color_name(color: int, lang: str = "en") -> str:
    return text("color.sente" if color == SENTE else "color.gote", lang)
