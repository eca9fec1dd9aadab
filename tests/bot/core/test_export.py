"""/export: names Shift-JIS cannot hold, and the formats a variant offers."""

from __future__ import annotations

from bot.core.api import User
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, Harness

ZOE = User("console", "zoe", "Zoë 🐉")


async def test_kif_export_replaces_an_emoji_and_says_so(h: Harness) -> None:
    game = await h.start_game(sente=ZOE, gote=BOB)
    await h.say(ZOE, "move", "7g7f")
    reply = await h.say(CAROL, "export", "kif", str(game.id))
    kif = reply.files[0].data.decode("cp932")
    assert "先手：Zo? ?" in kif
    assert "Shift-JIS cannot hold ë 🐉" in reply.text
    assert f"/export kifu {game.id}" in reply.text
    kifu = await h.say(CAROL, "export", "kifu", str(game.id))
    assert "Zoë 🐉" in kifu.files[0].data.decode()
    assert "Shift-JIS" not in kifu.text


async def test_the_replacement_note_in_russian(h: Harness) -> None:
    game = await h.start_game(sente=ZOE, gote=BOB)
    await h.say(CAROL, "settings", "language", "ru")
    reply = await h.say(CAROL, "export", "kif", str(game.id))
    assert "В Shift-JIS нет символов ë 🐉" in reply.text


async def test_a_plain_kif_export_says_nothing_more(h: Harness) -> None:
    game = await h.start_game()
    reply = await h.say(ALICE, "export", "kif", str(game.id))
    assert reply.text == f"Game #{game.id} as KIF."


async def test_an_unknown_format_lists_only_the_games_formats(h: Harness) -> None:
    wa = await h.start_game(variant="wa")
    text = (await h.say(ALICE, "export", "pgn", str(wa.id))).text
    assert text == "'pgn' is not a format I export; use one of kifu, usi, gif."
    game = await h.start_game(sente=CAROL, gote=DAVE)
    text = (await h.say(CAROL, "export", "pgn", str(game.id))).text
    assert "use one of kif, kifu, csa, usi, gif." in text
