"""Both platforms in one process: ``run_app`` with the Discord and Telegram front ends together,
one event loop, one game service, one SQLite database."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.app import run_app
from bot.config import Config
from bot.discord_front import DiscordFrontEnd, DiscordSettings
from bot.store import SqliteStore
from bot.store.models import ChatKey
from bot.telegram_front import TelegramFrontEnd
from tests.bot.discord.fake_discord import CHANNEL_ID, FakeDiscord
from tests.bot.telegram.conftest import settings_for
from tests.bot.telegram.fake_botapi import FakeBotApi

ALICE = {"id": 4001, "is_bot": False, "first_name": "Alice", "username": "alice_tg"}


async def test_discord_and_telegram_share_one_process_and_database(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    group = fake.group_chat(-4001, "Shogi club")
    async with FakeDiscord() as discord_fake:
        alice_on_discord = discord_fake.user(111, "alice")
        config = Config(
            db_path=tmp_path / "komabot.sqlite3",
            discord_token=discord_fake.token,
            telegram_token=fake.token,
            reminders=(),
        )
        discord_settings = DiscordSettings.from_env(discord_fake.env())
        discord = DiscordFrontEnd(config, settings=discord_settings, guild_ready_timeout=0.02)
        discord.identify_spacing = 0.01
        telegram = TelegramFrontEnd(config, settings_for(fake, tmp_path))
        stop = asyncio.Event()
        app = asyncio.create_task(run_app(config, [discord, telegram], stop=stop))
        try:
            await telegram.wait_ready(10)
            await asyncio.wait_for(discord.ready.wait(), 10)
            fake.send_text(group, ALICE, "/challenge wa")
            (telegram_card,) = await fake.expect(1)
            discord_answer = await discord_fake.slash(alice_on_discord, "challenge")
        finally:
            stop.set()
            await asyncio.wait_for(app, 15)

    assert "challenge #1" in telegram_card["text"].lower()
    assert "challenge #2" in str(discord_answer).lower()
    store = await SqliteStore.open(config.db_path)
    try:
        (on_telegram,) = await store.open_challenges(ChatKey("telegram", str(group["id"])))
        (on_discord,) = await store.open_challenges(ChatKey("discord", str(CHANNEL_ID)))
    finally:
        await store.close()
    assert on_telegram.challenger == "telegram:4001" and on_telegram.variant == "wa"
    assert on_discord.challenger == "discord:111"
