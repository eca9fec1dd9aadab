"""/history and the best win and streak of /rating: a player's finished games here."""

from __future__ import annotations

from bot.core.api import ChatKey
from tests.bot.core.harness import ALICE, BOB, CAROL, MAIN, Harness
from tests.bot.core.test_ratings import OPENING, played


async def test_history_lists_the_latest_games_with_their_rating_changes(h: Harness) -> None:
    await played(h)
    await h.say(BOB, "resign", "yes")  # game 1: Alice wins, rated
    await h.say(ALICE, "challenge", "shogi", "sente", "casual", target=CAROL)
    await h.say(CAROL, "accept")
    casual = await h.store.active_game(MAIN, ALICE.key)
    assert casual is not None
    await h.play(casual, *OPENING)
    await h.say(ALICE, "resign", "yes")  # game 2: Alice loses, casual
    await h.start_game(BOB, ALICE)
    await h.say(ALICE, "abort")  # game 3: aborted
    reply = await h.say(CAROL, "history", target=ALICE)
    assert reply.text.splitlines() == [
        "📜 Games of Alice in this chat, newest first (page 1 of 1):",
        "#3 · Bob · Standard Shogi · aborted · not rated",
        "#2 · Carol · Standard Shogi · lost by resignation · not rated",
        "#1 · Bob · Standard Shogi · won by resignation · 1500? → 1662? (+162)",
        "Download a record: /export NUMBER.",
    ], reply.text
    assert reply.buttons == ()
    bob = await h.say(BOB, "history")
    assert "#1 · Alice · Standard Shogi · lost by resignation · 1500? → 1338? (-162)" in bob.text
    assert (await h.say(CAROL, "history")).text.startswith("📜 Games of Carol")
    await h.say(CAROL, "settings", "language", "ru")
    ru = await h.say(CAROL, "history", target=ALICE)
    assert "#1 · Bob · Сёги · победа: сдача · 1500? → 1662? (+162)" in ru.text, ru.text


async def test_history_pages_and_its_buttons_name_the_player(h: Harness) -> None:
    for _ in range(12):
        await h.start_game(ALICE, BOB)
        await h.say(ALICE, "abort")
    first = await h.say(CAROL, "history", target=ALICE)
    assert "(page 1 of 2)" in first.text and "#12 ·" in first.text and "#2 ·" not in first.text
    assert [[b.action for b in row] for row in first.buttons] == [["history console:alice 2"]]
    second = await h.say(CAROL, "history", "console:alice", "2")
    assert "(page 2 of 2)" in second.text and "#2 ·" in second.text and "#1 ·" in second.text
    assert [[b.action for b in row] for row in second.buttons] == [["history console:alice 1"]]
    assert "no page 3" in (await h.say(ALICE, "history", "3")).text
    assert "is neither" in (await h.say(CAROL, "history", "shogi")).text
    unknown = await h.say(CAROL, "history", "console:nobody")
    assert "console:nobody" in unknown.text and "#" not in unknown.text, unknown.text


async def test_history_is_per_community(h: Harness) -> None:
    await played(h)
    await h.say(BOB, "resign", "yes")
    elsewhere = ChatKey("console", "other-room")
    reply = await h.say(ALICE, "history", chat=elsewhere)
    assert reply.text == "Alice has no finished games in this chat yet."


async def test_rating_shows_the_best_win_and_the_current_streak(h: Harness) -> None:
    await played(h, BOB, CAROL)
    await h.say(CAROL, "resign", "yes")  # game 1: Bob 1662?, Carol 1338?
    await played(h, ALICE, CAROL)
    await h.say(CAROL, "resign", "yes")  # game 2: a win over 1338?
    await played(h, ALICE, BOB)
    await h.say(BOB, "resign", "yes")  # game 3: a win over 1662?, the best
    await played(h, BOB, ALICE)
    await h.say(BOB, "resign", "yes")  # game 4: Bob lower now
    mine = await h.say(ALICE, "rating")
    assert "    best win: 1662? (Bob, game #3)" in mine.text, mine.text
    assert "    current streak: 3 won in a row" in mine.text
    await played(h, ALICE, BOB)
    await h.say(ALICE, "resign", "yes")
    assert "current streak: 1 lost in a row" in (await h.say(ALICE, "rating")).text
    bob = await h.say(ALICE, "rating", target=BOB)
    assert "best win: " in bob.text and "current streak: 1 won in a row" in bob.text
    carol = await h.say(ALICE, "rating", target=CAROL)
    assert "best win" not in carol.text and "current streak: 2 lost in a row" in carol.text
