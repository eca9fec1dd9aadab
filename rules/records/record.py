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
from dataclasses import dataclass, field, replace
from datetime import datetime

from rules.errors import RulesError
from rules.move import parse_usi
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
    time_control: tuple[int, int] | None = None  # main time and byoyomi, seconds (time_control.py)
    notes: tuple[str, ...] = field(default=(), compare=False)
    """What reading changed or doubted in the file (moves after the game's end left out, a
    result the position contradicts not taken, an encoding guessed): for the reader to see."""

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


# Endings the final position alone decides (or refutes); the others (a resignation, a time-out,
# a foul, an impasse declaration) are taken as the record states them.
DECIDED_BY_POSITION = frozenset(
    {
        Termination.CHECKMATE,
        Termination.NO_LEGAL_MOVES,
        Termination.REPETITION,
        Termination.PERPETUAL_CHECK,
    }
)


def settled(record: GameRecord) -> GameRecord:
    """``record`` as the rules let it have happened, each change said in ``notes``.

    Its moves (already checked by the reader) are replayed: moves after the position where the
    rules ended the game (the same position for the fourth time) are left out, and the result
    becomes the rules' one.  A stated result that the final position contradicts (a checkmate
    that is none, a winner the mate says lost) is replaced by the rules' result, or left out
    while the game goes on.  The work is a hash look-up per move, and one full look at the
    final position."""
    variant = load_variant(record.variant)
    pos = record.start_position()
    notes = list(record.notes)
    moves = record.moves
    count = variant.repetition.count
    for ply, text in enumerate(record.moves, start=1):
        pos.make_unchecked(parse_usi(variant, text))
        if ply < len(record.moves) and pos.repetitions() >= count:
            moves = record.moves[:ply]
            left = len(record.moves) - ply
            notes.append(
                f"the game ended at move {ply}, the same position for the {count}th time; the "
                f"{left} moves after it were left out"
            )
            break
    result = record.result
    ended = pos.outcome()
    if ended is not None:
        if result is not None and result.winner != ended.winner:
            notes.append(
                f"the record says {_said(result)}, but the final position is "
                f"{_said(ended)}; that was taken instead"
            )
            result = ended
        elif result is None or (
            result.termination in DECIDED_BY_POSITION and result.termination != ended.termination
        ):
            result = ended
    elif result is not None and result.termination is Termination.PERPETUAL_CHECK:
        notes.append(
            f"the record says {_said(result)}, but the final position has not occurred "
            f"{count} times; it was taken as a foul (an illegal move)"
        )
        result = Outcome(Termination.ILLEGAL_MOVE, result.winner)
    elif result is not None and result.termination in DECIDED_BY_POSITION:
        notes.append(
            f"the record says {_said(result)}, but the final position is no such end (the "
            "game goes on there); the result was left out"
        )
        result = None
    if moves == record.moves and result == record.result and len(notes) == len(record.notes):
        return record
    return replace(record, moves=moves, result=result, notes=tuple(notes))


def _said(result: Outcome) -> str:
    words = result.termination.value.replace("_", " ")
    if result.winner is None:
        return f"{words} (a draw)" if result.termination != Termination.ABORTED else words
    return f"{words}, {WINNER_WORDS[result.winner]} winning"


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
