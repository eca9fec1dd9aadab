"""The game record value: who played, from where, which moves, how it ended; and what every
record format needs to say how a game ended.

KIF and CSA close a game with a word about the side to move: 投了 / ``%TORYO`` (it resigned),
詰み, 切れ負け / ``%TIME_UP`` (it lost), 入玉勝ち / ``%KACHI`` (it declared and won). Readers
take the winner from that word and the turn, so a word can only be written when it names the
right winner: ``told_by_turn`` says when it can. A player may resign while it is the opponent's
turn (common in correspondence); then the writers use a turn-free ending instead (see kif.py
and csa.py), and both add the ``KOMABOT-RESULT: <termination> <winner>`` comment that Komabot's
readers prefer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from rules.errors import RulesError
from rules.outcome import Outcome, Termination
from rules.position import Position
from rules.tables import GOTE, SENTE
from rules.variant import load_variant

RESULT_TAG = "KOMABOT-RESULT:"
WINNER_WORDS = {SENTE: "sente", GOTE: "gote", None: "none"}
_WINNERS = {"sente": SENTE, "gote": GOTE, "none": None, "draw": None}
# Endings whose record word says the side to move lost, and the one that says it won.
TURN_LOSES = frozenset(
    {
        Termination.RESIGNATION,
        Termination.CHECKMATE,
        Termination.NO_LEGAL_MOVES,
        Termination.TIMEOUT,
    }
)
TURN_WINS = frozenset({Termination.IMPASSE})


class RecordError(RulesError):
    """A game record that cannot be read or written; the message names the line and problem."""

    code = "bad_record"


def at_line(no: int, code: str = "bad_record") -> Callable[[str], RecordError]:
    """What makes the RecordError for a problem on line ``no`` (for ``rules.numbers``)."""
    return lambda problem: RecordError(f"line {no}: {problem}", code=code, line=no)


@dataclass(frozen=True)
class GameRecord:
    """One game: variant id, start SFEN, USI moves, players, result (None while unfinished)."""

    variant: str
    start_sfen: str
    moves: tuple[str, ...] = ()
    sente: str = ""
    gote: str = ""
    result: Outcome | None = None  # Outcome(termination, winner: SENTE / GOTE / None)
    started: datetime | None = None
    ended: datetime | None = None
    event: str = ""
    site: str = ""

    def start_position(self) -> Position:
        return Position.from_sfen(load_variant(self.variant), self.start_sfen)

    def final_position(self) -> Position:
        """Replay every move (each checked by the rules); RecordError names the bad one."""
        pos = self.start_position()
        for ply, text in enumerate(self.moves, start=1):
            try:
                pos.push_usi(text)
            except RulesError as exc:
                raise RecordError(
                    f"move {ply} ({text}): {exc.message}", code="bad_record_move", ply=ply
                ) from None
        return pos


def same_start(pos_sfen: str, other: str) -> bool:
    """Do two SFENs describe the same position (move numbers ignored)?"""
    return pos_sfen.split()[:3] == other.split()[:3]


def loser_to_move(result: Outcome, side_to_move: int) -> bool | None:
    """Is the loser the side to move after the last move? None when nobody lost."""
    if result.winner is None:
        return None
    return result.winner != side_to_move


def told_by_turn(result: Outcome, side_to_move: int) -> bool:
    """Can the usual closing word, which speaks of the side to move, state ``result``?

    False for a resignation (or time-out) by the player who just moved, and for an impasse
    win by the player who just moved: the word would name the wrong winner.
    """
    loser_moves = loser_to_move(result, side_to_move)
    if loser_moves is None:
        return True
    if result.termination in TURN_LOSES:
        return loser_moves
    if result.termination in TURN_WINS:
        return not loser_moves
    return True  # fouls have a word for either side; draws name nobody


def result_words(result: Outcome) -> str:
    """``resignation gote``: the termination and the winner, as Komabot's comments write it."""
    return f"{result.termination.value} {WINNER_WORDS[result.winner]}"


def read_result_words(text: str, line: int | None = None) -> Outcome:
    """The Outcome of ``resignation gote`` (``result_words``); RecordError if unreadable."""
    parts = text.split()
    try:
        winner = _WINNERS[parts[1] if len(parts) > 1 else "none"]
        return Outcome(Termination(parts[0]), winner)
    except (IndexError, KeyError, ValueError):
        where = f"line {line}: " if line is not None else ""
        terms = ", ".join(t.value for t in Termination)
        raise RecordError(
            f"{where}cannot read the result {text.strip()!r} (expected a termination, one of "
            f"{terms}, then sente, gote or none)",
            line=line,
        ) from None
