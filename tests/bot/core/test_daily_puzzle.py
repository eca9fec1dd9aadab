"""The daily puzzle: the setting, the post at its hour exactly once (also across a restart and
between two posters), solving it with /puzzle daily, the solvers counted, streaks."""

from __future__ import annotations

import asyncio

from bot.core.api import Request, User
from bot.core.daily_posts import day_before, day_of, next_post
from bot.core.handlers.daily_puzzle import read_hour
from bot.core.puzzle_book import PuzzleBook
from tests.bot.core.harness import ALICE, BOB, CAROL, MAIN, Harness
from tests.bot.core.puzzle_fixtures import KEY, MATE, PUZZLE_ID

SHIPPED = PuzzleBook()
DAY = 86_400.0
START = 1_750_000_000.0  # 2025-06-15 15:06:40 UTC (the fake clock's start)


def posts(h: Harness) -> list[str]:
    return [r.text for _, r in h.outbox.sent if "Puzzle of the day" in r.text]


async def solve(h: Harness, user: User = ALICE) -> str:
    """``user`` takes the chat's puzzle of the day and plays the collection's solution (the
    defence answers as the collection's line says); what the mating move got."""
    await h.say(user, "puzzle", "daily")
    session = await h.store.puzzle_session(user.key)
    assert session is not None
    puzzle = SHIPPED.get(session.puzzle_id)
    assert puzzle is not None
    for attack in puzzle.solution[::2]:
        reply = await h.say(user, "puzzle", attack)
    return reply.text


def test_hours_and_days() -> None:
    assert read_hour("09:00") == 540 and read_hour("9") == 540 and read_hour("21:30") == 1290
    assert read_hour("09:00utc") == 540
    for bad in ("24:00", "9:60", "nine", "٩", "9:5", "-1", ""):
        assert read_hour(bad) is None, bad
    assert day_of(START) == "2025-06-15" and day_before("2025-03-01") == "2025-02-28"
    assert next_post(16 * 60, START) == START - (15 * 3600 + 6 * 60 + 40) + 16 * 3600
    assert next_post(9 * 60, START) == START - (15 * 3600 + 400) + DAY + 9 * 3600


async def test_the_setting_is_kept_shown_refused_and_turned_off(p: Harness) -> None:
    reply = await p.say(ALICE, "settings", "puzzle")
    assert "This chat gets no daily puzzle" in reply.text
    reply = await p.say(ALICE, "settings", "puzzle", "daily", "09:00")
    assert reply.text == "A puzzle will be posted here every day at 09:00 UTC."
    reply = await p.say(ALICE, "settings", "puzzle")
    assert "every day at 09:00 UTC" in reply.text
    for bad in ("25:00", "soon", "x" * 300):
        reply = await p.say(ALICE, "settings", "puzzle", "daily", bad)
        assert reply.ephemeral and "Write /settings puzzle daily HH:MM" in reply.text
    not_admin = Request(MAIN, BOB, "settings", ("puzzle", "daily", "off"), {"admin": "0"})
    reply = await p.service.handle(not_admin)
    assert reply.ephemeral
    daily = await p.store.daily_puzzle_chat(MAIN)
    assert daily is not None and daily.minute == 540
    reply = await p.say(ALICE, "settings", "puzzle", "daily", "off")
    assert reply.text == "No more daily puzzles here."
    assert await p.store.daily_puzzle_chat(MAIN) is None
    assert "no puzzle of the day" in (await p.say(ALICE, "puzzle", "daily")).text


async def test_posted_at_its_hour_exactly_once_across_a_restart(p: Harness) -> None:
    await p.say(ALICE, "settings", "puzzle", "daily", "16:00")
    await p.service.fire_due()
    assert posts(p) == []
    await p.clock.advance(16 * 3600 - (15 * 3600 + 6 * 60 + 40) - 1)  # 15:59:59
    await p.service.fire_due()
    assert posts(p) == []
    await p.clock.advance(1)
    # claimed and queued, then the process dies before it could send
    assert await p.service.timers.daily_posts.fire_due(p.clock.now()) == 1
    assert posts(p) == []
    await p.restart()
    await p.service.fire_due()
    await p.service.fire_due()
    assert len(posts(p)) == 1
    (post,) = [r for _, r in p.outbox.sent if "Puzzle of the day" in r.text]
    assert f"Puzzle of the day, 2025-06-15 ({PUZZLE_ID})" in post.text
    assert "Sente to play and mate in 3." in post.text and "/puzzle daily" in post.text
    assert post.buttons[0][0].action == "puzzle daily"
    assert await p.store.next_daily_due() == p.clock.now() + DAY
    await p.clock.advance(DAY)
    await p.service.fire_due()
    assert len(posts(p)) == 2 and "2025-06-16" in posts(p)[1]


