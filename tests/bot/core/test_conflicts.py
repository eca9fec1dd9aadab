"""A request that loses a race against another change of its game says, in the chat's
language, what came first and that it was not done; never the store's own words."""

from __future__ import annotations

from typing import Any

import pytest

from bot.store import GameRow
from tests.bot.core.harness import ALICE, BOB, Harness


def race(h: Harness, monkeypatch: pytest.MonkeyPatch, *first: tuple[Any, ...]) -> None:
    """The next write of a game runs the requests ``first`` (user, command, args...) before
    it: they win the race, the write finds the game changed."""
    real = h.store.update_game
    pending = list(first)

    async def late(game: GameRow, *args: Any, **kwargs: Any) -> GameRow:
        while pending:
            user, *words = pending.pop(0)
            said = await h.say(user, *words)
            assert not said.ephemeral, said.text
        return await real(game, *args, **kwargs)

    monkeypatch.setattr(h.store, "update_game", late)


async def test_a_move_that_loses_to_a_resignation_says_so(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await h.start_game(ALICE, BOB)
    race(h, monkeypatch, (BOB, "resign", "yes"))
    said = await h.say(ALICE, "move", "7g7f")
    assert said.ephemeral
    assert "Bob resigned first; your move was not played" in said.text, said.text
    assert "changed since version" not in said.text
    assert (await h.game(game.id)).moves == ()


async def test_a_move_that_loses_to_a_move_says_who_moved(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await h.start_game(ALICE, BOB)
    race(h, monkeypatch, (ALICE, "move", "2g2f"))
    said = await h.say(ALICE, "move", "7g7f")
    assert "Alice moved first; your move was not played" in said.text, said.text
    assert (await h.game(game.id)).moves == ("2g2f",)


async def test_a_resignation_that_loses_to_a_draw_agreement_says_so_in_russian(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await h.start_game(ALICE, BOB)
    await h.say(ALICE, "settings", "language", "ru")
    await h.say(ALICE, "draw", "offer")
    race(h, monkeypatch, (BOB, "draw", "accept"))
    said = await h.say(ALICE, "resign", "yes")
    assert "ничья" in said.text.lower() and "не выполнена" in said.text, said.text
    assert "changed since" not in said.text
    assert (await h.game(game.id)).winner is None
