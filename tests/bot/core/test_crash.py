"""SIGKILL during a storm of moves: every acknowledged move survives, the database is intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.core.positions import replay
from bot.store import SqliteStore
from tests.bot.core.killing import run_and_kill


async def test_killed_mid_storm_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "storm.sqlite3"
    lines = run_and_kill(
        "tests.bot.core.storm",
        [str(db), "4"],
        lambda lines: sum(line.startswith("ACK") for line in lines) >= 150,
    )
    acks = [
        (int(gid), int(ply), usi)
        for _, gid, ply, usi in (line.split() for line in lines if line.startswith("ACK"))
    ]
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
