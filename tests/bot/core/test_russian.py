"""A chat in Russian: the language setting, Russian replies, rules errors and board labels."""

from __future__ import annotations

from bot.core.base import chat_key
from tests.bot.core.harness import ALICE, CAROL, MAIN, Harness


async def test_language_setting_switches_replies_and_persists(h: Harness) -> None:
    shown = await h.say(CAROL, "settings")
    assert "language: en" in shown.text
    changed = await h.say(CAROL, "settings", "language", "ru")
    assert changed.text == "Настройки изменены: language ru."  # already in the new language
    assert (await h.store.get_settings(chat_key(MAIN))).language == "ru"
    await h.restart()
    shown = await h.say(CAROL, "settings")
    assert shown.text.startswith("Настройки этого чата:") and "language: ru" in shown.text
    assert "Ваши текущие партии" not in (await h.say(ALICE, "games")).text
    assert (await h.say(ALICE, "games")).text.startswith("У вас нет текущих партий")
    back = await h.say(CAROL, "settings", "english")  # a value alias names its setting
    assert back.text == "Settings changed: language en."


async def test_bad_language_is_refused_with_the_choices(h: Harness) -> None:
    bad = await h.say(CAROL, "settings", "language", "fr")
    assert bad.ephemeral and "'fr' is not a language; choose one of en, ru." in bad.text
    assert (await h.store.get_settings(chat_key(MAIN))).language == "en"
    missing = await h.say(CAROL, "settings", "lang")
    assert "Give a value for language: one of en, ru." in missing.text
