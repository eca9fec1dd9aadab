"""How rating changes and results read from one player's side (``/rating``, ``/history``, the
lines under a finished game)."""

from __future__ import annotations

from bot.core.messages import text
from bot.glicko2 import Rating, shown
from bot.store.models import GameRow, PuzzleOutcome, RatingChange


def change_line(changes: list[RatingChange], names: tuple[str, str], lang: str) -> str:
    """``Ratings: Alice 1500? → 1662? (+162), Bob …`` for a finished game (sente first)."""
    parts = [
        text("rating.change", lang, name=name, **change_words(change))
        for change, name in zip(changes, names, strict=False)
    ]
    return text("rating.changes", lang, changes=parts)


def change_words(change: RatingChange | PuzzleOutcome) -> dict[str, str]:
    """``before``, ``after`` and ``delta`` (``+162``) of one rating change (a game's, a
    puzzle's), as shown."""
    before = Rating(change.rating_before, change.deviation_before)
    after = Rating(change.rating_after, change.deviation_after)
    delta = round(after.rating) - round(before.rating)
    return {"before": shown(before), "after": shown(after), "delta": f"{delta:+d}"}


def score_of(game: GameRow, player: str) -> float | None:
    """1 for ``player``'s win, 0.5 for a draw, 0 for a loss; None for an aborted game."""
    if game.termination == "aborted":
        return None
    if game.winner is None:
        return 0.5
    return 1.0 if (game.winner == 0) == (game.sente == player) else 0.0
