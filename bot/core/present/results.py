"""How a game ended, in words and on its board image, and why an impasse declaration fails."""

from __future__ import annotations

from bot.core.messages import plural, text
from bot.store.models import GameRow
from rules import Termination
from rules.outcome import ImpasseReport


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
        "pieces": plural("impasse.pieces_in_zone", lang, report.pieces_in_zone),
        "pieces_needed": report.pieces_needed,
    }
    return "; ".join(text(f"impasse.unmet.{c.value}", lang, **facts) for c in report.unmet)
