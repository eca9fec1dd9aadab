"""Discord: a challenge names people by id (slash option, ``<@id>``), never by a copied name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fake_discord import CHANNEL_ID, FakeDiscord
from test_discord_service import discord_for, message_text, service_over, text_of

from bot.store import ChatKey

TEXT = {"DISCORD_MESSAGE_CONTENT": "1", "DISCORD_PREFIX": "!"}


async def answer_to(fake: FakeDiscord, said: dict[str, Any]) -> str:
    reply = await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.messages.values()
                if str((m.get("message_reference") or {}).get("message_id")) == said["id"]
            ),
            None,
        )
    )
    return message_text(reply)


async def test_same_display_names_are_told_apart_by_id(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice = fake.user(111, "alice")
        bob = fake.user(222, "bob_real", display="Bob")
        mallory = fake.user(333, "mallory", display="Bob")  # took Bob's display name
        async with discord_for(fake, service, tmp_path, **TEXT):
            await answer_to(fake, await fake.say(bob, "!help"))
            await answer_to(fake, await fake.say(mallory, "!help"))
            typed = await answer_to(fake, await fake.say(alice, "!challenge @Bob"))
            unknown = await answer_to(fake, await fake.say(alice, "!challenge <@999> wa"))
            mentioned = await answer_to(fake, await fake.say(alice, "!challenge <@222> wa"))
            await answer_to(fake, await fake.say(alice, "!cancel"))
            body = await fake.slash(alice, "challenge", opponent=bob)
        challenges = await service.store.open_challenges(ChatKey("discord", str(CHANNEL_ID)))
    assert "Several people I know are called @Bob" in typed, typed
    assert "Bob (@bob_real)" in typed and "Bob (@mallory)" in typed
    assert "don't know <@999>" in unknown, unknown
    assert "alice challenges Bob" in mentioned and "<@222>" in mentioned, mentioned
    assert "<@222>" in body["data"]["content"], text_of(body)
    assert [c.challenged for c in challenges] == ["discord:222"]
