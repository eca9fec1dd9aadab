"""Tiny scripted engines for the match runner's tests (not real engines).

``python fake_engines.py xboard MOVES [MARKER [PV]]``: an xboard engine that answers each
``go`` with one of the comma-separated MOVES (the first at ply 0 or 1, the second at ply 2 or
3); with a MARKER path it exits at its first ``go`` when the file does not exist yet (creating
it): one crash, after printing a thinking line (depth 3) whose variation starts with PV if
given.  Its thinking line reports depth 7, or N after ``sd N`` when its clock (``time``) is
at least ten minutes, and depth 1 below that (as if the clock had cut its search short).
``... usi MOVES``: a USI engine playing MOVES in turn.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    protocol, moves_text = sys.argv[1], sys.argv[2]
    marker = sys.argv[3] if len(sys.argv) > 3 else ""
    crash_pv = sys.argv[4] if len(sys.argv) > 4 else ""
    moves = [m for m in moves_text.split(",") if m]
    plies = 0  # of the game so far: the move for a ply is moves[ply // 2]
    depth_limit = 0
    clock_cs = 0
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        out = ""
        if command == "quit":
            return 0
        if protocol == "xboard":
            if command == "protover":
                out = "feature usermove=1 ping=1 done=1"
            elif command == "new":
                plies = 0
            elif command == "usermove":
                plies += 1
            elif command == "sd":
                depth_limit = int(words[1])
            elif command == "time":
                clock_cs = int(words[1])
            elif command == "ping":
                out = f"pong {words[1]}"
            elif command == "go":
                if marker and not os.path.exists(marker):
                    open(marker, "w").close()
                    if crash_pv:
                        print(f"3 10 5 120 {crash_pv}", flush=True)
                    return 3
                move = moves[plies // 2]
                plies += 1
                depth = 7 if not depth_limit else depth_limit if clock_cs >= 60_000 else 1
                out = f"{depth} 12 10 345 {move}\nmove {move}"
        elif command == "usi":
            out = "id name fake\nusiok"
        elif command == "isready":
            out = "readyok"
        elif command == "go":
            out = f"info depth 3 nodes 99 pv {moves[0]}\nbestmove {moves.pop(0)}"
        if out:
            print(out, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
