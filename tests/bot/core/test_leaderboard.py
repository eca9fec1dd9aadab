"""/leaderboard: the community's settled ratings best first, the asker's place, pages, image."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.core.api import ChatKey
from tests.bot.core.harness import ALICE, BOB, CAROL, Harness, person

SETTLED = 60.0  # a deviation below the provisional threshold


def seed(path: Path, players: int, *, community: str = "main", variant: str = "shogi") -> None:
    """``players`` settled ratings (player i rated 2000 - 10 i) and one provisional, with
    their names."""
    con = sqlite3.connect(path)
    with con:
        for i in range(players):
            key = f"console:p{i:02d}"
            con.execute(
                "INSERT OR REPLACE INTO users (key, platform, user_id, name, name_lower) "
                "VALUES (?, 'console', ?, ?, ?)",
                (key, f"p{i:02d}", f"Player {i}", f"player {i}"),
            )
            con.execute(
                "INSERT INTO ratings VALUES ('console', ?, ?, ?, ?, ?, 0.06, 20, 10, 10, 0, 1)",
                (community, key, variant, 2000.0 - 10 * i, SETTLED),
            )
        con.execute(  # provisional: not on the board
            "INSERT INTO ratings VALUES ('console', ?, 'console:new', ?, 2500, 200, 0.06, "
            "1, 1, 0, 0, 1)",
            (community, variant),
        )
    con.close()


def rate(path: Path, player: str, rating: float, deviation: float = SETTLED) -> None:
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "INSERT INTO ratings VALUES ('console', 'main', ?, 'shogi', ?, ?, 0.06, 9, 5, 4, 0, 1)",
            (player, rating, deviation),
        )
    con.close()


async def test_top_ten_best_first_with_the_askers_place_and_pages(h: Harness) -> None:
    seed(h.path, 15)
    rate(h.path, ALICE.key, 1945.0)  # between players 5 (1950) and 6 (1940): 7th
    await h.say(ALICE, "board")  # the service learns Alice's name
    page = await h.say(ALICE, "leaderboard", "shogi")
    lines = page.text.splitlines()
    assert lines[0] == "🏆 Standard Shogi leaderboard, this chat (page 1 of 2)", page.text
    assert lines[1] == "1. Player 0 2000 ±60 · games: 20"
    assert lines[7] == "7. Alice 1945 ±60 · games: 9 ◀"
    assert lines[10] == "10. Player 8 1920 ±60 · games: 20"
    assert lines[11] == "Your place: 7 of 16 (1945)."
    assert "console:new" not in page.text and "2500" not in page.text  # provisional
    assert [[b.action for b in row] for row in page.buttons] == [["leaderboard shogi 2"]]
    second = await h.say(BOB, "leaderboard", "shogi", "2")
    assert second.text.splitlines()[1] == "11. Player 9 1910 ±60 · games: 20"
    assert second.text.splitlines()[-1] == "You have no rated games in this variant here yet."
    assert [[b.action for b in row] for row in second.buttons] == [["leaderboard shogi 1"]]
    assert "There is no page 3: there are 2." in (await h.say(BOB, "leaderboard", "3")).text


async def test_a_provisional_asker_is_told_so_and_an_empty_board_says_why(h: Harness) -> None:
    rate(h.path, ALICE.key, 1700.0, deviation=150.0)
    reply = await h.say(ALICE, "leaderboard", "wa")
    assert "No one here has a settled Wa Shogi rating yet" in reply.text, reply.text
    mine = await h.say(ALICE, "leaderboard")  # no game played here: Standard Shogi
    assert "Your rating 1700? is still provisional (±150)" in mine.text, mine.text
    assert "below ±110" in mine.text


async def test_bad_words_and_pages_get_clear_answers(h: Harness) -> None:
    seed(h.path, 3)
    assert (
        "'chess' is neither a variant nor a page number"
        in (await h.say(ALICE, "leaderboard", "chess")).text
    )
    assert "Page '0' is not one I can show" in (await h.say(ALICE, "leaderboard", "0")).text
    assert "pages are numbered 1 to 10000" in (await h.say(ALICE, "leaderboard", "99999")).text
    assert "There is no page 2: there is only 1." in (await h.say(ALICE, "leaderboard", "2")).text


async def test_the_board_is_the_communitys_not_another_ones(h: Harness) -> None:
    seed(h.path, 3, community="guild-1")
    seed(h.path, 2, community="other")
    server = ChatKey("console", "general", community="guild-1")
    reply = await h.say(CAROL, "leaderboard", "shogi", chat=server)
    assert "this server" in reply.text and "3. Player 2" in reply.text, reply.text
    assert "No one here has a settled" in (await h.say(CAROL, "leaderboard")).text


async def test_russian(h: Harness) -> None:
    seed(h.path, 2)
    await h.say(CAROL, "settings", "language", "ru")
    reply = await h.say(CAROL, "leaderboard", "shogi")
    assert reply.text.splitlines()[0].startswith("🏆 Лучшие игроки: Сёги"), reply.text
    assert "1. Player 0 2000 ±60 · партий: 20" in reply.text
    assert "У вас здесь пока нет рейтинговых партий" in reply.text


async def test_where_pictures_show_the_page_is_an_image(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(h.path, 12)
    name = "Алёна 🐉 " + "x" * 300  # the fonts lack the dragon; far too long for its column
    con = sqlite3.connect(h.path)
    with con:
        con.execute("UPDATE users SET name = ? WHERE key = 'console:p00'", (name,))
    con.close()
    h.service.pictures.enabled = True
    monkeypatch.setattr(h.outbox, "shows_text_board", False)
    reply = await h.say(person("p03"), "leaderboard", "shogi")
    assert reply.image is not None and reply.image.data.startswith(b"\x89PNG")
    assert reply.text.splitlines() == [
        "🏆 Standard Shogi leaderboard, this chat (page 1 of 2)",
        "Your place: 4 of 12 (1970).",
    ]
