"""The engines a match plays, each in its own process: USI (Komabot, Fairy-Stockfish) and
xboard (HaChu, CrazyWa), read line by line with timeouts.

An xboard engine is kept in force mode between its moves and given the game move by move, or
(``by_setboard``) the refereed position each move.  One that crashes during a search is
treated as if its time had run out at that moment: its move is the first move of the last
principal variation it printed, when that is legal, and it is started afresh for its next
move; one that crashed before printing a legal one, or claims a result the referee does not
see, is started again and asked again with its depth capped below where it failed.  Used by
``bench/match.py``.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from engine.xboard_notation import from_xboard, to_xboard
from rules import GOTE, SENTE, Move, Position, RulesError, Variant

ROOT = Path(__file__).resolve().parent.parent
MAX_RESTARTS = 8  # crashes of one engine on one move before the game is aborted
ANSWER_SLACK_S = 15.0  # beyond the move time, how long to wait for a move
START_TIMEOUT_S = 20.0
UNTIMED_MOVE_S = 120.0  # a search limited by nodes or depth: how long before giving up
# an xboard engine limited by depth ("sd") gets this clock each move, so that time never
# stops its search first (HaChu spends a share of it: bench/match.py's HACHU_CLOCK_FACTOR)
UNTIMED_CLOCK_MS = 3_600_000


class EngineCrash(Exception):
    """The engine process exited, closed its output or did not answer in time."""


@dataclass(frozen=True)
class Reply:
    """An engine's answer: a move in its own notation, or ``resign``/``win``/``claim``."""

    text: str
    depth: int | None = None
    nodes: int | None = None
    restarts: int = 0
    capped: bool = False  # searched with a depth cap after a crash
    cut: bool = False  # the best move so far of a search cut short by a crash


class Player(Protocol):
    name: str

    def new_game(self) -> None: ...

    def play(self, pos: Position) -> Reply: ...

    def parse(self, pos: Position, text: str) -> Move: ...

    def close(self) -> None: ...


