"""The board jobs of a service run, saved and drawn again alone: ``bench/service.py
--save-boards FILE`` writes the jobs its board processes got, in order; ``bench/render.py
--jobs FILE`` draws each process's jobs again in one process after ``render.warm()`` (as a
board process starts), and reports the CPU time a board (mean, p50, p99, max; a game's first
board since the start apart from the later ones), what the caches held, and, with
``--where``, where the CPU time of a board goes (its parts timed by wrapping the functions
that do them: the caller's time in a part excludes the parts it calls).

The file is a pickle (written by this tool, read by it: open only files of your own) of
``(worker index, game id, BoardJob)`` tuples."""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import pickle
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    # the checkout this file is in comes first (a copy of it in another checkout draws with
    # that checkout's render code), and bench/render.py must not hide the render package
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bot.core import board_process
from render import board, fonts, png, sprites
from render.board import render_counts
from render.board_job import BoardJob, draw_board_job
from rules.variant import load_every_variant

Saved = tuple[int, int, BoardJob]
"""A job as ``BoardProcesses.journal`` records it: worker index, game id, the job."""

PARTS: tuple[tuple[Any, str, str], ...] = (
    (board, "_square_states", "squares' states"),
    (board, "_bands", "band keys"),
    (board.BAND_CACHE, "lookup", "band cache lookup"),
    (board, "_rank_band", "ranks from tiles"),
    (board.square_tile, "fn", "square tiles drawn"),
    (board, "_band_of_parts", "header and strips from parts"),
    (board.part_tile, "fn", "their parts drawn (RGB, mapped)"),
    (board, "encode_png", "encode: assemble"),
    (png, "_deflate_band", "encode: deflate bands"),
)
"""What ``--where`` times: (holder, attribute, label) of each function wrapped."""


def save_jobs(path: Path, jobs: Sequence[Saved]) -> None:
    path.write_bytes(pickle.dumps(list(jobs), protocol=pickle.HIGHEST_PROTOCOL))


def load_jobs(path: Path) -> list[Saved]:
    jobs: list[Saved] = pickle.loads(path.read_bytes())  # our own file (see the module)
    return jobs


@dataclass
class Drawn:
    """One worker's jobs drawn again: each board's CPU seconds, whether it was its game's
    first, the render counts over them, and (``--where``) each part's CPU seconds and calls
    over all boards, and per board."""

    cpu: list[float] = field(default_factory=list)
    first: list[bool] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    parts: dict[str, float] = field(default_factory=dict)
    calls: Counter[str] = field(default_factory=Counter)
    per_board: list[dict[str, float]] = field(default_factory=list)
    per_board_calls: list[Counter[str]] = field(default_factory=list)


