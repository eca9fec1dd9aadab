"""The platform descriptions the fakes check requests against: where they come from, and what
happens without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot import platform_specs
from tests.bot.discord.fake_discord import FakeDiscord
from tests.bot.telegram.fake_botapi import FakeBotApi


def test_the_specs_sit_beside_the_checkout() -> None:
    discord = platform_specs.load_spec("discord-openapi.json")
    telegram = platform_specs.load_spec("telegram-bot-api.json")
    assert (
        discord["openapi"].startswith("3.1")
        and "/channels/{channel_id}/messages" in (discord["paths"])
    )
    assert "sendPhoto" in telegram["methods"] and "InlineKeyboardButton" in telegram["types"]


@pytest.mark.parametrize("fake", [FakeDiscord, FakeBotApi], ids=["discord", "telegram"])
def test_without_the_specs_a_fake_refuses_to_start_and_says_where_they_go(
    fake: type, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platform_specs, "SPECS", tmp_path / "platform-specs")
    with pytest.raises(platform_specs.SpecsMissing) as missing:
        fake()
    said = str(missing.value)
    assert str(tmp_path / "platform-specs") in said
    assert "../shared/platform-specs/" in said and "beside the checkout" in said
