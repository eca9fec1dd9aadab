"""The service benchmark's moves on PostgreSQL, by one process and by three (``bench/service.py
--db postgresql://...`` runs this after its SQLite runs, on the same database template).

For each process count the template is copied (``komabot db copy``'s code) into a schema of
its own in the given database (created, then dropped), and that many processes play the
active games between them (game i by process i mod n), all starting at one wall-clock moment,
with the board image left out (the database is what differs).  Prints moves per second over
the wall time of the whole run and the p50/p99 latency over every move of every process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __name__ == "__main__":  # as a worker process: the repository root first, as service.py does
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import asyncpg

from bench.service_games import play
from bot.store.copy import copy_database
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore

PROCESS_COUNTS = (1, 3)
START_MARGIN = 8.0  # seconds for the worker processes to start and open the database


def in_schema(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _fill(url: str, schema: str, template: Path) -> str:
    """A schema holding a copy of the template database; its URL."""
    con = await asyncpg.connect(url)
    try:
        await con.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
    finally:
        await con.close()
    there = in_schema(url, schema)
    source, target = await SqliteStore.open(template), await PostgresStore.open(there)
    try:
        await copy_database(source, target)
    finally:
        await source.close()
        await target.close()
    return there


async def _drop(url: str, schema: str) -> None:
    con = await asyncpg.connect(url)
    try:
        await con.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await con.close()


def compare_postgres(
    args: argparse.Namespace, template: Path, typed: Sequence[Sequence[str]]
) -> None:
    """Print the PostgreSQL rows beside service.py's SQLite ones (``typed[i]``: the moves of
    active game i, as service.py plays them)."""
    for processes in PROCESS_COUNTS:
        schema = f"komabot_bench_{os.getpid()}_{processes}"
        there = asyncio.run(_fill(args.db, schema, template))
        try:
            latencies, seconds, refused = _run_processes(args, there, processes, typed)
        finally:
            asyncio.run(_drop(args.db, schema))
        q = statistics.quantiles(latencies, n=100)
        print(
            f"PostgreSQL, {processes} process{'es' if processes > 1 else ''}, rendering off: "
            f"{len(latencies)} moves in {seconds:.2f}s = {len(latencies) / seconds:.0f} moves/s; "
            f"per move p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms; refused {refused}"
        )


def _run_processes(
    args: argparse.Namespace, url: str, processes: int, typed: Sequence[Sequence[str]]
) -> tuple[list[float], float, int]:
    start_at = time.time() + START_MARGIN
    with tempfile.TemporaryDirectory() as folder:
        outs = [Path(folder) / f"{k}.json" for k in range(processes)]
        settings = Path(folder) / "settings.json"  # too long for a command line
        settings.write_text(json.dumps({**vars(args), "typed": [list(m) for m in typed]}))
        running = [
            subprocess.Popen(_worker_command(settings, url, k, processes, start_at, outs[k]))
            for k in range(processes)
        ]
        for worker in running:
            if worker.wait() != 0:
                raise SystemExit(f"a benchmark process failed ({worker.returncode})")
        results = [json.loads(out.read_text()) for out in outs]
    latencies = [x for r in results for x in r["latencies"]]
    started = max(r["end"] - r["busy"] for r in results)
    if started > start_at + 0.1:
        print(f"(a process started {started - start_at:.1f}s late; raise START_MARGIN)")
    seconds = max(r["end"] for r in results) - start_at
    return latencies, seconds, sum(r["refused"] for r in results)


def _worker_command(
    settings: Path, url: str, k: int, processes: int, start_at: float, out: Path
) -> list[str]:
    return [
        sys.executable,
        __file__,
        str(settings),
        url,
        str(k),
        str(processes),
        str(start_at),
        str(out),
    ]


def worker_main() -> None:
    """One process: its share of the games, its latencies written to a JSON file."""
    settings, url, k, processes, start_at, out = sys.argv[1:]
    values = json.loads(Path(settings).read_text())
    typed = values.pop("typed")
    args = argparse.Namespace(**values)
    played = asyncio.run(
        play(url, args, typed, False, share=(int(k), int(processes)), start_at=float(start_at))
    )
    end = time.time()
    Path(out).write_text(
        json.dumps(
            {
                "latencies": played.latencies,
                "refused": played.refused,
                "end": end,
                "busy": played.seconds,
            }
        )
    )


if __name__ == "__main__":
    worker_main()
