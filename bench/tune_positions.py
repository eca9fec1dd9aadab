"""Positions for tuning the evaluation, labelled by a teacher engine (Fairy-Stockfish).

Each game is the teacher against itself at a fixed node budget (``go nodes``: the same game
however loaded the machine), after a few seeded random quiet plies (``bench/match.py``'s
openings), every move refereed by the rules core.  Every ``every``-th position from ply
``skip`` on is scored by the teacher at a fixed depth from a cleared hash (``usinewgame``
before each), so each label depends on its position alone.  A position is kept when the side
to move is not in check, the score is not a mate and the teacher's best move takes nothing:
a quiet position, where a static evaluation should agree with a search.

One line a position: SFEN, the teacher's score in centipawns (side to move's view), the game's
result (1, 0.5, 0 for the side to move) and the game's number, tab-separated.  Used by
``bench/tune_eval.py positions``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench.match import play_game, random_opening
from bench.match_players import LineProcess, UsiPlayer
from rules import SENTE, Position, load_variant

TEACHER_OPTIONS = (("Threads", "1"), ("USI_Hash", "16"))
LABEL_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Sample:
    sfen: str
    teacher_cp: int  # the teacher's score, side to move's view
    result: float  # the game's result for the side to move: 1, 0.5, 0
    game: int

    def line(self) -> str:
        return f"{self.sfen}\t{self.teacher_cp}\t{self.result:g}\t{self.game}"

    @classmethod
    def parse(cls, line: str) -> Sample:
        sfen, cp, result, game = line.rstrip("\n").split("\t")
        return cls(sfen, int(cp), float(result), int(game))


@dataclass(frozen=True)
class GameSpec:
    """One game to play and label (picklable, for worker processes)."""

    variant: str
    teacher: tuple[str, ...]
    game: int
    seed: int
    opening_plies: int
    play_nodes: int
    depth: int
    skip: int
    every: int
    max_plies: int


class Teacher:
    """The teacher engine, scoring one position at a time at a fixed depth."""

    def __init__(self, command: Sequence[str]) -> None:
        self.proc = LineProcess(command)
        self.name = command[0]
        deadline = time.monotonic() + LABEL_TIMEOUT_S
        self.proc.send("usi")
        while (line := self.proc.read(deadline)) != "usiok":
            if line.startswith("id name "):
                self.name = line[len("id name ") :]
        for option, value in TEACHER_OPTIONS:
            self.proc.send(f"setoption name {option} value {value}")
        self.proc.send("isready")
        while self.proc.read(deadline) != "readyok":
            pass

    def score(self, pos: Position, depth: int) -> tuple[int | None, str]:
        """The score in centipawns (None for a mate) and the best move, from a cleared hash."""
        proc = self.proc
        proc.send("usinewgame")
        proc.send(f"position sfen {pos.sfen()}")
        proc.send(f"go depth {depth}")
        deadline = time.monotonic() + LABEL_TIMEOUT_S
        score: int | None = None
        while True:
            line = proc.read(deadline)
            words = line.split()
            if words and words[0] == "info" and "score" in words:
                at = words.index("score")
                score = int(words[at + 2]) if words[at + 1] == "cp" else None
            elif words and words[0] == "bestmove":
                return score, words[1] if len(words) > 1 else "resign"

    def close(self) -> None:
        self.proc.close()


def label_game(spec: GameSpec) -> list[Sample]:
    """Play one game of the teacher against itself and label its quiet positions."""
    variant = load_variant(spec.variant)
    sente, gote = (
        UsiPlayer(f"teacher {i}", spec.teacher, TEACHER_OPTIONS, 0, spec.play_nodes) for i in (0, 1)
    )
    try:
        opening = random_opening(variant, spec.seed, spec.opening_plies)
        record = play_game(variant, sente, gote, True, opening, spec.max_plies)
    finally:
        sente.close()
        gote.close()
    if record.result is None:
        return []
    teacher = Teacher(spec.teacher)
    out = []
    try:
        pos = Position.start(variant)
        for ply, usi in enumerate(record.moves):
            if ply >= spec.skip and (ply - spec.skip) % spec.every == 0 and not pos.is_check():
                score, best = teacher.score(pos, spec.depth)
                if score is not None and best not in ("resign", "win"):
                    move = pos.parse_usi(best)
                    if move.drop or not pos.board[move.to_sq]:
                        mover = record.result if pos.side == SENTE else 1 - record.result
                        out.append(Sample(pos.sfen(), score, mover, spec.game))
            pos.push(pos.parse_usi(usi))
    finally:
        teacher.close()
    return out


def teacher_name(command: Sequence[str]) -> str:
    """The teacher's ``id name`` (its version, for the data file's header)."""
    teacher = Teacher(command)
    try:
        return teacher.name
    finally:
        teacher.close()
