"""Main time + byoyomi on Discord: the slash command's time option takes ``5m+30s``; the deadline
is Discord's timestamp markup, both clocks shown with each move, the warning and the loss on time
posted in the channel (fake clock), through the real discord.py client and the fake server."""

from __future__ import annotations

import json
from pathlib import Path

from fake_discord import FakeDiscord
from test_discord_service import discord_for, interaction_message, service_over, text_of

from bot.core.clock import FakeClock


async def test_a_5m_30s_game_shows_its_deadline_and_clocks(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        clock = service.clock
        assert isinstance(clock, FakeClock)
        async with discord_for(fake, service, tmp_path):
            body = await fake.slash(alice, "challenge", opponent=bob, color="sente", time="5m+30s")
            assert "5m main time + 30s byoyomi" in text_of(body), text_of(body)
            await fake.click(bob, interaction_message(fake), "accept 1")
            await clock.advance(100)
            moved = text_of(await fake.slash(alice, "move", move="7g7f"))
            deadline = int(clock.now()) + 330  # Bob's five minutes and his first byoyomi
            assert f"<t:{deadline}:R>" in moved and f"<t:{deadline}:T>" in moved, moved
            assert "⏱ Main time left: alice ☗ 3:20 · bob ☖ 5:00" in moved, moved
            await clock.advance(240)  # a minute of Bob's main time left
            await service.fire_due()
            warning = fake.last_message()
            assert warning["content"].startswith("<@222>"), warning["content"]
            assert "1m of main time left, then 30s a move" in warning["content"]
            await clock.advance(90)
            await service.fire_due()
            timeout = fake.last_message()
        said = timeout["content"] + json.dumps(timeout["embeds"], ensure_ascii=False)
        assert "bob ran out of time" in said and "alice wins" in said