class LineProcess:
    """A child process read line by line on a thread, with timeouts."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            cwd=str(ROOT),
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        out = self.process.stdout
        assert out is not None
        for line in out:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        stdin = self.process.stdin
        try:
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise EngineCrash(f"{self.command[0]} stopped reading ({exc})") from None

    def read(self, deadline: float) -> str:
        left = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, left))
        except queue.Empty:
            raise EngineCrash(f"{self.command[0]} did not answer in time") from None
        if line is None:
            raise EngineCrash(f"{self.command[0]} exited (code {self.process.poll()})")
        return line

    def close(self) -> None:
        with contextlib.suppress(EngineCrash):
            self.send("quit")
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _info_numbers(line: str) -> tuple[int | None, int | None]:
    """Depth and nodes of a USI ``info`` line."""
    words = line.split()
    depth = nodes = None
    for key, value in itertools.pairwise(words):
        if key == "depth" and value.isdigit():
            depth = int(value)
        elif key == "nodes" and value.isdigit():
            nodes = int(value)
    return depth, nodes


class UsiPlayer:
    """A USI engine; the position is sent whole with each ``go``."""

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        options: Sequence[tuple[str, str]],
        movetime_ms: int,
        nodes: int = 0,
    ) -> None:
        self.name = name
        self.command = command
        self.options = options
        self.movetime_ms = movetime_ms
        self.nodes = nodes  # when set, "go nodes": the same search however loaded the machine
        self.proc: LineProcess | None = None

    def _start(self) -> LineProcess:
        proc = LineProcess(self.command)
        deadline = time.monotonic() + START_TIMEOUT_S
        proc.send("usi")
        while proc.read(deadline) != "usiok":
            pass
        for option, value in self.options:
            proc.send(f"setoption name {option} value {value}")
        proc.send("isready")
        while proc.read(deadline) != "readyok":
            pass
        return proc

    def new_game(self) -> None:
        if self.proc is None:
            self.proc = self._start()
        self.proc.send("usinewgame")

    def play(self, pos: Position) -> Reply:
        if self.proc is None:
            self.proc = self._start()
        proc = self.proc
        moves = [pos.usi(m) for m in pos.move_stack]
        proc.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        proc.send(f"go nodes {self.nodes}" if self.nodes else f"go movetime {self.movetime_ms}")
        budget_s = UNTIMED_MOVE_S if self.nodes else self.movetime_ms / 1000
        deadline = time.monotonic() + budget_s + ANSWER_SLACK_S
        depth = nodes = None
        while True:
            line = proc.read(deadline)
            if line.startswith("info ") and " depth " in f" {line} ":
                d, n = _info_numbers(line)
                depth, nodes = d or depth, n or nodes
            elif line.startswith("bestmove"):
                parts = line.split()
                text = parts[1] if len(parts) > 1 else "resign"
                return Reply(text, depth, nodes)

    def parse(self, pos: Position, text: str) -> Move:
        return pos.parse_usi(text)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None


def demoted_twins(variant: Variant) -> dict[int, int]:
    """Unpromoted kinds that move like another kind's promoted form, to that other kind
    (Wa: Swallow's Wings to Flying Goose, Treacherous Fox to Running Rabbit...): how CrazyWa
    puts them in hand when captured.  Pawns' promoted forms are left out."""
    twins = {}
    for piece in variant.pieces:
        if piece.promoted or piece.royal:
            continue
        bases = {
            p.base
            for p in variant.pieces
            if p.promoted and p.betza == piece.betza and variant.piece(p.base).letter != "P"
        }
        if len(bases) == 1:
            twins[piece.kind] = bases.pop()
    return twins


def xboard_fen(pos: Position, hand_as: dict[int, int] | None = None) -> str:
    """The position as an xboard FEN: the SFEN's board (the same letters, ``+`` for promoted,
    ranks from gote's side), holdings in brackets (sente's upper case), ``w`` when sente is
    to move (xboard's first mover is white).  ``hand_as``: hand kinds written as others."""
    variant = pos.variant
    twin = hand_as or {}
    held = "".join(
        (
            variant.piece(twin.get(kind, kind)).letter
            if color == SENTE
            else variant.piece(twin.get(kind, kind)).letter.lower()
        )
        * count
        for color in (SENTE, GOTE)
        for kind, count in enumerate(pos.hands[color])
        if count
    )
    board = pos.sfen().split()[0]
    return f"{board}[{held}] {'w' if pos.side == SENTE else 'b'} 0 1"


class XboardPlayer:
    """An xboard (CECP) engine kept in force mode between its moves; after a crash it is
    started again and given the game so far."""

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        variant_name: str,
        options: Sequence[tuple[str, str]],
        movetime_ms: int,
        memory_mb: int = 64,
        by_setboard: bool = False,
        hand_as: dict[int, int] | None = None,
        clock_factor: int = 1,
        clock_margin_ms: int = 0,
        depth_limit: int = 0,
    ) -> None:
        self.name = name
        self.by_setboard = by_setboard  # send the position each move, not the moves
        self.hand_as = hand_as or {}  # hand kinds the engine knows as others
        # the clock ("time", "otim") is this many times the move time: HaChu ignores "st"
        # and spends a share of its clock on a move (bench/match.py's HACHU_CLOCK_FACTOR)
        self.clock_factor = clock_factor
        # added to the clock: CrazyWa thinks at most its clock less 30 ms
        self.clock_margin_ms = clock_margin_ms
        # when set, each search stops at this depth ("sd") with a clock too large to cut it
        # first: the same search however loaded the machine
        self.depth_limit = depth_limit
        self.command = command
        self.variant_name = variant_name
        self.options = options
        self.movetime_ms = movetime_ms
        self.memory_mb = memory_mb
        self.proc: LineProcess | None = None
        self.fed = 0  # moves of the current game the engine knows
        self.crashes = 0  # over the whole match
        self.last_depth = 0
        self.last_nodes: int | None = None
        self.last_score: int | None = None  # of the last thinking line (side to move's view)
        self.last_pv_move = ""  # the first move of the last thinking line of this search

    def _start(self) -> LineProcess:
        proc = LineProcess(self.command)
        deadline = time.monotonic() + START_TIMEOUT_S
        proc.send("xboard")
        proc.send("protover 2")
        while True:
            line = proc.read(deadline)
            if line.startswith("feature") and "done=1" in line:
                break
        return proc

    def _set_up_game(self, proc: LineProcess) -> None:
        proc.send(f"memory {self.memory_mb}")
        proc.send("new")
        proc.send(f"variant {self.variant_name}")
        for option, value in self.options:
            proc.send(f"option {option}={value}")
        proc.send(f"st {self.movetime_ms / 1000:g}")
        if self.depth_limit:
            proc.send(f"sd {self.depth_limit}")
        proc.send("easy")
        proc.send("post")
        proc.send("force")
        proc.send("ping 1")
        deadline = time.monotonic() + START_TIMEOUT_S
        while proc.read(deadline) != "pong 1":
            pass
        self.fed = 0

    def new_game(self) -> None:
        if self.proc is None:
            self.proc = self._start()
        self._set_up_game(self.proc)

    def _discard(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(OSError):
                self.proc.process.kill()
                self.proc.process.wait()
        self.proc = None

    def _restart(self) -> LineProcess:
        self._discard()
        proc = self._start()
        self._set_up_game(proc)
        self.proc = proc
        return proc

    def play(self, pos: Position) -> Reply:
        """The engine's move.  After a crash its move is the first move of the last principal
        variation it printed, if legal (as if its time had run out then).  When there is none,
        or after a result claim the referee does not see, the engine is started again, given
        the game so far and asked again with its depth capped below where it failed (the
        Debian CrazyWa crashes, or claims a false mate, at the same depth of the same search
        every time)."""
        restarts = 0
        cap = 0
        while True:
            self.last_depth = 0
            self.last_nodes = None
            self.last_score = None
            self.last_pv_move = ""
            crashed = False
            try:
                if self.proc is None:
                    self._restart()
                reply = self._play_once(pos, cap)
                if not reply.text.startswith("claim"):
                    if cap:
                        self._discard()  # the next move starts it afresh, without the cap
                    return Reply(reply.text, reply.depth, reply.nodes, restarts, cap > 0)
            except EngineCrash:
                crashed = True
            self.crashes += 1
            restarts += 1
            if crashed and self._legal(pos, self.last_pv_move):
                self._discard()  # started afresh for its next move
                return Reply(
                    self.last_pv_move, self.last_depth, self.last_nodes, restarts, cut=True
                )
            if restarts > MAX_RESTARTS:
                return Reply("crash", None, None, restarts)
            cap = max(1, min(self.last_depth, cap - 1) if cap else self.last_depth)
            with contextlib.suppress(EngineCrash):
                self._restart()

    def _legal(self, pos: Position, text: str) -> bool:
        if not text:
            return False
        try:
            self.parse(pos, text)
        except RulesError:
            return False
        return True

    def _play_once(self, pos: Position, cap: int) -> Reply:
        proc = self.proc
        assert proc is not None
        variant = pos.variant
        if self.by_setboard:
            proc.send(f"setboard {xboard_fen(pos, self.hand_as)}")
        else:
            for move in pos.move_stack[self.fed :]:
                proc.send(f"usermove {to_xboard(variant, move)}")
        self.fed = pos.ply
        if self.depth_limit:
            clock_ms = UNTIMED_CLOCK_MS
            budget_s = UNTIMED_MOVE_S
        else:
            clock_ms = self.movetime_ms * self.clock_factor + self.clock_margin_ms
            budget_s = self.movetime_ms / 1000
        centiseconds = max(1, clock_ms // 10)
        if cap:
            proc.send(f"sd {cap}")  # lifted by starting afresh: a large sd corrupts CrazyWa
        proc.send(f"time {centiseconds}")
        proc.send(f"otim {centiseconds}")
        proc.send("go")
        deadline = time.monotonic() + budget_s + ANSWER_SLACK_S
        depth = nodes = None
        while True:
            line = proc.read(deadline)
            words = line.split()
            if not words:
                continue
            if words[0] == "move" and len(words) > 1:
                proc.send("force")
                self.fed += 1
                return Reply(words[1], depth, nodes)
            if words[0] == "resign" or (len(words) > 1 and words[1] == "resign"):
                proc.send("force")
                return Reply("resign", depth, nodes)
            if words[0] in ("1-0", "0-1", "1/2-1/2"):
                return Reply("claim " + line, depth, nodes)
            if words[0].startswith("Illegal") or words[0].startswith("Error"):
                raise EngineCrash(f"{self.name} refused the game's moves: {line}")
            # thinking output: ply score time nodes pv...
            if len(words) >= 4 and all(w.lstrip("-").isdigit() for w in words[:4]):
                depth, nodes = int(words[0]), int(words[3])
                self.last_depth, self.last_nodes = depth, nodes
                self.last_score = int(words[1])
                self.last_pv_move = words[4] if len(words) > 4 else ""

    def parse(self, pos: Position, text: str) -> Move:
        move = from_xboard(pos.variant, text)
        hand = pos.hands[pos.side]
        if move.drop and not hand[move.drop]:
            # a piece it holds under another name (see hand_as)
            for kind, known_as in self.hand_as.items():
                if known_as == move.drop and hand[kind]:
                    move = Move(-1, move.to_sq, False, kind)
                    break
        pos.check_legal(move)
        return move

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None
