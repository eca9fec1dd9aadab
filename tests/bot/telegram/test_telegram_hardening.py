"""Telegram: who a challenge names, settings when Telegram cannot say who administers a group,
tokens kept out of every printed and logged line, text that is not valid UTF-16."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import Config
from bot.store import ChatKey
from bot.telegram_front import TelegramFrontEnd
from tests.bot.telegram.conftest import settings_for
from tests.bot.telegram.fake_botapi import FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, BOB, bot_over
from tests.bot.telegram.test_telegram_parts import run_cli

MALLORY = {"id": 2666, "is_bot": False, "first_name": "Mallory", "username": "mallory_m"}


def as_named(user: dict[str, object], first_name: str) -> dict[str, object]:
    return {**user, "first_name": first_name}


async def test_a_copied_name_never_gets_someone_elses_challenge(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    group = fake.group_chat(-1009, "Club")
    mallory_as_bob = as_named(MALLORY, "Bob")
    async with bot_over(fake, tmp_path) as (service, _front):
        fake.send_text(group, BOB, "/help")
        fake.send_text(group, mallory_as_bob, "/help")
        await fake.expect(2)
        fake.send_text(group, ALICE, "/challenge @Bob")  # typed: no mention entity
        (ambiguous,) = await fake.expect(1)
        fake.send_text(group, ALICE, "/challenge @bob_b wa")  # a username: Bob, by id
        (card,) = await fake.expect(1)
        challenges = await service.store.open_challenges(ChatKey("telegram", str(group["id"])))
    assert "Several people I know are called @Bob" in ambiguous["text"], ambiguous["text"]
    assert "Bob (@bob_b)" in ambiguous["text"] and "Bob (@mallory_m)" in ambiguous["text"]
    assert "Alice challenges Bob" in card["text"], card["text"]
    assert [c.challenged for c in challenges] == ["telegram:2002"]


async def test_an_unseen_username_is_not_taken_for_a_display_name(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    group = fake.group_chat(-1010, "Club")
    async with bot_over(fake, tmp_path) as (service, _front):
        fake.send_text(group, as_named(MALLORY, "ghost_user"), "/help")
        await fake.expect(1)
        fake.send_text(group, ALICE, "/challenge @ghost_user")
        (answer,) = await fake.expect(1)
        challenges = await service.store.open_challenges(ChatKey("telegram", str(group["id"])))
    assert "don't know @ghost_user" in answer["text"], answer["text"]
    assert challenges == []


async def test_a_numeric_name_does_not_shadow_an_id(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1011, "Club")
    async with bot_over(fake, tmp_path) as (service, _front):
        fake.send_text(group, BOB, "/help")
        fake.send_text(group, as_named(MALLORY, "2002"), "/help")  # Bob's id as a name
        await fake.expect(2)
        fake.send_text(group, ALICE, "/challenge @2002")
        (answer,) = await fake.expect(1)
        challenges = await service.store.open_challenges(ChatKey("telegram", str(group["id"])))
    assert "don't take @2002 for a person" in answer["text"], answer["text"]
    assert challenges == []


@pytest.mark.parametrize("status", [500, 429])
async def test_settings_are_refused_when_telegram_cannot_say_who_administers(
    fake: FakeBotApi, tmp_path: Path, status: int
) -> None:
    group = fake.group_chat(-1012, "Club")
    fake.members[(group["id"], int(str(BOB["id"])))] = "member"
    async with bot_over(fake, tmp_path) as (service, _front):
        if status == 429:
            fake.fail_next("getChatMember", retry_after=1, times=2)
        else:
            fake.error_next("getChatMember", 500, "Internal Server Error", times=2)
        fake.send_text(group, BOB, "/settings language ru")
        (refused,) = await fake.expect(1)
        fake.send_text(group, BOB, "/settings reminders dm")  # his own: no question needed
        (his_own,) = await fake.expect(1)
        settings = await service.store.get_settings(ChatKey("telegram", str(group["id"])))
    assert "could not check that you administer this group; try again" in refused["text"]
    assert settings.language == "en"
    assert "reminders dm" in his_own["text"]


async def test_text_with_lone_surrogates_gets_an_answer(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1013, "Club")
    async with bot_over(fake, tmp_path) as (_service, _front):
        fake.send_text(group, as_named(MALLORY, "Mal\ud800"), "/challenge @bob_b \udc00wa")
        fake.send_text(group, as_named(BOB, "B\udfff"), "/help")
        fake.send_text(group, as_named(BOB, "B\udfff"), "/challenge @Mal\ud800")
        answers = await fake.expect(3)
    texts = [a["text"] for a in answers]
    assert not any("went wrong" in t for t in texts), texts
    assert "can't read '\ufffdwa'" in texts[0] or "don't know @bob_b" in texts[0], texts[0]
    assert "Challenging Mal\ufffd (@mallory_m)" in texts[2], texts[2]


# --- tokens ------------------------------------------------------------------------------

SECRET_TOKEN = "7654321:AAHsecretSECRETsecret-0123456789"


async def test_check_never_prints_or_logs_the_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeBotApi(token=SECRET_TOKEN)
    await fake.start()
    try:
        fake.error_next("getMe", 500, f"Internal error at /bot{SECRET_TOKEN}/getMe")
        settings = settings_for(fake, tmp_path)
        front = TelegramFrontEnd(Config(db_path=tmp_path / "k.sqlite3"), settings)
        with caplog.at_level(logging.DEBUG):
            assert await front.check() == 1
            logging.getLogger("test").error("failed: %s", f"/bot{SECRET_TOKEN}/getMe")
    finally:
        await fake.close()
    err = capsys.readouterr().err
    half = SECRET_TOKEN.partition(":")[2]
    assert "Internal error at /bot***/getMe" in err, err
    assert half not in err
    logged = caplog.text + "".join(str(r.args) + r.getMessage() for r in caplog.records)
    assert "bot***/getMe" in logged and half not in logged


async def test_cli_check_never_prints_the_token(tmp_path: Path) -> None:
    fake = FakeBotApi(token=SECRET_TOKEN)
    await fake.start()
    try:
        fake.error_next("getMe", 500, f"Internal error at /bot{SECRET_TOKEN}/getMe")
        env = {
            "TELEGRAM_TOKEN": SECRET_TOKEN,
            "TELEGRAM_API_BASE": f"http://127.0.0.1:{fake.port}",
            "KOMABOT_DB": str(tmp_path / "komabot.sqlite3"),
            "KOMABOT_LOG_LEVEL": "DEBUG",
        }
        code, out, err = await run_cli("telegram", "--check", env=env)
    finally:
        await fake.close()
    assert code == 1, err
    assert "/bot***/getMe" in err, err
    assert SECRET_TOKEN.partition(":")[2] not in out + err
