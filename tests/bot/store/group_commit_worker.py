"""The process killed by test_group_commit_kill.py: moves of many games on one SQLite file, with
several requests in flight (so that they meet in group commits), each acknowledged move
written to a log as soon as ``update_game`` returns.

``python -m tests.bot.store.group_commit_worker DB LOG IN_FLIGHT``: plays every active game of
the file in turn until killed.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path

from bot.store.sqlite import SqliteStore


async def play(db: Path, log_path: Path, in_flight: int) -> None:
    store = await SqliteStore.open(db)
    rows = await store._all("SELECT id FROM games WHERE status = 'active' ORDER BY id")
    games = [game for (number,) in rows if (game := await store.get_game(number)) is not None]
    with log_path.open("a", encoding="utf-8") as log:

        async def player(k: int) -> None:
            mine = games[k::in_flight]
            while True:
                for i, game in enumerate(mine):
                    mine[i] = await store.update_game(replace(game, moves=(*game.moves, "7g7f")))
                    log.write(f"{game.id} {len(mine[i].moves)}\n")
                    log.flush()  # the line is the acknowledgement

        await asyncio.gather(*(player(k) for k in range(in_flight)))


if __name__ == "__main__":
    asyncio.run(play(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])))
