"""Notices to Discord carry one message nonce for all their attempts, so a retry after a send
whose answer was lost does not post the message twice."""

from __future__ import annotations

from pathlib import Path

from fake_discord import CHANNEL_ID, FakeDiscord
from test_discord_service import discord_for, interaction_message, message_text, service_over

from bot.core.clock import FakeClock
from bot.core.delivery import RETRY_PAUSES
from bot.store.models import NoticeState

POST_MESSAGE = rf"^/channels/{CHANNEL_ID}/messages$"


async def test_a_time_out_notice_whose_answer_was_lost_is_posted_once(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        clock = service.clock
        assert isinstance(clock, FakeClock)
        async with discord_for(fake, service, tmp_path):
            await fake.slash(alice, "challenge", opponent=bob, color="sente", time="1d")
            await fake.click(bob, interaction_message(fake), "accept 1")
            posted = len(fake.channel_messages())
            fake.lose_answer("POST", POST_MESSAGE)
            await clock.advance(86400 + 1)
            await service.fire_due()  # Discord posted it, but the answer never came back
            assert len(fake.channel_messages()) == posted + 1
            await clock.advance(RETRY_PAUSES[0])
            await service.fire_due()  # so it is sent again, with the same nonce
            await clock.advance(RETRY_PAUSES[1])
            await service.fire_due()
        sends = [
            r
            for r in fake.requests
            if r.method == "POST" and r.path == f"/channels/{CHANNEL_ID}/messages"
        ]
        nonces = [(r.json or {}).get("nonce") for r in sends[-2:]]
        assert nonces[0] is not None and nonces[0] == nonces[1]
        assert all((r.json or {}).get("enforce_nonce") for r in sends[-2:])
        assert len(fake.channel_messages()) == posted + 1  # Discord kept one
        assert "alice ran out of time" in message_text(fake.last_message())
        (notice,) = await service.store.notices()  # type: ignore[attr-defined]
        assert notice.state is NoticeState.DELIVERED and notice.attempts == 2