async def test_two_posters_racing_post_once(p: Harness) -> None:
    await p.say(ALICE, "settings", "puzzle", "daily", "15:30")
    await p.clock.advance(3600)
    (daily,) = await p.store.due_daily_puzzles(p.clock.now())
    poster = p.service.timers.daily_posts
    won = await asyncio.gather(*(poster.post(daily, p.clock.now()) for _ in range(4)))
    assert won.count(True) == 1
    assert len(await p.store.notices()) == 1


async def test_a_day_missed_while_down_is_posted_once_then_the_hour_again(p: Harness) -> None:
    await p.say(ALICE, "settings", "puzzle", "daily", "16:00")
    await p.clock.advance(3 * DAY)  # down for three days
    await p.service.fire_due()
    await p.service.fire_due()
    assert len(posts(p)) == 1 and "2025-06-18" in posts(p)[0]
    due = await p.store.next_daily_due()
    assert due is not None and day_of(due) == "2025-06-18" and due > p.clock.now()


async def test_solvers_are_counted_and_streaks_follow_the_days(h: Harness) -> None:
    # the shipped collections (fixture h): a puzzle of its own each day
    await h.say(ALICE, "settings", "puzzle", "daily", "16:00")
    await h.clock.advance(3600)
    await h.service.fire_due()
    reply = await h.say(ALICE, "puzzle", "daily")
    assert "The puzzle of 2025-06-15: solved by 0 players so far." in reply.text
    await h.say(ALICE, "puzzle", "solution")  # a solution seen: no solve, no streak
    said = (await h.say(ALICE, "puzzle", "daily")).text
    assert "You have finished puzzle" in said and "solved by 0 players so far" in said
    said = await solve(h, BOB)
    assert "Solved." in said
    assert "The puzzle of 2025-06-15: solved by 1 player so far." in said
    assert "Your streak: 1 day in a row." in said
    await h.service.timers.daily_posts.settle()
    ((chat, card, edited),) = h.outbox.edits  # the post now says it
    assert chat == MAIN and card == "daily:2025-06-15"
    assert "Puzzle of the day, 2025-06-15" in edited.text
    assert "The puzzle of 2025-06-15: solved by 1 player so far." in edited.text
    said = await solve(h, CAROL)
    assert "solved by 2 players so far" in said
    again = await h.say(BOB, "puzzle", "daily")  # once only: no second rating, no recount
    assert again.ephemeral and "You have finished puzzle" in again.text
    assert "solved by 2 players so far" in again.text
    await h.clock.advance(DAY)
    await h.service.fire_due()
    assert "Yesterday's puzzle was solved by 2 players." in posts(h)[-1]
    assert "Your streak: 2 days in a row." in await solve(h, BOB)
    assert "Your streak: 1 day in a row." in await solve(h, ALICE)
    await h.clock.advance(2 * DAY)  # a day without solving
    await h.service.fire_due()
    assert "Your streak: 1 day in a row." in await solve(h, BOB)


async def test_a_wrong_move_on_the_daily_puzzle_is_not_counted(p: Harness) -> None:
    await p.say(ALICE, "settings", "puzzle", "daily", "16:00")
    await p.clock.advance(3600)
    await p.service.fire_due()
    await p.say(ALICE, "puzzle", "daily")
    await p.say(ALICE, "puzzle", "5g5f")  # no check
    await p.say(ALICE, "puzzle", KEY)
    said = (await p.say(ALICE, "puzzle", MATE)).text
    assert "counts as not solved" in said and "streak" not in said
    assert await p.store.daily_solvers(MAIN, "2025-06-15") == 0
