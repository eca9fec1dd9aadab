"""Main time + byoyomi in the console: the deadline to the second and both clocks printed with
each move, the warning printed in the chat (the real service, a fake clock)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.config import Config
from bot.console_front import ConsoleFrontEnd
from bot.core.clock import FakeClock
from bot.core.service import GameService
from bot.store import SqliteStore


async def test_a_5m_30s_game_in_the_console(tmp_path: Path) -> None:
    config = Config(console_out=tmp_path / "img")
    out = io.StringIO()
    front = ConsoleFrontEnd(config, stdin=io.StringIO(""), stdout=out, banner=False)
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    clock = FakeClock(1_750_000_000.0)  # Sun, Jun 15 2025 15:06:40 UTC
    service = GameService(store, config, clock=clock, outboxes={"console": front})
    try:
        await front.line("@alice /challenge @bob 5m+30s sente", service.handle)
        assert "5m main time + 30s byoyomi" in out.getvalue(), out.getvalue()
        await front.line("@bob /accept", service.handle)
        begins = out.getvalue()
        assert "deadline Sun, Jun 15 15:12:10 UTC (in 5m 30s)" in begins, begins
        assert "⏱ Main time left: alice ☗ 5:00 · bob ☖ 5:00" in begins
        await clock.advance(100.4)
        await front.line("@alice /move 7g7f", service.handle)
        moved = out.getvalue()[len(begins) :]
        assert "deadline Sun, Jun 15 15:13:50 UTC (in 5m 30s)" in moved, moved
        assert "⏱ Main time left: alice ☗ 3:20 · bob ☖ 5:00" in moved, moved
        await clock.advance(240)
        await service.fire_due()
        warned = out.getvalue().split("[bot in chat main]\n")[-1]
        assert warned.startswith("⏰ bob, it's your move in game #1 against alice: 1m of main"), (
            warned
        )
        assert "(in 1m 30s)" in warned
    finally:
        await service.drain()
        await store.close()
