"""``komabot usi`` as a GUI sees it: a real subprocess speaking USI on stdin/stdout."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rules import Position, load_variant

ROOT = Path(__file__).resolve().parents[3]
# What the installed ``komabot`` script runs (``python -m bot.cli`` has no __main__).
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"


class Engine:
    """``komabot usi`` in a subprocess, its output lines read by a thread."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", ENTRY, "usi", *args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *commands: str) -> None:
        assert self.process.stdin is not None
        for command in commands:
            self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str, seconds: float = 30) -> list[str]:
        """Every line up to and including the first that starts with ``prefix``."""
        seen: list[str] = []
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} within {seconds} s; saw {seen}") from None
            assert line is not None, f"engine exited before {prefix!r}; saw {seen}"
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def finish(self, seconds: float = 10) -> int:
        code = self.process.wait(timeout=seconds)
        assert self.process.stderr is not None
        assert self.process.stderr.read() == ""  # no traceback, ever
        return code


def legal(variant: str, moves: list[str]) -> set[str]:
    pos = Position.start(load_variant(variant))
    for text in moves:
        pos.push_usi(text)
    return {pos.usi(m) for m in pos.legal_moves()}


def test_a_whole_session_with_mistakes_in_it() -> None:
    engine = Engine()
    engine.send("usi")
    hello = engine.until("usiok")
    assert hello[0] == "id name Komabot (shogi)"
    assert "option name Level type spin default 8 min 1 max 8" in hello
    engine.send("setoption name Level value 6", "isready")
    assert engine.until("readyok") == ["readyok"]
    engine.send(
        "usinewgame", "position startpos moves 7g7f 3c3d", "go btime 2000 wtime 2000 byoyomi 300"
    )
    out = engine.until("bestmove")
    assert out[-1].split()[1] in legal("shogi", ["7g7f", "3c3d"])
    assert any(line.startswith("info depth ") for line in out)
    # mistakes: each gets one error line, and the session goes on with the old position
    engine.send("position startpos moves 7g7f 7g7f")
    assert "move 2 (7g7f) cannot be played" in engine.until("info string error")[-1]
    engine.send("go sideways")
    assert "unknown parameter 'sideways'" in engine.until("info string error")[-1]
    engine.send("dance")
    assert "unknown command 'dance'" in engine.until("info string error")[-1]
    engine.send("go nodes 400")
    assert engine.until("bestmove")[-1].split()[1] in legal("shogi", ["7g7f", "3c3d"])
    engine.send("gameover win", "quit")
    assert engine.finish() == 0


def test_stop_during_infinite_and_quit_during_a_search() -> None:
    engine = Engine("--variant", "wa")
    engine.send("usi", "isready")
    engine.until("readyok")
    engine.send("position startpos moves 11i11h", "go infinite")
    time.sleep(0.8)
    engine.send("stop")
    assert engine.until("bestmove", 5)[-1].split()[1] in legal("wa", ["11i11h"])
    engine.send("go movetime 60000")
    time.sleep(0.3)
    asked = time.monotonic()
    engine.send("quit")
    assert engine.finish() == 0
    assert time.monotonic() - asked < 5


def test_the_end_of_the_input_ends_the_engine() -> None:
    engine = Engine("--variant", "wa-drops")
    engine.send("usi")
    engine.until("usiok")
    assert engine.process.stdin is not None
    engine.process.stdin.close()
    assert engine.finish() == 0


def test_an_unknown_variant_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["usi", "--variant", "chess"])
    assert stop.value.code == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err


def test_a_usi_tournament_program_plays_it_to_the_end(tmp_path: Path) -> None:
    """cshogi's match runner (an independent USI host, strict about the protocol) plays a
    whole game between two ``komabot usi`` processes and writes a CSA record of it."""
    engine = tmp_path / "komabot-usi"
    engine.write_text(f"#!/bin/sh\ncd {ROOT}\nexec {sys.executable} -c '{ENTRY}' usi\n")
    engine.chmod(0o755)
    records = tmp_path / "records"
    done = subprocess.run(
        [sys.executable, "-m", "cshogi.cli", str(engine), str(engine), "--games", "1",
         "--byoyomi", "30", "--options1", "Level:6", "--options2", "Level:2",
         "--draw", "80", "--csa", str(records)],
        capture_output=True, text=True, timeout=150, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "1 of 1 games finished." in done.stdout, done.stdout[-2000:]
    (record,) = records.glob("*.csa")
    moves = [line for line in record.read_text().splitlines() if line[:1] in "+-" and len(line) > 4]
    assert len(moves) >= 2, record.read_text()[-500:]
