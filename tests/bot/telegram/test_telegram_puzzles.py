"""/puzzle on Telegram: given with its board as a photo, solved in a group with /move and
/puzzle, failed, hinted, revealed, and answered with a bare move in a private chat."""

from __future__ import annotations

from pathlib import Path

from bot.core.clock import FakeClock
from tests.bot.core.puzzle_fixtures import (
    ESCAPING_CHECK,
    KEY,
    MATE,
    QUIET,
    one_puzzle_book,
)
from tests.bot.telegram.fake_botapi import JSON, FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, BOB, CAROL, bot_over, buttons_of


def said(message: JSON) -> str:
    return str(message.get("caption") or message.get("text") or "")


async def test_a_puzzle_solved_failed_hinted_and_revealed(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1003, "Tsume club")
    async with bot_over(fake, tmp_path, puzzle_book=one_puzzle_book(tmp_path)):

        async def answer(who: JSON, line: str) -> JSON:
            fake.send_text(group, who, line)
            (message,) = await fake.expect(1)
            return message

        given = await answer(ALICE, "/puzzle")
        assert given.get("photo") and given["_upload"].data.startswith(b"\x89PNG")
        assert "Sente to play and mate in 3." in said(given)
        assert "Hint: drop a Gold General from the hand." in said(
            await answer(ALICE, "/puzzle hint")
        )
        assert "P-5f is not a check" in said(await answer(ALICE, f"/puzzle {QUIET}"))
        escaped = await answer(ALICE, f"/puzzle {ESCAPING_CHECK}")
        assert "the king escapes: Kx6a" in said(escaped) and escaped.get("photo")
        right = await answer(ALICE, f"/move {KEY}")  # no game in the group: the puzzle's
        assert "G*5b: right. The defence answers Gx5b." in said(right)
        solved = await answer(ALICE, f"/puzzle {MATE}")
        assert "+Bx5b: checkmate!" in said(solved)
        assert "Solved, after a wrong move: it counts as not solved." in said(solved)
        await answer(BOB, "/puzzle")
        revealed = await answer(BOB, "/puzzle solution")
        assert "Solution: 1. G*5b 2. Gx5b 3. +Bx5b" in said(revealed)
        assert "no puzzle in progress" in said(await answer(BOB, "/puzzle solution"))


async def test_a_bare_move_in_a_private_chat_answers_the_puzzle(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    private = fake.private_chat(CAROL)
    async with bot_over(fake, tmp_path, puzzle_book=one_puzzle_book(tmp_path)):
        fake.send_text(private, CAROL, "/puzzle")
        await fake.expect(1)
        fake.send_text(private, CAROL, KEY)
        (right,) = await fake.expect(1)
        assert "G*5b: right. The defence answers Gx5b." in said(right)
        fake.send_text(private, CAROL, MATE)
        (solved,) = await fake.expect(1)
        assert "Solved." in said(solved)


async def test_the_daily_puzzle_is_posted_at_its_hour_and_solved_from_its_button(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    group = fake.group_chat(-1004, "Daily club")
    clock = FakeClock()  # 2025-06-15 15:06:40 UTC
    book = one_puzzle_book(tmp_path)
    async with bot_over(fake, tmp_path, clock=clock, puzzle_book=book) as (service, _front):
        fake.send_text(group, ALICE, "/settings puzzle daily 16:00")
        (set_,) = await fake.expect(1)
        assert said(set_) == "A puzzle will be posted here every day at 16:00 UTC."
        await clock.advance(3600)
        await service.fire_due()
        (post,) = await fake.expect(1)
        assert post.get("photo") and "Puzzle of the day, 2025-06-15" in said(post)
        assert buttons_of(post) == ["puzzle daily"]
        fake.press(group, BOB, post["message_id"], "puzzle daily")
        (given,) = await fake.expect(1)
        assert "solved by 0 players so far" in said(given)
        fake.send_text(group, BOB, f"/puzzle {KEY}")
        await fake.expect(1)
        fake.send_text(group, BOB, f"/puzzle {MATE}")
        (solved,) = await fake.expect(1)
        assert "solved by 1 player so far. Your streak: 1 day in a row." in said(solved)
        await service.timers.daily_posts.settle()
        (edit,) = fake.calls_of("editMessageCaption")  # the post says how many solved it
        assert int(edit.params["message_id"]) == post["message_id"]
        assert "solved by 1 player so far" in edit.params["caption"]
        assert fake.messages[(group["id"], post["message_id"])].get("photo")
        await service.fire_due()
        assert fake.unread() == []  # posted once
