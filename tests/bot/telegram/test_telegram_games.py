"""Whole games on Telegram: the real ptb client, the real game service, a temporary SQLite file.

The fake Bot API server plays the part of Telegram and of the people in the chats.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.config import Config
from bot.core.api import ChatKey
from bot.core.clock import FakeClock
from bot.core.puzzle_book import PuzzleBook
from bot.core.service import GameService
from bot.store import SqliteStore
from bot.telegram_front import TelegramFrontEnd
from tests.bot.telegram.conftest import running, settings_for
from tests.bot.telegram.fake_botapi import JSON, FakeBotApi

ALICE = {"id": 2001, "is_bot": False, "first_name": "Alice", "username": "alice_k"}
BOB = {"id": 2002, "is_bot": False, "first_name": "Bob", "username": "bob_b"}
CAROL = {"id": 2003, "is_bot": False, "first_name": "Carol"}

# A helpmate: Alice (sente) pushes her rook pawn while Bob walks his king into it.
MATE = ("2g2f", "5a4b", "2f2e", "4b3b", "2e2d", "8b4b", "2d2c+")


@contextlib.asynccontextmanager
async def bot_over(
    fake: FakeBotApi,
    tmp_path: Path,
    clock: FakeClock | None = None,
    puzzle_book: PuzzleBook | None = None,
) -> AsyncIterator[tuple[GameService, TelegramFrontEnd]]:
    """The service on ``tmp_path``'s database with the Telegram front end, running (with
    ``puzzle_book``'s puzzles, else the shipped ones)."""
    config = Config(
        db_path=tmp_path / "komabot.sqlite3",
        telegram_token=fake.token,
        reminders=(3600,),
    )
    store = await SqliteStore.open(config.db_path)
    front = TelegramFrontEnd(config, settings_for(fake, tmp_path))
    service = GameService(
        store, config, clock=clock, outboxes={"telegram": front}, puzzle_book=puzzle_book
    )
    try:
        async with running(front, service.handle, state=store):
            yield service, front
    finally:
        await service.drain(10)  # an analysis's engine worker, if one was started
        await store.close()


def buttons_of(message: JSON) -> list[str]:
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [button["callback_data"] for row in rows for button in row]


def mentioned(message: JSON) -> list[int]:
    entities: list[JSON] = message.get("caption_entities") or message.get("entities") or []
    return [e["user"]["id"] for e in entities if e["type"] == "text_mention"]


async def start_game(fake: FakeBotApi, group: JSON, time: str = "1d") -> tuple[JSON, JSON]:
    """Alice challenges Bob (by replying to him), Bob presses Accept: (card, first board)."""
    hello = fake.send_text(group, BOB, "/games")  # Bob talks to the bot
    await fake.expect(1)
    fake.send_text(group, ALICE, f"/challenge shogi sente {time}", reply_to=hello["message_id"])
    (card,) = await fake.expect(1)
    assert "Bob" in card["text"] and "Alice" in card["text"]
    assert 2002 in mentioned(card)  # the challenged player is called
    accept = next(data for data in buttons_of(card) if data.startswith("accept "))
    query = fake.press(group, BOB, card["message_id"], accept)
    await fake.answered(query)
    (board,) = await fake.expect(1)
    return card, board