class _Parts:
    """Exclusive CPU time of the wrapped functions (a function's own time, less that of the
    wrapped functions it calls) and their calls."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self._stack: list[float] = []  # the children's time of each open call

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._stack.append(0.0)
            t = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.thread_time() - t
                children = self._stack.pop()
                self.seconds[label] += spent - children
                self.calls[label] += 1
                if self._stack:
                    self._stack[-1] += spent

        return timed


@contextmanager
def _timed_parts(parts: _Parts) -> Iterator[None]:
    """The functions of ``PARTS`` timed (those the code drawn has: another checkout's may
    lack some)."""
    saved = [(h, name, label, getattr(h, name)) for h, name, label in PARTS if hasattr(h, name)]
    try:
        for holder, name, label, fn in saved:
            setattr(holder, name, parts.wrap(label, fn))
        yield
    finally:
        for holder, name, _, fn in saved:
            setattr(holder, name, fn)


def draw_again(jobs: Sequence[Saved], where: bool = False, warm: bool = True) -> list[Drawn]:
    """Each worker's jobs drawn in order in this process, the render caches emptied and
    warmed (unless not ``warm``: quicker, for tests) before each worker's, as a board process
    starts (``bot.core.board_process``)."""
    out = []
    for worker in sorted({w for w, _, _ in jobs}):
        mine = [(game, job) for w, game, job in jobs if w == worker]
        clear_caches()
        _get_ready(warm)
        drawn = Drawn()
        before = render_counts()
        parts = _Parts()
        seen: set[int] = set()
        with _timed_parts(parts) if where else _nothing():
            for game, job in mine:
                was, was_calls = parts.seconds.copy(), parts.calls.copy()
                t = time.thread_time()
                draw_board_job(job)
                drawn.cpu.append(time.thread_time() - t)
                drawn.first.append(game not in seen)
                seen.add(game)
                if where:
                    drawn.per_board.append(
                        {k: v - was.get(k, 0.0) for k, v in parts.seconds.items()}
                    )
                    drawn.per_board_calls.append(parts.calls - was_calls)
        gc.enable()
        gc.unfreeze()
        after = render_counts()
        drawn.counts = {key: after[key] - before[key] for key in after}
        drawn.parts, drawn.calls = parts.seconds, parts.calls
        out.append(drawn)
    return out


def _get_ready(warm: bool) -> None:
    """As a board process of the checkout drawn gets ready (``get_ready``; in checkouts
    before it: the variants, warming, a collection and ``gc.freeze``)."""
    get_ready = getattr(board_process, "get_ready", None)
    if get_ready is not None:
        get_ready(warm)
        return
    load_every_variant()
    if warm:
        board.warm()
    gc.collect()
    gc.freeze()


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def clear_caches() -> None:
    """Every render cache emptied, as in a process just started."""
    for cached in (
        sprites.piece_sprite,
        board.square_sprite,
        board.empty_board,
        board.board_palette,
        board.empty_indices,
        board.square_tile,
        fonts.text_cache,
    ):
        cached.cache_clear()
    board._warmed.clear()
    board.BAND_CACHE.clear()


def _ms(values: Sequence[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"mean {statistics.fmean(ordered) * 1000:.2f}  p50 {ordered[len(ordered) // 2] * 1000:.2f}"
        f"  p99 {p99 * 1000:.2f}  max {ordered[-1] * 1000:.2f} ms ({len(ordered)})"
    )


def report(drawn: Drawn) -> str:
    """CPU a board: all, first boards of a game, later ones; the caches' hit rates; with
    parts timed, each part's CPU a board, on average and on the slowest 1% of boards."""
    n = drawn.counts

    def rate(what: str) -> str:
        found, made = n[f"{what}_found"], n[f"{what}_drawn"]
        return f"{found / max(1, found + made):.0%} of {found + made}"

    lines = [
        f"  CPU a board, all:          {_ms(drawn.cpu)}",
        f"  a game's first board:      "
        f"{_ms([c for c, f in zip(drawn.cpu, drawn.first, strict=True) if f])}",
        f"  later boards:              "
        f"{_ms([c for c, f in zip(drawn.cpu, drawn.first, strict=True) if not f])}",
        f"  from the caches: bands {rate('bands')}, square tiles {rate('tiles')}, "
        f"texts {rate('texts')}",
    ]
    if drawn.per_board:
        boards = len(drawn.cpu)
        slow = sorted(range(boards), key=drawn.cpu.__getitem__)[-max(1, boards // 100) :]
        groups = {
            "all": range(boards),
            "first": [i for i in range(boards) if drawn.first[i]],
            "slowest 1%": slow,
        }
        lines.append(
            "  where a board's CPU goes, ms (calls) a board:"
            + "".join(f"{name:>17}" for name in groups)
        )
        for _, _, label in PARTS:
            row = f"    {label:34}"
            for group in groups.values():
                ms = statistics.fmean(drawn.per_board[i].get(label, 0.0) for i in group) * 1000
                calls = statistics.fmean(drawn.per_board_calls[i][label] for i in group)
                row += f"  {ms:7.3f} ({calls:4.1f})"
            lines.append(row)
        row = f"    {'the rest (render_board itself)':34}"
        for group in groups.values():
            rest = statistics.fmean(drawn.cpu[i] - sum(drawn.per_board[i].values()) for i in group)
            row += f"  {rest * 1000:7.3f}       "
        lines.append(row.rstrip())
        firsts = sum(drawn.first[i] for i in slow)
        lines.append(f"    the slowest 1%: {len(slow)} boards, {firsts} of them a game's first")
    return "\n".join(lines)


def replay(path: Path, where: bool) -> None:
    """Print the report of the jobs saved in ``path`` drawn again."""
    jobs = load_jobs(path)
    print(f"{len(jobs)} board jobs of {path}, drawn again by {board.__file__}")
    for k, drawn in enumerate(draw_again(jobs, where), 1):
        print(f"board process {k}:")
        print(report(drawn))


CHUNK = 50
"""Boards each side of ``--against`` draws in its turn."""


def _serve(path: Path) -> None:
    """``--serve``: warm, say so, then draw the next N jobs for each N read from stdin and
    answer their CPU seconds (one JSON list a line)."""
    jobs = load_jobs(path)
    _get_ready(True)
    print("ready", flush=True)
    done = 0
    for line in sys.stdin:
        times, digest = [], hashlib.sha256()
        for _, _, job in jobs[done : done + int(line)]:
            t = time.thread_time()
            png = draw_board_job(job)
            times.append(time.thread_time() - t)
            digest.update(png)
        done += len(times)
        print(json.dumps([times, digest.hexdigest()]), flush=True)


def against(path: Path, other: Path) -> None:
    """The jobs in ``path`` (all in one stream, as one board process) drawn by this checkout
    and by the checkout ``other`` (which holds a copy of this file) in two processes taking
    turns, ``CHUNK`` boards each: the load of a shared machine changes little between their
    turns, so their CPU times a board compare; and whether both drew the same bytes."""
    sides = {"this": Path(__file__).resolve(), "other": other / "bench" / "board_jobs.py"}
    procs = {
        name: subprocess.Popen(
            [sys.executable, str(script), str(path), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, script in sides.items()
    }
    for proc in procs.values():
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    jobs = load_jobs(path)
    cpu: dict[str, list[float]] = {name: [] for name in procs}
    differ = []  # the turns whose PNGs were not the same bytes on both sides
    for turn, start in enumerate(range(0, len(jobs), CHUNK)):
        order = list(procs) if turn % 2 == 0 else list(procs)[::-1]
        digests = set()
        for name in order:
            proc = procs[name]
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(f"{min(CHUNK, len(jobs) - start)}\n")
            proc.stdin.flush()
            times, digest = json.loads(proc.stdout.readline())
            cpu[name] += times
            digests.add(digest)
        if len(digests) > 1:
            differ.append(start)
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    seen: set[int] = set()
    first = []
    for _, game, _ in jobs:
        first.append(game not in seen)
        seen.add(game)
    for name, script in sides.items():
        firsts = [c for c, f in zip(cpu[name], first, strict=True) if f]
        later = [c for c, f in zip(cpu[name], first, strict=True) if not f]
        print(f"{name} ({script.parents[1]}):")
        print(f"  CPU a board, all:          {_ms(cpu[name])}")
        print(f"  a game's first board:      {_ms(firsts)}")
        print(f"  later boards:              {_ms(later)}")
    print(f"this / other, mean CPU a board: {sum(cpu['this']) / sum(cpu['other']):.3f}")
    same = "the same bytes" if not differ else f"DIFFERENT from boards {differ[:5]} on"
    print(f"the PNGs of both: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("jobs", type=Path, help="a file of bench/service.py --save-boards")
    parser.add_argument("--where", action="store_true", help="where a board's CPU time goes")
    parser.add_argument(
        "--against", type=Path, help="another checkout (with a copy of this file) to compare"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.jobs)
    elif args.against:
        against(args.jobs, args.against)
    else:
        replay(args.jobs, args.where)


if __name__ == "__main__":
    main()
