"""/board GAME MOVE: the board after that move of the game (0: the start), in the chat's
language and notation; a bad or missing move number is a clear refusal, the game unchanged."""

from __future__ import annotations

import pytest

from bot.core.api import Request
from bot.core.messages import text
from engine.api import position_after
from rules import load_variant
from tests.bot.core.harness import ALICE, CAROL, MAIN, Harness

MOVES = ("7g7f", "3c3d", "8h2b+", "3a2b", "B*4e")  # a bishop taken and dropped again


async def played(h: Harness) -> int:
    game = await h.start_game()
    await h.play(game, *MOVES)
    return game.id


def sfen_after(n: int) -> str:
    return position_after(load_variant("shogi"), "startpos", MOVES[:n]).sfen()


async def test_the_board_after_a_move_in_english(h: Harness) -> None:
    game = await played(h)
    reply = await h.say(CAROL, "board", str(game), "3")
    lines = reply.text.splitlines()
    assert lines[0].endswith("· after move 3 of 5"), lines[0]
    assert lines[1] == "Last move: Bx2b+."
    assert lines[2].endswith(sfen_after(3))
    assert reply.text_board is not None and not reply.ephemeral
    start = await h.say(CAROL, "board", f"#{game}", "0")  # the start: no last move
    assert "after move 0 of 5" in start.text and "Last move" not in start.text
    assert start.text.endswith(sfen_after(0))
    last = await h.say(CAROL, "board", str(game), "5")
    assert "Last move: B*4e." in last.text and last.text.endswith(sfen_after(5))
    assert (await h.game(game)).moves == MOVES  # only looked at


@pytest.mark.parametrize(
    ("language", "notation", "header", "last"),
    [
        ("ja", "japanese", "3手目の局面（全5手）", "２二角成"),
        ("ru", "western", "после хода 3 из 5", "Bx2b+"),
        ("pl", "western", "po ruchu 3 z 5", "Bx2b+"),
        ("en", "japanese", "after move 3 of 5", "２二角成"),
    ],
)
async def test_every_language_and_notation(
    h: Harness, language: str, notation: str, header: str, last: str
) -> None:
    game = await played(h)
    await h.say(CAROL, "settings", "language", language)
    await h.say(CAROL, "settings", "notation", notation)
    reply = await h.say(CAROL, "board", str(game), "3")
    assert header in reply.text.splitlines()[0], reply.text
    assert last in reply.text.splitlines()[1], reply.text


async def test_a_discord_move_option(h: Harness) -> None:
    game = await played(h)
    for options, args in (
        ({"move": "2"}, ("2",)),
        ({"game": str(game), "move": "2"}, (str(game), "2")),
    ):
        request = Request(MAIN, ALICE, "board", args, options=options)
        reply = await h.service.handle(request)
        assert "after move 2 of 5" in reply.text and reply.text.endswith(sfen_after(2))


@pytest.mark.parametrize(
    ("word", "key"),
    [
        ("x", "board.bad_ply"),
        ("-1", "board.bad_ply"),
        ("３", "board.bad_ply"),
        ("6", "board.no_such_ply"),
        ("99999999999999999999", "board.bad_ply"),
    ],
)
async def test_a_bad_move_number_is_refused(h: Harness, word: str, key: str) -> None:
    game = await played(h)
    before = await h.game(game)
    reply = await h.say(CAROL, "board", str(game), word)
    assert reply.ephemeral
    if key == "board.bad_ply":
        assert reply.text == text(key, text=word), reply.text
    else:
        assert reply.text == text(key, game=game, ply=6, total=5)
    assert await h.game(game) == before


async def test_a_lone_number_is_still_the_game(h: Harness) -> None:
    game = await played(h)
    reply = await h.say(CAROL, "board", str(game))
    assert "move 5" in reply.text.splitlines()[0] and "after move" not in reply.text
    bad = await h.say(CAROL, "board", "x", "3")
    assert bad.ephemeral and "x" in bad.text
