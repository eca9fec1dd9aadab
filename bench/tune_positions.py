"""Positions for tuning the evaluation, labelled by a teacher engine: Fairy-Stockfish (USI)
or, for Wa, HaChu (xboard).

Each game is the teacher against itself at a fixed node budget (``go nodes``; HaChu: a fixed
depth, ``sd``: the same game however loaded the machine), after a few seeded random quiet
plies (``bench/match.py``'s openings), every move refereed by the rules core; or a game
already played (a match log's).  Every ``every``-th position from ply ``skip`` on is scored
by the teacher at a fixed depth from a cleared hash (USI: ``usinewgame`` before each; HaChu:
a fresh process given the game's moves), so each label depends on its position alone.  A
position is kept when the side to move is not in check, the score is not a mate and the
teacher's best move takes nothing: a quiet position, where a static evaluation should agree
with a search.

One line a position: SFEN, the teacher's score in centipawns (side to move's view), the game's
result (1, 0.5, 0 for the side to move) and the game's number, tab-separated.  Used by
``bench/tune_eval.py positions``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bench.match import hachu_player, play_game, random_opening
from bench.match_players import LineProcess, Player, UsiPlayer
from rules import SENTE, Move, Position, RulesError, load_variant

TEACHER_OPTIONS = (("Threads", "1"), ("USI_Hash", "16"))
LABEL_TIMEOUT_S = 120.0
# HaChu's scores from here on are taken as mates (not checked against its source; the labels
# of data/tuning/wa.tsv stay within 1,700)
HACHU_MATE = 7000


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
    protocol: str  # the teacher's: usi or xboard
    teacher: tuple[str, ...]
    game: int
    seed: int
    opening_plies: int
    play_nodes: int  # usi: the teacher's nodes a move in its games
    play_depth: int  # xboard: its depth a move
    depth: int
    skip: int
    every: int
    max_plies: int
    moves: tuple[str, ...] = ()  # a game already played (USI), labelled instead of playing
    sente_result: float = 0.5  # that game's result for sente


class Teacher(Protocol):
    """The teacher engine, scoring one position at a time at a fixed depth."""

    name: str

    def score(self, pos: Position) -> tuple[int | None, Move | None]:
        """The score in centipawns, side to move's view (None for a mate), and the best move
        (None if it resigns or its move is not legal), each label independent of the last."""
        ...

    def close(self) -> None: ...


class UsiTeacher:
    """A USI engine (Fairy-Stockfish): ``go depth`` from a cleared hash (``usinewgame``)."""

    def __init__(self, command: Sequence[str], depth: int) -> None:
        self.proc = LineProcess(command)
        self.name = command[0]
        self.depth = depth
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

    def score(self, pos: Position) -> tuple[int | None, Move | None]:
        proc = self.proc
        proc.send("usinewgame")
        proc.send(f"position sfen {pos.sfen()}")
        proc.send(f"go depth {self.depth}")
        deadline = time.monotonic() + LABEL_TIMEOUT_S
        score: int | None = None
        while True:
            line = proc.read(deadline)
            words = line.split()
            if words and words[0] == "info" and "score" in words:
                at = words.index("score")
                score = int(words[at + 2]) if words[at + 1] == "cp" else None
            elif words and words[0] == "bestmove":
                best = words[1] if len(words) > 1 else "resign"
                return score, _legal_move(pos, best, pos.parse_usi)

    def close(self) -> None:
        self.proc.close()


class XboardTeacher:
    """HaChu (xboard, Wa): ``sd`` with an untimed clock, from a fresh process for each label
    (nothing left from the label before), given the game's moves from the start.  Its score
    is the side to move's, in its own centipawns."""

    def __init__(self, command: Sequence[str], depth: int) -> None:
        self.name = _xboard_name(command)
        self.command = command
        self.depth = depth

    def score(self, pos: Position) -> tuple[int | None, Move | None]:
        engine = hachu_player("teacher", self.command, 0, self.depth)
        try:
            reply = engine.play(pos)
        finally:
            engine.close()
        score = engine.last_score
        if reply.restarts or score is None or abs(score) >= HACHU_MATE:
            return None, None
        return score, _legal_move(pos, reply.text, lambda text: engine.parse(pos, text))

    def close(self) -> None:
        pass


def _legal_move(pos: Position, text: str, parse: Callable[[str], Move]) -> Move | None:
    try:
        move = parse(text)
        pos.check_legal(move)
    except RulesError:
        return None
    return move


def _xboard_name(command: Sequence[str]) -> str:
    """An xboard engine's ``myname`` feature (its version)."""
    proc = LineProcess(command)
    try:
        deadline = time.monotonic() + LABEL_TIMEOUT_S
        proc.send("xboard")
        proc.send("protover 2")
        name = command[0]
        while True:
            line = proc.read(deadline)
            if 'myname="' in line:
                name = line.split('myname="', 1)[1].split('"', 1)[0]
            if line.startswith("feature") and "done=1" in line:
                return name
    finally:
        proc.close()


def make_teacher(protocol: str, command: Sequence[str], depth: int) -> Teacher:
    return XboardTeacher(command, depth) if protocol == "xboard" else UsiTeacher(command, depth)


def teacher_player(spec: GameSpec, index: int) -> Player:
    """The teacher playing a game: USI at ``go nodes``, xboard at a fixed depth (``sd``)."""
    name = f"teacher {index}"
    if spec.protocol == "xboard":
        return hachu_player(name, spec.teacher, 0, spec.play_depth)
    return UsiPlayer(name, spec.teacher, TEACHER_OPTIONS, 0, spec.play_nodes)


def label_game(spec: GameSpec) -> list[Sample]:
    """Play one game of the teacher against itself (or take ``spec.moves``) and label its
    quiet positions."""
    variant = load_variant(spec.variant)
    if spec.moves:
        moves, sente_result = spec.moves, spec.sente_result
    else:
        sente, gote = (teacher_player(spec, i) for i in (0, 1))
        try:
            opening = random_opening(variant, spec.seed, spec.opening_plies)
            record = play_game(variant, sente, gote, True, opening, spec.max_plies)
        finally:
            sente.close()
            gote.close()
        if record.result is None:
            return []
        moves, sente_result = tuple(record.moves), record.result
    teacher = make_teacher(spec.protocol, spec.teacher, spec.depth)
    out = []
    try:
        pos = Position.start(variant)
        for ply, usi in enumerate(moves):
            if ply >= spec.skip and (ply - spec.skip) % spec.every == 0 and not pos.is_check():
                score, best = teacher.score(pos)
                if score is not None and best is not None and not pos.board[best.to_sq]:
                    mover = sente_result if pos.side == SENTE else 1 - sente_result
                    out.append(Sample(pos.sfen(), score, mover, spec.game))
            pos.push(pos.parse_usi(usi))
    finally:
        teacher.close()
    return out


def teacher_name(protocol: str, command: Sequence[str]) -> str:
    """The teacher's name and version, for the data file's header."""
    teacher = make_teacher(protocol, command, 1)
    try:
        return teacher.name
    finally:
        teacher.close()
