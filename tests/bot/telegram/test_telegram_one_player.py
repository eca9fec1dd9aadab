"""Commands about one player (/rating, /history, /challenge) refuse two people named on
Telegram, by text mention or ``@username``, with the message every front end gives: the real
service over the fake Bot API."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.api import ChatKey
from tests.bot.telegram.fake_botapi import JSON, FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, BOB, CAROL, bot_over

ONE_AT_A_TIME = "One player at a time, please: "


@pytest.mark.parametrize(
    ("line", "text_mentions"),
    [
        ("/rating Bob Carol", (("Bob", BOB), ("Carol", CAROL))),  # two text mentions
        ("/rating @bob_b Carol", (("Carol", CAROL),)),  # a username and a text mention
        ("/rating Carol @bob_b shogi", (("Carol", CAROL),)),
        ("/history @bob_b Carol", (("Carol", CAROL),)),
        ("/challenge Bob Carol wa", (("Bob", BOB), ("Carol", CAROL))),
        ("/challenge @bob_b Carol", (("Carol", CAROL),)),
        ("/leaderboard Bob Carol", (("Bob", BOB), ("Carol", CAROL))),
    ],
)
async def test_two_people_named_are_refused_one_at_a_time(
    fake: FakeBotApi, tmp_path: Path, line: str, text_mentions: tuple[tuple[str, JSON], ...]
) -> None:
    group = fake.group_chat(-1001, "Shogi club")
    async with bot_over(fake, tmp_path) as (service, _):
        fake.send_text(group, BOB, "/games")  # the bot learns @bob_b
        await fake.expect(1)
        fake.send_text(group, ALICE, line, text_mentions=text_mentions)
        (reply,) = await fake.expect(1)
        assert not await service.store.open_challenges(ChatKey("telegram", str(group["id"])))
    assert reply["text"].startswith(ONE_AT_A_TIME), reply["text"]
    assert "Bob" in reply["text"] and "Carol" in reply["text"]


async def test_one_person_named_twice_is_one(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1001, "Shogi club")
    async with bot_over(fake, tmp_path):
        fake.send_text(group, BOB, "/games")
        await fake.expect(1)
        fake.send_text(group, ALICE, "/rating Bob @bob_b", text_mentions=(("Bob", BOB),))
        fake.send_text(group, ALICE, "/rating Carol", text_mentions=(("Carol", CAROL),))
        twice, carol = await fake.expect(2)
    assert not twice["text"].startswith(ONE_AT_A_TIME) and "Bob" in twice["text"]
    assert not carol["text"].startswith(ONE_AT_A_TIME) and "Carol" in carol["text"]
