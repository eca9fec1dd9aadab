"""The USI protocol over text streams: Komabot's engine for shogi GUIs and other programs.

One thread reads commands; ``go`` starts the search in a second thread, so ``stop``,
``isready`` and ``quit`` are answered while it thinks.  A command that cannot be understood,
or a ``position`` with a bad SFEN or an illegal move, gets one ``info string error: ...`` line
saying what was wrong and what is expected; the current position stays as it was.

For Wa Shogi the SFEN and the moves are the 11x11 forms (``11k11j``, two-digit empty runs).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from engine.api import Engine, Result
from engine.clock import Clock, move_budget_ms
from engine.levels import HIGHEST, LOWEST
from engine.scores import mate_plies
from engine.search import Limits, Progress
from rules import Position, RulesError, Variant, load_variant

ENGINE_NAME = "Komabot"
ENGINE_AUTHOR = "the Komabot contributors"
DEFAULT_HASH_MB = 32
MAX_HASH_MB = 1024
DEFAULT_OVERHEAD_MS = 100
MAX_OVERHEAD_MS = 10_000
COMMANDS = (
    "usi",
    "isready",
    "setoption",
    "usinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "gameover",
    "quit",
)
GO_NUMBERS = ("btime", "wtime", "binc", "winc", "byoyomi", "movetime", "depth", "nodes")


class UsiError(ValueError):
    """A command that cannot be carried out; the message says what is expected."""


@dataclass(frozen=True)
class Option:
    name: str
    kind: str  # "spin" or "check"
    default: int | bool
    low: int = 0
    high: int = 0

    def declaration(self) -> str:
        if self.kind == "check":
            return f"option name {self.name} type check default {str(self.default).lower()}"
        return (
            f"option name {self.name} type spin default {int(self.default)} "
            f"min {self.low} max {self.high}"
        )

    def parse(self, text: str) -> int | bool:
        if self.kind == "check":
            if text.lower() not in ("true", "false"):
                raise UsiError(f"option {self.name} takes true or false, not {text!r}")
            return text.lower() == "true"
        try:
            value = int(text)
        except ValueError:
            raise UsiError(
                f"option {self.name} takes a whole number from {self.low} to {self.high}, "
                f"not {text!r}"
            ) from None
        if not self.low <= value <= self.high:
            raise UsiError(
                f"option {self.name} takes a whole number from {self.low} to {self.high}, "
                f"not {value}"
            )
        return value


OPTIONS = (
    Option("Level", "spin", HIGHEST, LOWEST, HIGHEST),
    Option("USI_Hash", "spin", DEFAULT_HASH_MB, 1, MAX_HASH_MB),
    Option("MoveOverhead", "spin", DEFAULT_OVERHEAD_MS, 0, MAX_OVERHEAD_MS),
    Option("AllowResign", "check", True),
)
IGNORED_OPTIONS = ("USI_Ponder",)  # GUIs send it whether or not it is declared


@dataclass(frozen=True)
class GoCommand:
    clock: Clock
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False
    ponder: bool = False


def parse_go(tokens: list[str]) -> GoCommand:
    """The parameters of ``go``; raises UsiError naming the bad one."""
    numbers: dict[str, int] = {}
    infinite = ponder = False
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word == "infinite":
            infinite = True
        elif word == "ponder":
            ponder = True
        elif word in GO_NUMBERS:
            if i + 1 >= len(tokens):
                raise UsiError(f"go: {word} needs a number after it")
            text = tokens[i + 1]
            if not text.lstrip("-").isdigit() or len(text) > 12:
                raise UsiError(f"go: {word} takes a whole number of milliseconds, not {text!r}")
            numbers[word] = int(text)
            i += 1
        elif word == "mate":
            raise UsiError("go mate (a tsume search) is not supported; use go with a time")
        else:
            raise UsiError(
                f"go: unknown parameter {word!r} (expected btime, wtime, binc, winc, byoyomi, "
                "movetime, depth, nodes, infinite or ponder)"
            )
        i += 1
    for key in ("depth", "nodes"):
        if key in numbers and numbers[key] < 1:
            raise UsiError(f"go: {key} must be at least 1")
    clock = Clock(
        btime=numbers.get("btime"),
        wtime=numbers.get("wtime"),
        binc=max(0, numbers.get("binc", 0)),
        winc=max(0, numbers.get("winc", 0)),
        byoyomi=max(0, numbers.get("byoyomi", 0)),
        movetime=numbers.get("movetime"),
    )
    return GoCommand(clock, numbers.get("depth"), numbers.get("nodes"), infinite, ponder)


def parse_position(variant: Variant, tokens: list[str]) -> Position:
    """``startpos [moves ...]`` or ``sfen <board> <side> <hand> [<number>] [moves ...]``
    as a new Position; raises UsiError saying what is wrong (nothing half applied)."""
    expected = "expected: position startpos [moves ...] or position sfen <sfen> [moves ...]"
    if not tokens:
        raise UsiError(f"position: nothing after 'position' ({expected})")
    if "moves" in tokens:
        cut = tokens.index("moves")
        setup, moves = tokens[:cut], tokens[cut + 1 :]
    else:
        setup, moves = tokens, []
    if setup == ["startpos"]:
        sfen = variant.start_sfen
    elif setup and setup[0] == "sfen":
        sfen = " ".join(setup[1:])
        if not sfen:
            raise UsiError(f"position: 'sfen' needs the SFEN after it ({expected})")
    else:
        raise UsiError(f"position: cannot read {' '.join(setup)!r} ({expected})")
    try:
        pos = Position.from_sfen(variant, sfen)
    except RulesError as exc:
        raise UsiError(f"position: {exc} (for {variant.id})") from None
    for number, text in enumerate(moves, start=1):
        try:
            pos.push_usi(text)
        except RulesError as exc:
            raise UsiError(
                f"position: move {number} ({text}) cannot be played: {exc}; "
                "the position is unchanged"
            ) from None
    return pos


def info_line(progress: Progress, pos: Position) -> str:
    """``info depth ... score ... pv ...`` for one finished iteration."""
    plies = mate_plies(progress.score)
    score = f"mate {plies}" if plies is not None else f"cp {progress.score}"
    line = (
        f"info depth {progress.depth} seldepth {progress.seldepth} score {score} "
        f"nodes {progress.nodes} nps {progress.nps} time {progress.time_ms}"
    )
    probe = pos.copy()
    moves = []
    for move in progress.pv:
        if move not in probe.legal_moves():
            break
        moves.append(probe.usi(move))
        probe.make_unchecked(move)
    return line + (" pv " + " ".join(moves) if moves else "")


class UsiSession:
    """One USI conversation: call :meth:`handle` with each line; it returns False on quit."""

    def __init__(self, variant_id: str, send: Callable[[str], None]) -> None:
        self.variant = load_variant(variant_id)
        self._send_raw = send
        self._out_lock = threading.Lock()
        self.options: dict[str, int | bool] = {o.name: o.default for o in OPTIONS}
        self.engine = Engine(self.variant, int(self.options["USI_Hash"]))
        self.position = Position.start(self.variant)
        self.past_scores: list[int] = []
        self._thread: threading.Thread | None = None
        self._answered = threading.Event()
        self._answered.set()
        self._stop = threading.Event()
        self._release = threading.Event()  # lets an infinite or ponder search answer
        self._ponder_timer: threading.Timer | None = None
        self._pending_budget: int | None = None

    # --- output --------------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self._out_lock:
            self._send_raw(line)

    def error(self, message: str) -> None:
        self.send(f"info string error: {message}")

    # --- commands ------------------------------------------------------------------------

    @property
    def searching(self) -> bool:
        """A search runs and has not answered yet (once its bestmove is sent, the next
        ``go`` is welcome even while the thread winds down)."""
        return not self._answered.is_set()

    def handle(self, line: str) -> bool:
        """Carry out one command line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        try:
            if command == "quit":
                self.finish()
                return False
            handler = getattr(self, f"cmd_{command}", None) if command in COMMANDS else None
            if handler is None:
                raise UsiError(
                    f"unknown command {command[:40]!r} (expected one of {', '.join(COMMANDS)})"
                )
            handler(args)
        except UsiError as exc:
            self.error(str(exc))
        except Exception as exc:  # a bug must not end the conversation
            self.error(f"internal error on {command[:40]!r}: {type(exc).__name__}: {exc}")
        return True

    def cmd_usi(self, args: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME} ({self.variant.id})")
        self.send(f"id author {ENGINE_AUTHOR}")
        for option in OPTIONS:
            self.send(option.declaration())
        self.send("usiok")

    def cmd_isready(self, args: list[str]) -> None:
        self.send("readyok")

    def cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            raise UsiError("setoption: expected setoption name <name> [value <value>]")
        if "value" in args:
            cut = args.index("value")
            name, value = " ".join(args[1:cut]), " ".join(args[cut + 1 :])
        else:
            name, value = " ".join(args[1:]), ""
        if name in IGNORED_OPTIONS:
            return
        option = next((o for o in OPTIONS if o.name.lower() == name.lower()), None)
        if option is None:
            known = ", ".join(o.name for o in OPTIONS)
            raise UsiError(f"setoption: unknown option {name[:40]!r} (known: {known})")
        if self.searching:
            raise UsiError("setoption: not while searching; send stop first")
        parsed = option.parse(value)
        self.options[option.name] = parsed
        if option.name == "USI_Hash":
            self.engine.set_hash(int(parsed))

    def cmd_usinewgame(self, args: list[str]) -> None:
        self._halt()
        self.engine.new_game()
        self.past_scores = []

    def cmd_gameover(self, args: list[str]) -> None:
        self._halt()
        self.past_scores = []

    def cmd_position(self, args: list[str]) -> None:
        self.position = parse_position(self.variant, args)

    def cmd_go(self, args: list[str]) -> None:
        if self.searching:
            raise UsiError("go: already searching; send stop first")
        go = parse_go(args)
        pos = self.position.copy()
        budget = move_budget_ms(go.clock, pos.side, int(self.options["MoveOverhead"]))
        waits = go.infinite or go.ponder
        self._pending_budget = budget if go.ponder else None
        limits = Limits(
            movetime_ms=None if waits else budget,
            nodes=go.nodes,
            depth=go.depth,
            infinite=waits,
        )
        self._join()  # the previous search's thread, done but for returning
        self._stop = threading.Event()
        self._release = threading.Event()
        self._answered = threading.Event()
        if not waits:
            self._release.set()
        self._thread = threading.Thread(
            target=self._think,
            args=(pos, limits, self._stop, self._release, self._answered),
            name="usi-search",
            daemon=True,
        )
        self._thread.start()

    def cmd_stop(self, args: list[str]) -> None:
        if self.searching:
            self._stop.set()
            self._release.set()
            self._join()

    def cmd_ponderhit(self, args: list[str]) -> None:
        """The move pondered on was played: now search on the clock of the ``go ponder``."""
        if not self.searching:
            return
        self._release.set()
        budget = self._pending_budget
        if budget is None:
            self._stop.set()
            return
        timer = threading.Timer(budget / 1000, self._stop.set)
        timer.daemon = True
        self._ponder_timer = timer
        timer.start()

    # --- the search thread ----------------------------------------------------------------

    def _think(
        self,
        pos: Position,
        limits: Limits,
        stop: threading.Event,
        release: threading.Event,
        answered: threading.Event,
    ) -> None:
        try:
            result = self.engine.think(
                pos,
                level=int(self.options["Level"]),
                limits=limits,
                seed=random.randrange(1 << 30),
                past_scores=self.past_scores,
                stop=stop,
                on_progress=lambda p: self.send(info_line(p, pos)),
            )
            line = self._bestmove(result)
        except Exception as exc:  # report, never leave the GUI waiting for a bestmove
            self.error(f"search failed: {type(exc).__name__}: {exc}")
            moves = pos.legal_moves()
            line = f"bestmove {pos.usi(moves[0]) if moves else 'resign'}"
        release.wait()  # infinite and ponder searches answer only when told
        answered.set()
        self.send(line)

    def _bestmove(self, result: Result) -> str:
        if result.best_move is None:
            return "bestmove resign"
        if result.declare_win:
            return "bestmove win"
        self.past_scores.append(result.score)
        if result.resign and self.options["AllowResign"]:
            return "bestmove resign"
        return f"bestmove {result.best_move}"

    def _join(self) -> None:
        if self._thread is not None:
            self._thread.join()
        if self._ponder_timer is not None:
            self._ponder_timer.cancel()
            self._ponder_timer = None

    def _halt(self) -> None:
        """Stop a search in progress (its bestmove is still sent)."""
        if self.searching:
            self._stop.set()
            self._release.set()
            self._join()

    def finish(self) -> None:
        self._halt()


def run(variant_id: str, inp: TextIO, out: TextIO) -> int:
    """Speak USI on ``inp``/``out`` until ``quit`` or the end of the input; exit code 0."""

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    session = UsiSession(variant_id, write)
    while True:
        line = inp.readline()
        if not line:
            session.finish()
            return 0
        if not session.handle(line):
            return 0
