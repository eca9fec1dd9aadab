"""An asyncio client for an external USI engine, started once and reused.

Configuration, from the environment (see :meth:`EngineSpec.from_env`):

- ``KOMABOT_USI_ENGINE``: the engine's command line, split like a shell does
  (``/opt/yaneuraou/YaneuraOu``, ``komabot usi --variant wa``).  A variant may have its own:
  ``KOMABOT_USI_ENGINE_<VARIANT>`` with the id in upper case and ``-`` as ``_``
  (``KOMABOT_USI_ENGINE_WA_DROPS``); it wins over the general one.
- ``KOMABOT_USI_OPTIONS``: ``setoption`` pairs sent after ``usi``, as ``Name=Value`` items
  separated by ``;`` (``USI_Hash=256;Threads=1``); a value may contain ``=`` but not ``;``.
  Per variant: ``KOMABOT_USI_OPTIONS_<VARIANT>``, sent after the general ones.
- ``KOMABOT_USI_TIMEOUT``: seconds to wait for ``usiok``/``readyok``, and beyond the move
  time for ``bestmove`` (default 10).

An engine that exits, closes its output or does not answer in time is killed and started
again, and the request is tried once more; a second failure raises :class:`UsiEngineError`.
:meth:`UsiClient.play` checks the answer with the rules core: an illegal move is an error too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType

from engine.api import position_after
from rules import RulesError, load_variant

ENGINE_VARIABLE = "KOMABOT_USI_ENGINE"
OPTIONS_VARIABLE = "KOMABOT_USI_OPTIONS"
TIMEOUT_VARIABLE = "KOMABOT_USI_TIMEOUT"
DEFAULT_TIMEOUT = 10.0
UNTIMED_MOVE_SECONDS = 60.0  # a go with only nodes or depth: how long before giving up
ATTEMPTS = 2  # the request, and one retry with a fresh engine


class UsiEngineError(RuntimeError):
    """The external engine failed twice, or answered something unusable."""


def parse_options(text: str) -> tuple[tuple[str, str], ...]:
    """``"USI_Hash=256; Threads=1"`` as ``(("USI_Hash", "256"), ("Threads", "1"))``; empty
    items are skipped; an item without ``=`` or with an empty name raises ValueError."""
    out = []
    for item in text.split(";"):
        item = item.strip()
        if not item:
            continue
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise ValueError(f"{OPTIONS_VARIABLE}: {item!r} is not Name=Value")
        out.append((name.strip(), value.strip()))
    return tuple(out)


def _variant_suffix(variant_id: str) -> str:
    return variant_id.upper().replace("-", "_")


@dataclass(frozen=True)
class EngineSpec:
    """How to start and talk to one external engine."""

    command: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_env(
        cls, variant_id: str | None = None, environ: Mapping[str, str] | None = None
    ) -> EngineSpec | None:
        """The engine configured for ``variant_id`` (or in general), None when none is."""
        env = os.environ if environ is None else environ
        suffix = f"_{_variant_suffix(variant_id)}" if variant_id else ""
        command_text = (suffix and env.get(ENGINE_VARIABLE + suffix)) or env.get(ENGINE_VARIABLE)
        if not command_text or not command_text.strip():
            return None
        command = tuple(shlex.split(command_text))
        options = parse_options(env.get(OPTIONS_VARIABLE, ""))
        if suffix:
            options += parse_options(env.get(OPTIONS_VARIABLE + suffix, ""))
        timeout_text = env.get(TIMEOUT_VARIABLE, "").strip()
        timeout = DEFAULT_TIMEOUT
        if timeout_text:
            try:
                timeout = float(timeout_text)
            except ValueError:
                raise ValueError(f"{TIMEOUT_VARIABLE}: {timeout_text!r} is not seconds") from None
            if not 0 < timeout <= 3600:
                raise ValueError(f"{TIMEOUT_VARIABLE}: {timeout_text!r} is not 0-3600 seconds")
        return cls(command, options, timeout)


@dataclass(frozen=True)
class EngineReply:
    """``bestmove`` as the engine said it: a USI move, ``resign`` or ``win``; the last
    ``info`` line before it (empty if none); ``restarts``: engines started again for it."""

    bestmove: str
    ponder: str | None
    info: str
    restarts: int

    @property
    def resigns(self) -> bool:
        return self.bestmove == "resign"

    @property
    def declares_win(self) -> bool:
        return self.bestmove == "win"


class _Failure(Exception):
    """This engine process is unusable (exited, hung, talked nonsense)."""


class UsiClient:
    """One external engine process, started on first use and reused; one request at a time
    (requests wait their turn)."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self._game: str | None = None
        self.name = ""
        self.starts = 0

    async def __aenter__(self) -> UsiClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    # --- requests ------------------------------------------------------------------------

    async def bestmove(
        self,
        sfen: str,
        moves: Sequence[str] = (),
        *,
        movetime_ms: int | None = None,
        nodes: int | None = None,
        depth: int | None = None,
        game: str | None = None,
    ) -> EngineReply:
        """The engine's ``bestmove`` for the position (``sfen`` or ``startpos``, then USI
        ``moves``); ``game`` names the game so that a new one gets ``usinewgame``.  Not
        checked against the rules: see :meth:`play`."""
        go = ["go"]
        if movetime_ms is not None:
            go += ["movetime", str(movetime_ms)]
        if nodes is not None:
            go += ["nodes", str(nodes)]
        if depth is not None:
            go += ["depth", str(depth)]
        if len(go) == 1:
            raise ValueError("give movetime_ms, nodes or depth")
        seconds = (
            movetime_ms / 1000 + self.spec.timeout
            if movetime_ms is not None
            else UNTIMED_MOVE_SECONDS
        )
        setup = "startpos" if sfen.strip() == "startpos" else f"sfen {sfen.strip()}"
        position = f"position {setup}" + (" moves " + " ".join(moves) if moves else "")
        async with self._lock:
            restarts = 0
            for attempt in range(ATTEMPTS):
                try:
                    if self._process is None:
                        await self._start()
                        if attempt:
                            restarts += 1
                    if game is None or game != self._game:
                        await self._send("usinewgame")
                        self._game = game
                    await self._send(position)
                    await self._send(" ".join(go))
                    bestmove, ponder, info = await self._await_bestmove(seconds)
                    return EngineReply(bestmove, ponder, info, restarts)
                except _Failure as exc:
                    await self._kill()
                    if attempt + 1 == ATTEMPTS:
                        raise UsiEngineError(
                            f"USI engine {shlex.join(self.spec.command)!r} failed twice: {exc}"
                        ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def play(
        self,
        variant_id: str,
        sfen: str,
        moves: Sequence[str] = (),
        *,
        movetime_ms: int | None = None,
        nodes: int | None = None,
        depth: int | None = None,
        game: str | None = None,
    ) -> EngineReply:
        """:meth:`bestmove`, checked: a move must be legal in the position (``resign`` and
        ``win`` pass through); raises UsiEngineError when it is not, RulesError when the
        position itself is bad."""
        pos = position_after(load_variant(variant_id), sfen, moves)
        reply = await self.bestmove(
            sfen, moves, movetime_ms=movetime_ms, nodes=nodes, depth=depth, game=game
        )
        if reply.resigns or reply.declares_win:
            return reply
        try:
            pos.parse_usi(reply.bestmove)
        except RulesError as exc:
            raise UsiEngineError(
                f"USI engine answered {reply.bestmove!r}, not a legal move in {pos.sfen()}: {exc}"
            ) from None
        return reply

    async def close(self) -> None:
        """Ask the engine to quit; kill it if it does not within a second."""
        process = self._process
        if process is None:
            return
        with contextlib.suppress(_Failure):
            await self._send("quit")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), 1.0)
        await self._kill()

    # --- the process -----------------------------------------------------------------------

    async def _start(self) -> None:
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.spec.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
            )
        except OSError as exc:
            raise _Failure(f"cannot start it: {exc}") from None
        self.starts += 1
        self._game = None
        await self._send("usi")
        while True:
            line = await self._read_line(self.spec.timeout, "usiok")
            if line.startswith("id name "):
                self.name = line[len("id name ") :]
            if line == "usiok":
                break
        for name, value in self.spec.options:
            await self._send(f"setoption name {name} value {value}")
        await self._send("isready")
        while await self._read_line(self.spec.timeout, "readyok") != "readyok":
            pass

    async def _send(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise _Failure("not running")
        try:
            process.stdin.write((line + "\n").encode())
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise _Failure(f"it stopped reading ({exc.__class__.__name__})") from None

    async def _read_line(self, seconds: float, waiting_for: str) -> str:
        process = self._process
        if process is None or process.stdout is None:
            raise _Failure("not running")
        try:
            raw = await asyncio.wait_for(process.stdout.readline(), seconds)
        except TimeoutError:
            raise _Failure(f"no {waiting_for} within {seconds:g} s") from None
        except (ValueError, asyncio.LimitOverrunError):
            raise _Failure("it wrote a line too long to read") from None
        if not raw:
            raise _Failure(f"it exited before {waiting_for}")
        return raw.decode(errors="replace").strip()

    async def _await_bestmove(self, seconds: float) -> tuple[str, str | None, str]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        info = ""
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise _Failure(f"no bestmove within {seconds:g} s")
            line = await self._read_line(left, "bestmove")
            if line.startswith("info ") and not line.startswith("info string"):
                info = line
            if line.startswith("bestmove"):
                parts = line.split()
                if len(parts) < 2:
                    raise _Failure(f"it answered {line!r}")
                ponder = parts[3] if len(parts) >= 4 and parts[2] == "ponder" else None
                return parts[1], ponder, info

    async def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with contextlib.suppress(ProcessLookupError):
            await process.wait()
