"""How games look to people: moves in the chat's notation, board images, times, results.

The one place where the service calls the notation (``rules.notation``) and image
(``render``) layers.
"""

from __future__ import annotations

import datetime as dt
import logging

from babel.dates import format_datetime, format_skeleton

from bot.config import format_duration as typed_duration
from bot.core.api import Attachment
from bot.core.messages import CATALOGUE, locale, plural, text
from bot.core.textboard import MarkMeaning, text_board
from bot.store.models import ChatSettings, GameRow
from render import BoardOptions, Coordinates, DiagramWords, Labels, render_board
from rules import (
    GOTE,
    SENTE,
    Move,
    Position,
    RulesError,
    Termination,
    Variant,
    load_variant,
    notation,
)
from rules.notation.squares import japanese_square
from rules.outcome import ImpasseReport

log = logging.getLogger("komabot.present")


# --- moves ----------------------------------------------------------------------------------


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
            params[key] = ", ".join(str(a) for a in params[key])
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


# --- time -----------------------------------------------------------------------------------


def _units(seconds: int) -> list[tuple[str, int]]:
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    return [("d", d), ("h", h), ("m", rest // 60)]


def format_delta(seconds: float, lang: str = "en") -> str:
    """``2d 3h``, ``5h 20m``, ``12m`` (``2 дня 3 часа`` in Russian: the plural forms come from
    Babel's rules); under a minute says so."""
    s = int(max(0, seconds))
    if s < 60:
        return text("unit.less_than_minute", lang)
    shown = [plural(f"unit.{u}", lang, n) for u, n in _units(s) if n][:2]
    return " ".join(shown)


# Platforms that write a time in each reader's own language and time zone from a timestamp
# (Discord's <t:UNIX:style> markup: f a date and time, R how long from now).
TIMESTAMP_PLATFORMS = frozenset({"discord"})


def format_when(ts: float, lang: str = "en", platform: str = "") -> str:
    """An absolute time: on Discord its timestamp markup (each reader sees their own time
    zone and language), elsewhere UTC with the weekday and month as ``lang`` writes them (CLDR
    data): ``Wed, Nov 25 14:03 UTC``, ``ср, 25 нояб. 14:03 UTC``."""
    if platform in TIMESTAMP_PLATFORMS:
        return f"<t:{int(ts)}:f>"
    when = dt.datetime.fromtimestamp(ts, dt.UTC)
    day = format_skeleton("MMMEd", when, locale=locale(lang))
    return f"{day} {format_datetime(when, 'HH:mm', tzinfo=dt.UTC, locale=locale(lang))} UTC"


def format_deadline(deadline: float, now: float, lang: str = "en", platform: str = "") -> str:
    """``deadline Wed, Nov 25 14:03 UTC (in 2d 5h)``; on Discord both parts are timestamp
    markup (``<t:UNIX:f>``, ``<t:UNIX:R>``), which the client writes out and keeps current."""
    if platform in TIMESTAMP_PLATFORMS:
        relative = f"<t:{int(deadline)}:R>"
    else:
        relative = text("time.in", lang, delta=format_delta(deadline - now, lang))
    when = format_when(deadline, lang, platform)
    return text("time.deadline", lang, when=when, relative=relative)


def format_duration(seconds: int, lang: str = "en") -> str:
    """A time per move or a limit: English keeps the form commands take (``3d``, ``90m``);
    other languages write it out with their plural forms (``3 дня``)."""
    if lang == "en" or seconds % 60:
        return typed_duration(seconds)
    return " ".join(plural(f"unit.{u}", lang, n) for u, n in _units(seconds) if n)


def format_time_control(seconds: int | None, lang: str = "en") -> str:
    if not seconds:
        return text("time.none", lang)
    return text("time.per_move", lang, time=format_duration(seconds, lang))


def color_name(color: int, lang: str = "en") -> str:
    return text("color.sente" if color == SENTE else "color.gote", lang)


# --- results --------------------------------------------------------------------------------


def result_text(game: GameRow, names: tuple[str, str], lang: str = "en") -> str:
    """``alice wins by checkmate``, ``draw by fourfold repetition``, ``aborted``."""
    if game.termination is None:
        return ""
    term = Termination(game.termination)
    if term is Termination.ABORTED:
        return text("result.aborted_line", lang)
    reason = text(f"result.{term.value}", lang)
    if game.winner is None:
        return text("result.draw", lang, reason=reason)
    return text("result.wins", lang, winner=names[game.winner], reason=reason)


def result_caption(game: GameRow, names: tuple[str, str], lang: str = "en") -> str:
    """A finished game's result as its board image says it (``Checkmate: alice wins``,
    ``Draw by agreement``); empty while the game goes on."""
    if game.termination is None:
        return ""
    term = Termination(game.termination)
    winner = names[game.winner] if game.winner is not None else ""
    return text(f"board.result.{term.value}", lang, winner=winner)


def impasse_problems(report: ImpasseReport, lang: str = "en") -> str:
    """Why an impasse declaration fails, each unmet condition once with its numbers."""
    facts = {
        "points": plural("impasse.points", lang, report.points),
        "needed": report.needed,
        "pieces": report.pieces_in_zone,
        "pieces_needed": report.pieces_needed,
    }
    return "; ".join(text(f"impasse.unmet.{c.value}", lang, **facts) for c in report.unmet)


# --- boards ---------------------------------------------------------------------------------


def gote_at_bottom(pos: Position, settings: ChatSettings) -> bool:
    return settings.perspective == "mover" and pos.side == GOTE


def board_text(
    pos: Position,
    settings: ChatSettings,
    names: tuple[str, str],
    marks: frozenset[int] | None = None,
) -> str:
    """The board as text; ``marks`` are squares a piece can go to, by default the last move's
    squares are marked instead."""
    meaning: MarkMeaning = "targets"
    if marks is None:
        last = pos.last_move
        marks = frozenset(s for s in (last.from_sq, last.to_sq) if s >= 0) if last else frozenset()
        meaning = "last_move"
    return text_board(
        pos,
        gote_bottom=gote_at_bottom(pos, settings),
        names=names,
        marks=marks,
        marks_mean=meaning,
        lang=settings.language,
        coordinates=coordinates(settings),
    )


def coordinates(settings: ChatSettings) -> Coordinates:
    """How the chat's notation writes squares on a board (USI writes them as western does)."""
    return "japanese" if settings.notation == "japanese" else "western"


def board_options(
    settings: ChatSettings,
    names: tuple[str, str],
    gote_bottom: bool = False,
    highlights: tuple[int, ...] = (),
    result: str = "",
) -> BoardOptions:
    """Drawing options from the chat's settings, with the catalogue's words on the image:
    coordinates as the chat's notation writes squares (USI and western alike), ``result`` (see
    ``result_caption``) on a finished game's image."""
    lang = settings.language
    labels = Labels(
        sente=text("board.sente", lang),
        gote=text("board.gote", lang),
        move=text("board.move", lang),
        to_move=text("board.to_move", lang),
        check=text("move.check", lang),
    )
    return BoardOptions(
        perspective="gote" if gote_bottom else "sente",
        style="international" if settings.piece_style == "international" else "kanji",
        coordinates=coordinates(settings),
        highlight=highlights,
        sente_name=names[SENTE],
        gote_name=names[GOTE],
        labels=labels,
        result=result,
    )


def diagram_words(lang: str) -> DiagramWords:
    """The catalogue's words for piece diagrams and cheat sheets in ``lang``."""
    return DiagramWords(
        lang=lang,
        **{f: text(f"diagram.{f}", lang) for f in DIAGRAM_FIELDS},
    )


DIAGRAM_FIELDS = (
    "pieces_and_promotions",
    "promoted",
    "does_not_promote",
    "king",
    "one_step",
    "jump",
    "slide",
    "slide_at_most",
)


def board_image(
    pos: Position,
    settings: ChatSettings,
    names: tuple[str, str],
    highlights: tuple[int, ...] = (),
    result: str = "",
    filename: str = "board.png",
) -> Attachment:
    """The board as a PNG from the side the chat's settings say."""
    options = board_options(settings, names, gote_at_bottom(pos, settings), highlights, result)
    return Attachment(render_board(pos, options), filename, "image/png")
