"""Playing the bot on Discord: the real game service and engine (a tiny budget) behind the real
discord.py client, against the fake Discord server."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fake_discord import CHANNEL_ID, OTHER_CHANNEL_ID, FakeDiscord
from test_discord_service import RENDERS, buttons, discord_for, interaction_message, text_of

from bot.config import Config
from bot.core.clock import FakeClock
from bot.core.service import GameService
from bot.store.sqlite import SqliteStore


@contextlib.asynccontextmanager
async def bot_service(tmp_path: Path) -> AsyncIterator[GameService]:
    config = Config(db_path=tmp_path / "komabot.sqlite3", engine_movetime_ms=50)
    store = await SqliteStore.open(config.db_path, sync="normal")
    service = GameService(store, config, clock=FakeClock(), render_images=RENDERS)
    try:
        yield service
    finally:
        await service.drain()
        await store.close()


def message_text(message: dict[str, Any]) -> str:
    return text_of({"data": message})


def bot_answers(fake: FakeDiscord, channel: int, count: int) -> list[dict[str, Any]]:
    """The bot's own moves posted in ``channel`` (not answers to interactions), if ``count``."""
    found = [
        m
        for m in fake.channel_messages(channel)
        if "_interaction_id" not in m and "Komabot, level 1 played" in message_text(m)
    ]
    return found if len(found) >= count else []


async def test_playing_the_bot_on_discord(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, bot_service(tmp_path) as service:
        alice, bob, carol = fake.user(111, "alice"), fake.user(222, "bob"), fake.user(333, "carol")
        async with discord_for(fake, service, tmp_path):
            start = await fake.slash(alice, "play", variant="wa", level="1", color="sente")
            assert "Game #1 begins" in text_of(start) and "Komabot, level 1" in text_of(start)
            moved = await fake.slash(alice, "move", move="8h8g")
            assert "alice played" in text_of(moved) and "is thinking" in text_of(moved)
            (answer,) = await fake.wait_for(lambda: bot_answers(fake, CHANNEL_ID, 1))
            assert answer["content"] == "<@111>"  # alice is called to move
            if RENDERS:
                assert answer["embeds"][0]["image"]["url"] == "attachment://board.png"
            declined = await fake.slash(alice, "draw")
            assert "declines the draw" in text_of(declined)

            # The bot picked as the opponent: the game starts at once, and with sente it moves.
            challenged = await fake.slash(
                bob,
                "challenge",
                channel_id=OTHER_CHANNEL_ID,
                opponent=fake.bot,
                variant="wa-drops",
                color="gote",
                level="1",
            )
            assert "Game #2 begins" in text_of(challenged), text_of(challenged)
            await fake.wait_for(lambda: bot_answers(fake, OTHER_CHANNEL_ID, 1))

            # /help has a button that starts a game against the bot with the defaults.
            await fake.slash(carol, "help")
            helped = interaction_message(fake)
            assert buttons(helped)["Play the bot"] == "play"
            pressed = await fake.click(carol, helped, "play")
            assert "Game #3 begins" in text_of(pressed) and "Komabot, level 3" in text_of(pressed)
        games = [await service.store.get_game(n) for n in (1, 2, 3)]
        assert [(g.variant, g.engine_level) for g in games if g] == [
            ("wa", 1),
            ("wa-drops", 1),
            ("wa", 3),  # the channel's latest variant
        ]
