"""A write whose caller is cancelled midway (a service shutting down cancels its background
tasks) leaves no transaction open: the next write goes through, and the cancelled one is
either whole or not there at all."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store.models import AnalysisRow
from bot.store.sqlite import SqliteStore


def row(game_id: int) -> AnalysisRow:
    return AnalysisRow(game_id, "ms:300", "builtin", "Komabot", (0, 5), ("7g7f", None), 1.0)


async def test_a_write_cancelled_at_any_point_leaves_no_transaction_open(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    try:
        for steps in range(12):  # cancelled after 0, 1, ... turns of the loop
            write = asyncio.ensure_future(store.save_analysis(row(steps)))
            for _ in range(steps):
                await asyncio.sleep(0)
            write.cancel()
            await asyncio.gather(write, return_exceptions=True)
            await store.save_analysis(row(100 + steps))  # refused before the fix
            assert await store.get_analysis(100 + steps, "ms:300", "builtin") == row(100 + steps)
            kept = await store.get_analysis(steps, "ms:300", "builtin")
            assert kept in (None, row(steps))
    finally:
        await store.close()
