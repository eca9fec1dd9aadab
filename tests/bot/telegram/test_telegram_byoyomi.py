"""Main time + byoyomi on Telegram: ``/challenge ... 5m+30s`` typed in a group, the deadline to
the second and both clocks with each move, the warning and the loss on time posted in the group
(fake clock), through the real ptb client against the fake Bot API server."""

from __future__ import annotations

from pathlib import Path

from bot.core.clock import FakeClock
from tests.bot.telegram.fake_botapi import FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, bot_over, mentioned, start_game


async def test_a_5m_30s_game_shows_its_deadline_and_clocks(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    clock = FakeClock()
    group = fake.group_chat(-1001, "Shogi club")
    async with bot_over(fake, tmp_path, clock) as (service, _front):
        _card, board = await start_game(fake, group, time="5m+30s")
        assert "5m main time + 30s byoyomi" in board["caption"], board["caption"]
        assert "(in 5m 30s)" in board["caption"], board["caption"]
        await clock.advance(100)
        fake.send_text(group, ALICE, "/move 7g7f")
        (moved,) = await fake.expect(1)
        said = moved.get("caption") or moved.get("text") or ""
        assert "⏱ Main time left: Alice ☗ 3:20 · Bob ☖ 5:00" in said, said
        assert "(in 5m 30s)" in said and mentioned(moved) == [2002], said
        await clock.advance(240)
        assert await service.fire_due()
        (warning,) = await fake.expect(1)
        warned = "Bob, it's your move in game #1 against Alice: 1m of main time left"
        assert warned in warning["text"], warning["text"]
        assert "(in 1m 30s)" in warning["text"] and mentioned(warning) == [2002]
        await clock.advance(90)
        assert await service.fire_due()
        (timeout,) = await fake.expect(1)
    said = timeout.get("caption") or timeout.get("text") or ""
    assert "Bob ran out of time" in said and "Alice wins" in said
