"""Reminders and time-out notices reach Telegram even when the Bot API fails for a while."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.delivery import RETRY_PAUSES
from tests.bot.telegram.fake_botapi import FakeBotApi
from tests.bot.telegram.test_telegram_games import bot_over, mentioned, start_game


async def _no_pause(seconds: float) -> None:
    """The courier's pauses between network retries, skipped."""


async def test_a_reminder_that_meets_server_errors_is_sent_later(
    fake: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    group = fake.group_chat(-1011, "Club")
    async with bot_over(fake, tmp_path, clock) as (service, front):
        monkeypatch.setattr(front.courier, "_sleep", _no_pause)
        await start_game(fake, group, time="1d")
        # Every try the courier makes in this pass gets "500 Internal Server Error".
        fake.error_next("sendMessage", 500, "Internal Server Error", times=4)
        await clock.advance(23 * 3600 + 60)
        assert await service.fire_due()
        failed = [c for c in fake.calls_of("sendMessage") if c.status == 500]
        assert len(failed) == 4 and not fake.unread()
        await clock.advance(RETRY_PAUSES[0])
        await service.fire_due()
        (reminder,) = await fake.expect(1)
        await clock.advance(60)
        await service.fire_due()
    assert reminder["chat"]["id"] == group["id"]
    assert "Alice, it's your move in game #1" in reminder["text"]
    assert mentioned(reminder) == [2001]
    assert not fake.unread()  # once


async def test_a_time_out_notice_that_meets_server_errors_is_sent_later(
    fake: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    group = fake.group_chat(-1012, "Club")
    async with bot_over(fake, tmp_path, clock) as (service, front):
        monkeypatch.setattr(front.courier, "_sleep", _no_pause)
        await start_game(fake, group, time="1d")
        method = "sendPhoto" if service.pictures.enabled else "sendMessage"
        fake.error_next(method, 502, "Bad Gateway", times=8)  # two passes' worth
        await clock.advance(86400 + 60)
        assert await service.fire_due()
        await clock.advance(RETRY_PAUSES[0])
        await service.fire_due()
        assert not fake.unread()
        await clock.advance(RETRY_PAUSES[1])
        await service.fire_due()
        (timeout,) = await fake.expect(1)
    said: str = timeout.get("caption") or timeout.get("text") or ""
    assert "Alice ran out of time" in said and "Bob wins" in said
    assert not fake.unread()
