#!/usr/bin/env python3
"""Export cost: peak memory and time of GIF replays of 120, 1,000 and 6,000 plies and of a
KIF record of 6,000 moves, each measured in a fresh process.

    .venv/bin/python bench/exports.py [--old-up-to 1000] [--plies 120 1000 6000]

Peak memory is the process's peak resident set (``ru_maxrss``) less what it held just before
the export began (imports, fonts, sprites, the game itself): Pillow keeps image buffers
outside Python's allocator, where tracemalloc does not see them.  References measured in the
same run, as the other benches do:

- one board image (``render_board`` of the final position): the unit a replay is made of;
- the old way, Pillow's animated-GIF writer given every frame (``save_all`` holds them all
  until the last; the code ``render.replay`` had before frames were streamed), one pass at
  full size and colours (the old code then shrank and tried again while the file was too
  big), only for games up to ``--old-up-to`` plies: at 6,000 plies it needs about 9 GB;
- for KIF, replaying the moves alone (rules only, no writing).

Targets: a GIF's extra peak memory at every length within twice the file limit (the file
being written, which the limit bounds, and its last growth) plus 20 MB (a few frames), so
the same for 6,000 plies as for 600; every GIF within the 8 MiB upload limit.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from render import render_board, render_replay
from render.board import compose_board, palette_for
from render.options import BoardOptions
from rules import Position, load_variant, move_to_usi
from rules.records import GameRecord, export_file

GIF_LIMIT = 8 * 1024 * 1024  # what /export gif allows (bot.core.handlers.export.GIF_MAX_BYTES)
TARGET_MB = 2 * GIF_LIMIT / 2**20 + 20  # the file being written, plus a few frames
KINDS = ("gif", "old-gif", "board", "kif", "replay")


def random_game(plies: int, seed: int = 1) -> list[str]:
    """A reproducible Standard Shogi game of random moves that never ends early."""
    variant = load_variant("shogi")
    rng = random.Random(seed)
    pos = Position.start(variant)
    out: list[str] = []
    while len(out) < plies:
        moves = sorted(pos.legal_moves())
        rng.shuffle(moves)
        for move in moves:
            pos.push(move)
            if pos.legal_moves():  # the other side can still move: the game goes on
                out.append(move_to_usi(variant, move))
                break
            pos.pop()
        else:
            raise RuntimeError(f"no move keeps the game going after {len(out)} plies")
    return out


def old_gif(moves: list[str], options: BoardOptions) -> bytes:
    """The replay as ``render.replay`` made it before: every frame, then Pillow's writer."""
    variant = load_variant("shogi")
    pos = Position.start(variant)
    positions = [pos.copy()]
    for text in moves:
        pos.push_usi(text)
        positions.append(pos.copy())
    palette = palette_for(variant, options)
    playing = replace(options, result="")
    last = len(positions) - 1
    frames = [
        compose_board(p, options if i == last else playing).quantize(
            palette=palette, dither=Image.Dither.NONE
        )
        for i, p in enumerate(positions)
    ]
    durations = [1000] * len(frames)
    durations[0], durations[-1] = 1500, 4000
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()


def child(kind: str, plies: int) -> dict[str, float]:
    """Measure one export in this process (called in a fresh one)."""
    moves = random_game(plies)
    variant = load_variant("shogi")
    options = BoardOptions(sente_name="Hanako", gote_name="Алексей", result="Resignation: Hanako")
    record = GameRecord("shogi", variant.start_sfen, tuple(moves), "Hanako", "Алексей")
    render_board(Position.start(variant), options)  # fonts, sprites, palette: warm

    def replay_only() -> bytes:
        pos = Position.start(variant)
        for text in moves:
            pos.push_usi(text)
        return b""

    def final_board() -> bytes:
        pos = Position.start(variant)
        for text in moves:
            pos.push_usi(text)
        return render_board(pos, options)

    work: dict[str, Callable[[], bytes]] = {
        "gif": lambda: render_replay(variant, None, moves, GIF_LIMIT, options),
        "old-gif": lambda: old_gif(moves, options),
        "board": final_board,
        "kif": lambda: export_file(record, "kif").data,
        "replay": replay_only,
    }
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    data = work[kind]()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    frames = getattr(Image.open(io.BytesIO(data)), "n_frames", 1) if data[:3] == b"GIF" else 0
    return {
        "seconds": seconds,
        "extra_mb": (peak - before) / 1024,  # ru_maxrss is in KiB on Linux
        "peak_mb": peak / 1024,
        "bytes": len(data),
        "frames": frames,
    }


def measure(kind: str, plies: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(plies)],
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(out.stdout))


def line(label: str, m: dict[str, float]) -> str:
    size = f", {m['bytes'] / 1e6:.2f} MB file" if m["bytes"] else ""
    frames = f", {m['frames']:.0f} frames" if m["frames"] else ""
    memory = f"peak RSS {m['peak_mb']:.0f} MB (+{m['extra_mb']:.0f} MB for the export)"
    return f"{label}: {m['seconds']:.2f} s, {memory}{size}{frames}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[120, 1000, 6000])
    parser.add_argument("--old-up-to", type=int, default=1000)
    parser.add_argument("--kif-moves", type=int, default=6000)
    parser.add_argument("--child", nargs=2, metavar=("KIND", "PLIES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, plies = args.child
        if kind not in KINDS:
            parser.error(f"kind must be one of {KINDS}")
        print(json.dumps(child(kind, int(plies))))
        return 0

    ok = True
    board = measure("board", min(args.plies))
    print(line("reference, one board image (PNG)", board))
    for plies in args.plies:
        new = measure("gif", plies)
        print(line(f"GIF of {plies} plies, streamed", new))
        print(
            f"  ratio to one board: time {new['seconds'] / board['seconds']:.0f}x, "
            f"memory {new['extra_mb'] / max(1.0, board['extra_mb']):.1f}x"
        )
        if plies <= args.old_up_to:
            old = measure("old-gif", plies)
            print(line(f"  reference, old way (every frame held) at {plies} plies", old))
            print(
                f"  ratio streamed / old: time {new['seconds'] / old['seconds']:.2f}, "
                f"memory {new['extra_mb'] / max(1.0, old['extra_mb']):.2f}"
            )
        ok &= new["extra_mb"] < TARGET_MB and new["bytes"] <= GIF_LIMIT
    print(f"target: a GIF's extra peak memory under {TARGET_MB:.0f} MB at any length")
    kif = measure("kif", args.kif_moves)
    rules_only = measure("replay", args.kif_moves)
    print(line(f"KIF of {args.kif_moves} moves", kif))
    print(line(f"  reference, replaying the {args.kif_moves} moves (rules only)", rules_only))
    print(f"  ratio KIF / replay: {kif['seconds'] / rules_only['seconds']:.1f}")
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
