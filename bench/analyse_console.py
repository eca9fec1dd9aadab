#!/usr/bin/env python3
"""/analyse end to end: a game of ``--plies`` moves typed into ``komabot console``, then
``/analyse``, timed until the graph's image and the text are printed.

The game is the built-in engine playing itself (``--nodes`` per move, repeatable), played
move by move in a real ``komabot console`` process (a fresh SQLite database and image folder
in a temporary folder) by two people, Alice and Bob, then resigned by the side to move; Bob
asks ``/analyse``.  The clock runs from the line ``@bob /analyse`` being written to the
console until its output holds both the analysis text and the path of the graph's PNG.  The
analysis runs at the console's own settings (``KOMABOT_ANALYSIS_MOVETIME_MS``, 300 ms per
position unless ``--movetime`` says otherwise), its positions in the engine's worker process.

Reference, measured in the same run: the same positions analysed in this process by the
built-in engine alone (``engine.analysis.analyse_game`` with ``BuiltinEvaluator``) at the
same budget: the floor the service cannot beat.  The ratio shows what the service adds
(the worker's start, one job per position, the database, drawing the graph).

Target (issue 28): an 80-move game (81 positions) answered in under a minute on the 2-core
build machine at the default budget.

    .venv/bin/python bench/analyse_console.py [--plies 80] [--movetime 300] [--nodes 300]
"""

from __future__ import annotations

import argparse
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.analysis import Budget, BuiltinEvaluator, analyse_game
from engine.api import position_after, think
from rules import load_variant

TARGET_SECONDS = 60.0
KOMABOT = Path(sys.executable).with_name("komabot")


def self_play(plies: int, nodes: int) -> list[str]:
    """``plies`` moves of Standard Shogi by the engine against itself (fewer if it mates)."""
    variant = load_variant("shogi")
    moves: list[str] = []
    for ply in range(plies):
        if not position_after(variant, "startpos", moves).legal_moves():
            break
        found = think("shogi", "startpos", moves, nodes=nodes, seed=ply)
        if found.best_move is None:
            break
        moves.append(found.best_move)
    return moves


def script(moves: list[str]) -> list[str]:
    """The console lines: the challenge, the moves, the resignation (the side to move)."""
    lines = ["@alice /challenge @bob shogi sente 1d", "@bob /accept"]
    lines += [f"@{('alice', 'bob')[n % 2]} /move {move} 1" for n, move in enumerate(moves)]
    lines.append(f"@{('alice', 'bob')[len(moves) % 2]} /resign yes 1")
    return lines


def pump(stream: IO[str], lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line)


def console_analysis(moves: list[str], movetime: int, folder: Path) -> tuple[float, str]:
    """Seconds from ``/analyse`` to its graph and text in a console process; the text."""
    env = dict(
        os.environ,
        KOMABOT_DB=str(folder / "komabot.sqlite3"),
        KOMABOT_CONSOLE_OUT=str(folder / "images"),
        KOMABOT_ANALYSIS_MOVETIME_MS=str(movetime),
        KOMABOT_LOG_LEVEL="WARNING",
    )
    env.pop("KOMABOT_USI_ENGINE", None)
    process = subprocess.Popen(
        [str(KOMABOT), "console", "--quiet"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=pump, args=(process.stdout, out), daemon=True).start()
    seen: list[str] = []
    try:
        for line in script(moves):
            process.stdin.write(line + "\n")
        process.stdin.flush()
        wait_for(out, seen, lambda: any("Game #1 is over" in s for s in seen), 300)
        time.sleep(1.0)  # the resignation's messages printed; the console idle
        seen.clear()
        started = time.perf_counter()
        process.stdin.write("@bob /analyse 1\n")
        process.stdin.flush()
        wait_for(out, seen, lambda: _answered(seen), 600)
        took = time.perf_counter() - started
        process.stdin.write("/quit\n")
        process.stdin.flush()
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    return took, "".join(seen)


def _answered(seen: list[str]) -> bool:
    said = "".join(seen)
    return "Analysis of game #1," in said and "analysis-1.png" in said


def wait_for(
    out: queue.Queue[str], seen: list[str], done: Callable[[], bool], timeout: float
) -> None:
    until = time.monotonic() + timeout
    while not done():
        left = until - time.monotonic()
        if left <= 0:
            raise SystemExit("the console did not answer in time:\n" + "".join(seen[-20:]))
        try:
            seen.append(out.get(timeout=min(left, 1.0)))
        except queue.Empty:
            continue


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--movetime", type=int, default=300, help="ms per position")
    parser.add_argument("--nodes", type=int, default=300, help="self-play nodes per move")
    args = parser.parse_args(argv)
    moves = self_play(args.plies, args.nodes)
    print(f"game: {len(moves)} moves of self-play at {args.nodes} nodes per move")
    with tempfile.TemporaryDirectory() as tmp:
        took, said = console_analysis(moves, args.movetime, Path(tmp))
    started = time.perf_counter()
    evaluator = BuiltinEvaluator("shogi", Budget(movetime_ms=args.movetime))
    analyse_game("shogi", "startpos", moves, evaluator)
    alone = time.perf_counter() - started
    text = said[said.index("Analysis of game #1,") :].splitlines()
    print(*[line for line in text if not line.startswith("image:")], sep="\n")
    print(
        f"/analyse in the console: {took:.1f} s for {len(moves) + 1} positions at "
        f"{args.movetime} ms; the engine alone in one process: {alone:.1f} s; "
        f"ratio {took / alone:.2f}; target under {TARGET_SECONDS:.0f} s: "
        f"{'met' if took < TARGET_SECONDS else 'NOT met'}"
    )
    return 0 if took < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
