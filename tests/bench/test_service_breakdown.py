"""``bench/service.py --breakdown``: each move's loop passes, CPU, store calls and board wait
are recorded and reported for the median and the slowest moves."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from bench.service_breakdown import ROWS, Breakdown, report, slowest
from bench.service_games import build_database, plan, play


def test_every_move_is_broken_down(tmp_path: Path) -> None:
    games = plan(4, 2, seed=5)
    db = tmp_path / "games.sqlite3"
    build_database(db, 4, games)
    args = argparse.Namespace(sync="normal", rounds=2, concurrency=2, board_processes=0)
    breakdown = Breakdown()
    played = asyncio.run(play(db, args, [g.typed for g in games], True, breakdown=breakdown))
    assert played.refused == 0
    assert len(breakdown.moves) == len(played.latencies) == 8
    for move in breakdown.moves:
        assert move.passes >= 2  # the request's task, and the board's
        assert 0 < move.own_cpu <= move.loop_cpu <= move.wall + 0.01
        assert move.store_calls >= 2  # the chat's settings, the game, the write
        assert 0 < move.write_wall < move.store_wall <= move.wall
        assert 0 < move.board_after_write + move.write_wall <= move.wall
    header, *rows = report(breakdown.moves).splitlines()
    assert header.endswith("median  slowest 2%  slowest 1%")
    assert len(rows) == len(ROWS)
    for row, (label, _, _) in zip(rows, ROWS, strict=True):
        assert row.strip().startswith(label.strip())
        figures = row[len(row) - 36 :].replace("ms", " ").split()
        assert len(figures) == 3 and all(float(f) >= 0 for f in figures), row
    shown = slowest(breakdown.moves, 3).splitlines()
    assert len(shown) == 4 and shown[0] == "the 3 slowest moves (sent at, UTC):"
    top = sorted(breakdown.moves, key=lambda m: m.wall, reverse=True)[:3]
    for line, move in zip(shown[1:], top, strict=True):
        assert f" wall {move.wall * 1e3:.1f} ms: " in line
        assert (
            line.strip()[:12]
            == time.strftime("%H:%M:%S.", time.gmtime(move.began)) + (f"{move.began % 1:.3f}"[2:])
        )
