"""The game record value: who played, from where, which moves, how it ended."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from rules.errors import RulesError
from rules.outcome import Outcome
from rules.position import Position
from rules.variant import load_variant


class RecordError(RulesError):
    """A game record that cannot be read or written; the message names the line and problem."""

    code = "bad_record"


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
