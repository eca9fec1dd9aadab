#!/usr/bin/env python3
"""Board rendering speed and size: warm renders of games in progress, PNG encoding included.

    .venv/bin/python bench/render.py [--renders 200] [--style kanji|international|both]
                                     [--breakdown]

For each case (Standard Shogi with its hands, Wa Shogi, Wa Shogi with drops; each style; the
drops board also from gote's side) renders the positions of a reproducible capture-happy game
one move after another from move 30 (as the bot does for a game in progress; every render is
a new position, so no result is served twice) and prints p50/p99 of ``render_board`` with
warm sprites, empty board and palette, the median PNG size, and beside them a reference
measured in the same run on the same pictures: a bare Pillow PNG encode (default settings) of
the RGB image, the floor for a straightforward PNG.  ``p50/ref`` compares runs on machines
of different speed.  "fresh" repeats the renders with the cache of compressed ranks emptied
before each one (a board of a game not seen for a while).  Then the first board after a
start, with cold caches and after ``warm()``.  ``--breakdown`` adds, under each case, the
median bytes of each part of its PNGs: the ranks of squares, the two strips (names, pieces in
hand), the file labels and the board's rim above and below it, and the rest (the header with
the move number, and the PNG's own chunks: signature, IHDR, PLTE with the palette, IEND).

    .venv/bin/python bench/render.py --jobs FILE [--where]

draws the board jobs that ``bench/service.py --save-boards FILE`` wrote, as a board process
would, and prints the CPU time a board and, with ``--where``, where it goes
(``bench/board_jobs.py``; a copy of that file in another checkout, run as a script, draws the
same jobs with that checkout's code).

Targets (issue "Speed at scale"): 11x11 p50 under 5 ms and under 40 KB; 9x9 under 4 ms and
under 32 KB, at the default size.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from bench.board_jobs import clear_caches, replay
from render import board
from render.board import board_bands, compose_board, render_board
from render.options import DEFAULT_SIZE, BoardOptions, Perspective, Style
from rules import Position, load_variant
from tests.render.games import TARGETS, game

T = TypeVar("T")


def midgame(variant_id: str = "wa-drops", plies: int = 40, seed: int = 3) -> Position:
    """A reproducible game that prefers captures: full hands where there are drops."""
    rng = random.Random(seed)
    pos = Position.start(load_variant(variant_id))
    for _ in range(plies):
        moves = sorted(pos.legal_moves())
        if not moves:
            break
        captures = [m for m in moves if pos.board[m.to_sq]]
        pos.push(rng.choice(captures or moves))
    return pos


def timings(fn: Callable[[T], object], items: Sequence[T]) -> list[float]:
    """Milliseconds of ``fn`` on each of ``items`` in turn, sorted."""
    out = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t) * 1000)
    return sorted(out)


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def areas(pos: Position, options: BoardOptions) -> dict[str, int]:
    """Bytes of each part of ``pos``'s PNG (see the module's docstring), read back from the
    cache of compressed bands that rendering it has just filled."""
    total = len(render_board(pos, options))
    bands = board_bands(pos, options)
    found = board.BAND_CACHE.lookup(bands)
    out = dict.fromkeys(("ranks", "strips", "labels and rim", "header and chunks"), 0)
    for i, (_, _, key) in enumerate(bands):
        if key in found:
            part = len(found[key][0])
            if i in (1, len(bands) - 2):
                out["strips"] += part
            elif i in (0, 2, len(bands) - 3, len(bands) - 1):
                out["labels and rim"] += part
            else:
                out["ranks"] += part
    out["header and chunks"] = total - sum(out.values())
    return out


def case(
    variant_id: str, style: Style, perspective: Perspective, renders: int, breakdown: bool
) -> bool:
    positions = game(variant_id, 30, renders)
    options = BoardOptions(
        style=style, perspective=perspective, sente_name="Hanako", gote_name="Алексей"
    )
    render_board(positions[0], options)  # sprites, empty board, palette
    board.BAND_CACHE.clear()
    sizes: list[int] = []
    warm = timings(lambda pos: sizes.append(len(render_board(pos, options))), positions)

    def fresh_render(pos: Position) -> None:
        board.BAND_CACHE.clear()
        render_board(pos, options)

    fresh = timings(fresh_render, positions)
    rgbs = [compose_board(pos, options) for pos in positions[:: max(1, renders // 20)]]

    def bare_encode(rgb: Image.Image) -> int:
        out = io.BytesIO()
        rgb.save(out, "PNG")
        return len(out.getvalue())

    ref = statistics.median(timings(bare_encode, rgbs))
    ref_bytes = statistics.median(bare_encode(rgb) for rgb in rgbs)
    size = round(statistics.median(sizes))
    p50, p99 = pct(warm, 0.5), pct(warm, 0.99)
    target_ms, target_bytes = TARGETS[positions[0].variant.files]
    ok = p50 < target_ms and size < target_bytes and options.size == DEFAULT_SIZE
    print(
        f"{variant_id:9} {style:13} {perspective:5}  p50 {p50:5.2f} ms  p99 {p99:5.2f} ms  "
        f"{size:6} B  fresh p50 {pct(fresh, 0.5):5.2f} ms  | ref {ref:5.2f} ms {ref_bytes:6.0f} B"
        f"  p50/ref {p50 / ref:.2f}  {'ok' if ok else 'MISSED'} "
        f"(< {target_ms:g} ms, < {target_bytes // 1000} KB)"
    )
    if breakdown:
        parts = [areas(pos, options) for pos in positions]
        print(
            "    bytes by part (medians):  "
            + ",  ".join(
                f"{name} {statistics.median(p[name] for p in parts):.0f}" for name in parts[0]
            )
        )
    return ok


def first_board(warmed: bool) -> float:
    pos = midgame()
    clear_caches()
    if warmed:
        board.warm()
    t = time.perf_counter()
    render_board(pos, BoardOptions(sente_name="Hanako", gote_name="Алексей"))
    return (time.perf_counter() - t) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=200)
    parser.add_argument("--style", choices=("kanji", "international", "both"), default="both")
    parser.add_argument("--breakdown", action="store_true", help="bytes of each part of a PNG")
    parser.add_argument(
        "--jobs", type=Path, help="draw the board jobs of bench/service.py --save-boards instead"
    )
    parser.add_argument("--where", action="store_true", help="with --jobs: where the CPU goes")
    args = parser.parse_args()
    if args.jobs:
        replay(args.jobs, args.where)
        return 0
    styles: tuple[Style, ...] = (
        ("kanji", "international") if args.style == "both" else (args.style,)  # type: ignore[assignment]
    )
    print(f"board PNGs at {DEFAULT_SIZE} px, {args.renders} successive positions each")
    ok = True
    for variant_id in ("shogi", "wa", "wa-drops"):
        for style in styles:
            ok &= case(variant_id, style, "sente", args.renders, args.breakdown)
    ok &= case("wa-drops", styles[0], "gote", args.renders, args.breakdown)
    cold = statistics.median(first_board(False) for _ in range(3))
    t = time.perf_counter()
    clear_caches()
    board.warm()
    warm_s = time.perf_counter() - t
    warmed = statistics.median(first_board(True) for _ in range(3))
    print(
        f"first wa-drops board after a start: {cold:.0f} ms with cold caches, {warmed:.1f} ms "
        f"after warm() (which takes {warm_s:.1f} s in a background thread at start)"
    )
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
