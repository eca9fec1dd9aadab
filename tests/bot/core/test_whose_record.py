"""Whose record /rating and /history show: the bot's when it is named, one player at a time."""

from __future__ import annotations

from bot.core.api import Request
from tests.bot.core.harness import ALICE, BOB, CAROL, MAIN, Harness


async def test_rating_of_the_bot_says_it_is_unrated(h: Harness) -> None:
    mentioned = await h.service.handle(Request(MAIN, ALICE, "rating", to_bot=True))
    assert mentioned.text.startswith("Komabot has no rating"), mentioned.text
    for word in ("bot", "@komabot", "@bot"):
        reply = await h.say(ALICE, "rating", word)
        assert reply.text == mentioned.text, (word, reply.text)
    await h.say(ALICE, "settings", "language", "ru")
    assert "У Komabot нет рейтинга" in (await h.say(ALICE, "rating", "bot")).text


async def test_history_of_the_bot_is_the_bots_not_the_askers(h: Harness) -> None:
    await h.start_game(ALICE, BOB)
    await h.say(ALICE, "abort")
    assert "Games of Alice" in (await h.say(ALICE, "history")).text
    reply = await h.service.handle(Request(MAIN, ALICE, "history", to_bot=True))
    assert reply.text == "Komabot has no finished games in this chat yet.", reply.text
    for word in ("@komabot", "@bot", "bot"):  # nobody here is called bot: it is the bot
        assert (await h.say(ALICE, "history", word)).text == reply.text, word


async def test_a_person_called_bot_is_that_person(h: Harness) -> None:
    robot = type(ALICE)("console", "bot", "bot")
    await h.start_game(robot, BOB)
    await h.say(robot, "abort")
    reply = await h.say(ALICE, "history", "@bot")
    assert reply.text.startswith("📜 Games of bot"), reply.text


async def test_two_players_are_refused_not_the_last_taken(h: Harness) -> None:
    await h.say(CAROL, "rating")  # Carol is known by name
    reply = await h.say(ALICE, "rating", "@carol", target=BOB)
    assert reply.text.startswith("One player at a time"), reply.text
    assert "Bob" in reply.text and "Carol" in reply.text
    both = await h.say(ALICE, "history", "@bob", "@carol")
    assert both.text.startswith("One player at a time"), both.text
    bot_too = await h.service.handle(Request(MAIN, ALICE, "rating", ("@carol",), to_bot=True))
    assert "Komabot" in bot_too.text and "Carol" in bot_too.text, bot_too.text
    same = await h.say(ALICE, "rating", "@bob", target=BOB)  # one person named twice is one
    assert "One player" not in same.text, same.text


async def test_every_command_about_one_player_refuses_two_the_same_way(h: Harness) -> None:
    """A front end hands the people mentioned after the first as ``more_targets``; /rating,
    /history, /leaderboard, /challenge and a typed name beside a mention all say the same."""
    await h.say(CAROL, "rating")  # Carol is known by name
    for command, args in (
        ("rating", ()),
        ("history", ()),
        ("leaderboard", ()),
        ("challenge", ("wa",)),
    ):
        request = Request(MAIN, ALICE, command, args, target=BOB, more_targets=(CAROL,))
        reply = await h.service.handle(request)
        assert reply.text.startswith("One player at a time"), (command, reply.text)
        assert "Bob" in reply.text and "Carol" in reply.text
    typed = await h.say(ALICE, "challenge", "@carol", target=BOB)
    assert typed.text.startswith("One player at a time"), typed.text
    assert not await h.store.open_challenges(MAIN)
    same = Request(MAIN, ALICE, "challenge", (), target=BOB, more_targets=(BOB,))
    assert "One player" not in (await h.service.handle(same)).text  # one person, twice