async def test_group_game_from_challenge_to_mate_and_export(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    group = fake.group_chat(-1001, "Shogi club")
    async with bot_over(fake, tmp_path):
        card, board = await start_game(fake, group)
        edited = fake.messages[(group["id"], card["message_id"])]
        assert "accepted by Bob" in edited["text"] and not buttons_of(edited)
        assert board["photo"] and board["_upload"].data.startswith(b"\x89PNG")
        assert "Alice" in board["caption"] and "deadline" in board["caption"]
        assert mentioned(board) == [2001]  # Alice is to move

        fake.fail_next("sendPhoto", retry_after=1)  # Telegram's flood limit bites once
        last = board
        for number, move in enumerate(MATE):
            mover = ALICE if number % 2 == 0 else BOB
            if number % 3 == 0:
                fake.send_text(group, mover, f"/move {move}")
            elif number % 3 == 1:
                fake.send_text(group, mover, move, reply_to=last["message_id"])  # reply to board
            else:
                fake.send_text(group, mover, f"/move@KomaTestBot {move}")
            (last,) = await fake.expect(1)
            assert last.get("photo"), last
        refused, *_ = fake.calls_of("sendPhoto")[1:]
        assert refused.status == 429  # the first move's board was refused once, then delivered

        assert "checkmate" in last["caption"] and "Alice wins" in last["caption"]
        assert "export kif 1" in buttons_of(last)
        query = fake.press(group, BOB, last["message_id"], "export kif 1")
        await fake.answered(query)
        (kif,) = await fake.expect(1)
        fake.send_text(group, ALICE, "/export kifu")
        (kifu,) = await fake.expect(1)
        fake.send_text(group, BOB, "/move 5a5b")  # after the end: a clear refusal
        (refusal,) = await fake.expect(1)

    assert kif["document"]["file_name"] == "game-1.kif"
    kif_text = kif["_upload"].data.decode("cp932")  # Shift-JIS, as KIF readers expect
    assert "Alice" in kif_text and "Bob" in kif_text and "詰" in kif_text
    assert kifu["document"]["file_name"] == "game-1.kifu"
    assert kifu["_upload"].data.decode("utf-8").count("\n") > len(MATE)
    assert "export kif 1" in buttons_of(fake.messages[(group["id"], last["message_id"])])
    assert refusal["reply_to_message"]["text"] == "/move 5a5b" and "photo" not in refusal
    assert not fake.callbacks_open  # every button press was answered


async def test_private_chat_moves_without_slash(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1002, "Club")
    alice_dm = fake.private_chat(ALICE)
    bob_dm = fake.private_chat(BOB)

    async def move_from_dm(dm: JSON, who: JSON, text: str) -> JSON:
        """A move typed in a private chat: answered there, and shown in the game's group."""
        fake.send_text(dm, who, text)
        in_group, in_dm = sorted(await fake.expect(2), key=lambda m: m["chat"]["id"])
        assert in_group["chat"]["id"] == group["id"] and in_dm["chat"]["id"] == dm["id"]
        assert in_group["caption"] == in_dm["caption"] and in_group.get("photo")
        return in_group

    async with bot_over(fake, tmp_path):
        await start_game(fake, group, time="none")
        first = await move_from_dm(alice_dm, ALICE, "7g7f 1")  # USI, naming the game
        second = await move_from_dm(bob_dm, BOB, "３四歩 1")  # Japanese
        third = await move_from_dm(alice_dm, ALICE, "P-7e #1")  # Western
        fake.send_text(bob_dm, BOB, "K-9z 1")
        (nonsense,) = await fake.expect(1)
        fake.send_text(alice_dm, ALICE, "3c3d 1")
        (not_yours,) = await fake.expect(1)
        fake.send_text(bob_dm, BOB, "board 1")
        (shown,) = await fake.expect(1)
    assert "Alice played" in first["caption"] and mentioned(first) == [2002]
    assert "Bob played" in second["caption"] and mentioned(second) == [2001]
    assert "Alice played" in third["caption"] and mentioned(third) == [2002]
    for refusal, dm in ((nonsense, bob_dm), (not_yours, alice_dm)):
        assert refusal["chat"]["id"] == dm["id"]
        assert "photo" not in refusal and "reply_to_message" not in refusal
    assert "9z" in nonsense["text"]
    assert "Bob" in not_yours["text"] and "turn" in not_yours["text"]
    assert shown["chat"]["id"] == 2002 and shown.get("photo")
    assert "Bob" in shown["caption"] and "to move" in shown["caption"]


async def test_restart_in_the_middle_of_a_game(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1003, "Club")
    async with bot_over(fake, tmp_path):
        _, board = await start_game(fake, group)
        fake.send_text(group, ALICE, "/move 2g2f")
        (board,) = await fake.expect(1)
        fake.send_text(group, CAROL, "/challenge wa")  # an open challenge left on the table
        (open_card,) = await fake.expect(1)
    assert fake.calls_of("getUpdates")

    calls_before = len(fake.calls)
    async with bot_over(fake, tmp_path):
        assert [c.method for c in fake.calls[calls_before : calls_before + 2]] == [
            "getMe",
            "setMyCommands",
        ]
        fake.send_text(group, BOB, "5a4b", reply_to=board["message_id"])
        (after,) = await fake.expect(1)
        cancel = next(d for d in buttons_of(open_card) if d.startswith("cancel "))
        query = fake.press(group, CAROL, open_card["message_id"], cancel)
        await fake.answered(query)
        fake.send_text(group, ALICE, "/board")
        (shown,) = await fake.expect(1)
    assert "Bob played" in after["caption"] and mentioned(after) == [2001]
    card_now = fake.messages[(group["id"], open_card["message_id"])]
    assert "withdrew" in card_now["text"] and not buttons_of(card_now)  # edited in place
    assert shown.get("photo") and "Alice" in shown["caption"]
    assert not fake.unread()


async def test_reminder_and_timeout_reach_the_chat(fake: FakeBotApi, tmp_path: Path) -> None:
    clock = FakeClock()
    group = fake.group_chat(-1004, "Club")
    async with bot_over(fake, tmp_path, clock) as (service, _front):
        await start_game(fake, group, time="1d")
        await clock.advance(23 * 3600 + 60)
        assert await service.fire_due()
        (reminder,) = await fake.expect(1)
        await clock.advance(3600)
        assert await service.fire_due()
        (timeout,) = await fake.expect(1)
    assert "Alice" in reminder["text"] and mentioned(reminder) == [2001]
    said: str = timeout.get("caption") or timeout.get("text") or ""
    assert "ran out of time" in said and "Bob wins" in said


async def test_outbox_targets_forum_topics(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1005, "Forum", forum=True)
    async with bot_over(fake, tmp_path) as (_service, front):
        from bot.core.api import Reply

        await front.send(ChatKey("telegram", str(group["id"]), "42"), Reply("Hello topic."))
        (message,) = await fake.expect(1)
    assert message["message_thread_id"] == 42


async def test_draw_offer_and_resignation_by_buttons(fake: FakeBotApi, tmp_path: Path) -> None:
    group = fake.group_chat(-1006, "Club")
    async with bot_over(fake, tmp_path):
        await start_game(fake, group, time="none")
        fake.send_text(group, ALICE, "/move 7g7f")
        await fake.expect(1)
        fake.send_text(group, ALICE, "/draw")
        (offer,) = await fake.expect(1)
        assert buttons_of(offer) == ["draw accept 1", "draw decline 1"]
        own = fake.press(group, ALICE, offer["message_id"], "draw accept 1")
        refused = await fake.answered(own)  # Alice cannot accept her own offer
        assert refused["show_alert"] == "true" and refused["text"]
        assert buttons_of(fake.messages[(group["id"], offer["message_id"])])
        declined = fake.press(group, BOB, offer["message_id"], "draw decline 1")
        await fake.answered(declined)
        (declined_note,) = await fake.expect(1)
        await fake.wait_until(lambda: fake.calls_of("editMessageReplyMarkup"))

        fake.send_text(group, BOB, "/resign")
        (confirm,) = await fake.expect(1)
        assert buttons_of(confirm) == ["resign confirm 1"]
        # Alice pressing Bob's confirmation must not resign Alice's side of the game
        meddler = fake.press(group, ALICE, confirm["message_id"], "resign confirm 1")
        assert (await fake.answered(meddler))["text"] == "That button is for someone else."
        assert buttons_of(fake.messages[(group["id"], confirm["message_id"])])
        really = fake.press(group, BOB, confirm["message_id"], "resign confirm 1")
        await fake.answered(really)
        (over,) = await fake.expect(1)
        await fake.wait_until(lambda: len(fake.calls_of("editMessageReplyMarkup")) == 2)
    assert "declined" in declined_note["text"]
    assert not buttons_of(fake.messages[(group["id"], offer["message_id"])])
    assert "Bob resigned" in over["caption"] and "Alice wins" in over["caption"]
    assert not buttons_of(fake.messages[(group["id"], confirm["message_id"])])
    assert not fake.callbacks_open


async def test_a_challenge_expiring_after_a_restart_is_edited_in_place(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    clock = FakeClock()
    group = fake.group_chat(-1007, "Club")
    async with bot_over(fake, tmp_path, clock):
        fake.send_text(group, ALICE, "/challenge wa-drops 3d")
        (card,) = await fake.expect(1)
        assert "accept 1" in buttons_of(card)
    async with bot_over(fake, tmp_path, clock) as (service, _front):
        await clock.advance(86400 + 60)
        assert await service.fire_due()
        await fake.wait_until(lambda: fake.calls_of("editMessageText"))
    expired = fake.messages[(group["id"], card["message_id"])]
    assert "expired" in expired["text"] and not buttons_of(expired)
    assert not fake.unread()  # edited, not posted again


async def test_reminders_by_private_message_when_chosen(fake: FakeBotApi, tmp_path: Path) -> None:
    clock = FakeClock()
    group = fake.group_chat(-1006, "Club")
    private = fake.private_chat(ALICE)  # Alice has started the bot: it may write to her
    async with bot_over(fake, tmp_path, clock) as (service, _front):
        fake.send_text(group, ALICE, "/settings reminders dm")
        (changed,) = await fake.expect(1)
        assert "reminders dm" in changed["text"]
        await start_game(fake, group, time="1d")
        await clock.advance(23 * 3600 + 60)
        assert await service.fire_due()
        (reminder,) = await fake.expect(1)
        await clock.advance(3600)
        assert await service.fire_due()
        in_group, in_private = await fake.expect(2)
    assert reminder["chat"]["id"] == private["id"] == 2001
    assert "Alice, it's your move in game #1" in reminder["text"]
    assert in_group["chat"]["id"] == group["id"]
    assert in_private["chat"]["id"] == private["id"]
    said: str = in_private.get("caption") or in_private.get("text") or ""
    assert "Alice ran out of time" in said and "Bob wins" in said


async def test_a_refused_private_reminder_goes_to_the_group(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    clock = FakeClock()
    group = fake.group_chat(-1007, "Club")  # Alice never started the bot in private
    async with bot_over(fake, tmp_path, clock) as (service, _front):
        fake.send_text(group, ALICE, "/settings reminders dm")
        await fake.expect(1)
        await start_game(fake, group, time="1d")
        await clock.advance(23 * 3600 + 60)
        assert await service.fire_due()
        (reminder,) = await fake.expect(1)
    assert reminder["chat"]["id"] == group["id"] and mentioned(reminder) == [2001]
    assert any(c.params.get("chat_id") == "2001" for c in fake.calls_of("sendMessage"))


async def test_only_group_admins_change_the_groups_settings(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    group = fake.group_chat(-1008, "Club")
    fake.members[(group["id"], BOB["id"])] = "member"
    async with bot_over(fake, tmp_path) as (service, _front):
        fake.send_text(group, BOB, "/settings notation japanese")
        (refused,) = await fake.expect(1)
        fake.send_text(group, BOB, "/settings reminders dm")
        (his_own,) = await fake.expect(1)
        fake.send_text(group, ALICE, "/settings notation japanese")
        (changed,) = await fake.expect(1)
        settings = await service.store.get_settings(ChatKey("telegram", str(group["id"])))
    assert "manage this chat" in refused["text"]
    assert "reminders dm" in his_own["text"]
    assert "notation japanese" in changed["text"] and settings.notation == "japanese"
    asked = [c.params.get("user_id") for c in fake.calls_of("getChatMember")]
    assert asked == [str(BOB["id"]), str(BOB["id"]), str(ALICE["id"])]


async def test_leaderboard_is_a_picture_with_page_buttons(fake: FakeBotApi, tmp_path: Path) -> None:
    """The group is the community: its settled players on an image, ten a page, ▶ and ◀."""
    import sqlite3

    group = fake.group_chat(-1001, "Shogi club")
    async with bot_over(fake, tmp_path):
        fake.send_text(group, ALICE, "/rating")  # the bot learns Alice; she has no games
        (none,) = await fake.expect(1)
        con = sqlite3.connect(tmp_path / "komabot.sqlite3")
        with con:
            for i in range(12):
                con.execute(
                    "INSERT INTO ratings VALUES ('telegram', '-1001', ?, 'shogi', ?, 60, 0.06, "
                    "20, 10, 10, 0, 1)",
                    (f"telegram:{3000 + i}", 2000.0 - i),
                )
            con.execute(
                "INSERT INTO ratings VALUES ('telegram', '-1001', 'telegram:2001', 'shogi', "
                "1995.5, 60, 0.06, 9, 5, 4, 0, 1)"
            )
        con.close()
        fake.send_text(group, ALICE, "/leaderboard shogi")
        (first,) = await fake.expect(1)
        first_buttons = buttons_of(first)  # (taken off once pressed: the next page has them)
        query = fake.press(group, BOB, first["message_id"], "leaderboard shogi 2")
        await fake.answered(query)
        (second,) = await fake.expect(1)
    assert "Alice has no rated games yet" in none["text"]
    assert first["photo"] and first["_upload"].data.startswith(b"\x89PNG")
    assert "page 1 of 2" in first["caption"] and "Your place: 6 of 13" in first["caption"]
    assert first_buttons == ["leaderboard shogi 2"]
    assert second["photo"] and "page 2 of 2" in second["caption"]
    assert buttons_of(second) == ["leaderboard shogi 1"]
    assert not fake.callbacks_open
