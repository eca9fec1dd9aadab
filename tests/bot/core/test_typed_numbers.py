"""Numbers players type (levels, game, challenge and page numbers) are read in one place:
ASCII digits only, bounded; anything else gets the command's usual refusal, never an error."""

from __future__ import annotations

import pytest

from bot.core.messages import text
from tests.bot.core.harness import ALICE, BOB, Harness

INTERNAL = text("error.internal", command="x").split("/")[0]  # "Something went wrong..."
HUGE = "9" * 5000


async def refused(h: Harness, command: str, *args: str) -> str:
    said = await h.say(ALICE, command, *args)
    assert INTERNAL not in said.text, said.text
    assert said.ephemeral, said.text
    assert len(said.text) < 1000, len(said.text)  # a refusal, not the typed text echoed
    return said.text


async def test_a_superscript_digit_in_a_challenge_is_refused(h: Harness) -> None:
    said = await refused(h, "challenge", "²")
    assert "I can't read '²' in a challenge" in said


async def test_a_circled_digit_as_the_bot_s_level_is_refused(h: Harness) -> None:
    said = await refused(h, "challenge", "bot", "①")
    assert "I can't read '①' in a challenge" in said


async def test_a_circled_digit_after_level_is_refused(h: Harness) -> None:
    said = await refused(h, "play", "level", "①")
    assert "is not a level: choose one from 1 (weakest) to 8" in said


@pytest.mark.parametrize("words", [("level", HUGE), (HUGE,), (f"level{HUGE}",)])
async def test_a_five_thousand_digit_level_is_refused(h: Harness, words: tuple[str, ...]) -> None:
    said = await refused(h, "play", *words)
    assert "is not a level: choose one from 1 (weakest) to 8" in said


async def test_other_digits_never_name_a_game_or_a_challenge(h: Harness) -> None:
    game = await h.start_game(ALICE, BOB)
    assert "is not a game number" in await refused(h, "board", "²")
    assert "is not a move number" in await refused(h, "board", str(game.id), "²")  # GAME MOVE
    assert "is not a challenge number" in await refused(h, "accept", "①")
    assert "is not a challenge number" in await refused(h, "accept", HUGE)
    assert "is not a game number" in await refused(h, "export", "kif", "٣")
    assert "Page" in await refused(h, "history", HUGE)
    # Arabic-Indic digits are decimal to Python but not to us: the game's own number is ASCII
    said = await h.say(ALICE, "resign", "#١")
    assert INTERNAL not in said.text and said.ephemeral
    assert (await h.game(game.id)).active
