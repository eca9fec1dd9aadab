"""A process writing moves by group commit (several in flight), killed with SIGKILL mid-run:
every move it acknowledged is in the database, which opens whole."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.store import SqliteStore
from tests.bot.store.test_sqlite import add_game

ROOT = Path(__file__).resolve().parents[3]
GAMES = 40
IN_FLIGHT = 8
KILL_AFTER = 300  # acknowledged moves


async def test_every_acknowledged_move_survives_a_kill(tmp_path: Path) -> None:
    db, log = tmp_path / "k.sqlite3", tmp_path / "acks.log"
    store = await SqliteStore.open(db)
    for k in range(GAMES):
        await add_game(store, f"console:a{k}", f"console:b{k}")
    await store.close()
    command = [sys.executable, "-m", "tests.bot.store.group_commit_worker"]
    process = subprocess.Popen([*command, str(db), str(log), str(IN_FLIGHT)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while not log.exists() or log.read_text().count("\n") < KILL_AFTER:
            assert process.poll() is None, "the worker ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
    acknowledged: dict[int, int] = {}
    for line in log.read_text().splitlines():
        game_id, plies = map(int, line.split())
        acknowledged[game_id] = max(acknowledged.get(game_id, 0), plies)
    assert sum(acknowledged.values()) >= KILL_AFTER
    store = await SqliteStore.open(db)  # checks the file whole
    try:
        for game_id, plies in acknowledged.items():
            game = await store.get_game(game_id)
            assert game is not None
            assert len(game.moves) >= plies  # acknowledged, so written (maybe one more)
            assert len(game.moves) <= plies + 1  # at most the move in flight when killed
    finally:
        await store.close()
