"""SIGKILL during a storm of moves: every acknowledged move survives, the database is intact."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.core.positions import replay
from bot.store import SqliteStore

ROOT = Path(__file__).resolve().parents[3]


async def test_killed_mid_storm_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "storm.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.core.storm", str(db), "4"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    acks: list[tuple[int, int, str]] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ACK"):
                _, gid, ply, usi = line.split()
                acks.append((int(gid), int(ply), usi))
                if len(acks) >= 150:
                    break
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert len(acks) >= 150
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    store = await SqliteStore.open(db)
    try:
        for gid, ply, usi in acks:
            game = await store.get_game(gid)
            assert game is not None
            assert len(game.moves) >= ply and game.moves[ply - 1] == usi, (gid, ply, usi)
        for gid in {g for g, _, _ in acks}:
            game = await store.get_game(gid)
            assert game is not None
            replay(game)  # every stored move is legal
    finally:
        await store.close()
