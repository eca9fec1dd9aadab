"""The soak test: three bot processes (soak_worker.py) on one PostgreSQL database play games,
one is killed with SIGKILL mid-run; then three fire the reminders, one killed holding what it
had claimed.  Every acknowledged move is in the database, every reminder is sent exactly once.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import asyncpg

from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parents[3]
PROCESSES = 3
GAMES = 60  # per process: 180 games in all
KILL_AFTER = 40  # moves the killed player had acknowledged


def worker(
    mode: str, url: str, index: int, number: object, log: Path, *extra: str
) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "tests.bot.store.soak_worker", mode, url, str(index)]
    return subprocess.Popen([*command, str(number), str(log), *extra], cwd=ROOT)


def lines(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def kill_when(process: subprocess.Popen[bytes], log: Path, ready: int, timeout: float) -> None:
    """SIGKILL ``process`` once its log has ``ready`` lines (it must still be running)."""
    deadline = time.monotonic() + timeout
    while len(lines(log)) < ready:
        assert process.poll() is None, "the process ended before it could be killed"
        assert time.monotonic() < deadline, f"{log.name}: {len(lines(log))} lines"
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait(10)


def finish(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        assert process.wait(120) == 0


async def stored_games(url: str) -> dict[str, tuple[str, list[str]]]:
    """Each chat's game: its status and moves."""
    con = await asyncpg.connect(url)
    try:
        rows = await con.fetch("SELECT chat_id, status, moves FROM games")
    finally:
        await con.close()
    return {r["chat_id"]: (r["status"], r["moves"].split()) for r in rows}


def test_three_processes_one_killed_lose_and_double_nothing(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    url = asyncio.run(postgres_server.new_database())
    logs = [tmp_path / f"play{i}.log" for i in range(PROCESSES)]
    players = [worker("play", url, i, GAMES, logs[i]) for i in range(PROCESSES)]
    kill_when(players[-1], logs[-1], KILL_AFTER, 60)
    finish(players[:-1])

    games = asyncio.run(stored_games(url))
    acknowledged: dict[str, list[str]] = {}
    for log in logs:
        for line in lines(log):
            _, chat, ply, move = line.split()
            acknowledged.setdefault(chat, []).append(move)
            assert games[chat][1][int(ply)] == move, (chat, ply)
    assert len(games) >= 2 * GAMES + KILL_AFTER // 6
    for chat, moves in acknowledged.items():  # nothing doubled; a killed move may be unsaid
        assert games[chat][1][: len(moves)] == moves
        assert len(games[chat][1]) <= len(moves) + 1

    fired = [tmp_path / f"fire{i}.log" for i in range(PROCESSES)]
    start = tmp_path / "start"
    stuck = worker("fire", url, 0, start, fired[0], "stuck")
    others = [  # they fire once the stuck one has claimed (see soak_worker.py)
        worker("fire", url, i, start, fired[i], "after", str(fired[0])) for i in range(1, PROCESSES)
    ]
    deadline = time.monotonic() + 60
    while not all(Path(f"{log}.ready").exists() for log in fired):
        assert all(p.poll() is None for p in [stuck, *others]), "a firing process ended early"
        assert time.monotonic() < deadline, "the firing processes did not start within 60 s"
        time.sleep(0.02)
    # the shared clock starts once all are up (a loaded machine starts them slowly)
    written = tmp_path / "start.part"  # renamed whole: no process reads half of it
    written.write_text(str(time.time() + 0.5), encoding="utf-8")
    written.replace(start)
    kill_when(stuck, fired[0], 1, 60)  # it claimed timers and a message, and died sending it
    finish(others)
    sent = Counter(line.split()[1] for log in fired for line in lines(log) if line != "attempt")
    active = {chat for chat, (status, _) in games.items() if status == "active"}
    assert len(active) >= 2 * GAMES and set(sent) == active, set(sent) ^ active
    assert all(n == 1 for n in sent.values()), [c for c, n in sent.items() if n > 1]
