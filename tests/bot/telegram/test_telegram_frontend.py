"""The Telegram front end's translation, driven through the fake Bot API with a scripted handler.

The handler here stands in for the service so that each Telegram detail (addressing, targets,
captions, keyboards, callbacks, flood waits, webhooks) is checked on its own; the games with the
real service are in ``test_telegram_games.py``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import aiohttp
import pytest

from bot.core.api import Attachment, Button, ChatKey, Reply, Request
from bot.core.commands import COMMANDS
from bot.core.messages import text
from tests.bot.telegram.conftest import StartFront
from tests.bot.telegram.fake_botapi import FakeBotApi

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x03\x08\x02\x00\x00\x00"
    b"\x00\x00\x00\x00"
)


class Script:
    """A stand-in service: records requests and answers with ``answer(request)``."""

    def __init__(self, answer: Callable[[Request], Reply] | None = None) -> None:
        self.requests: list[Request] = []
        self.answer = answer or (lambda r: Reply(f"{r.command} {' '.join(r.args)}".strip()))

    async def __call__(self, request: Request) -> Reply:
        self.requests.append(request)
        return self.answer(request)


ALICE = {"id": 1001, "is_bot": False, "first_name": "Alice", "username": "alice_k"}
BOB = {
    "id": 1002,
    "is_bot": False,
    "first_name": "Bob",
    "last_name": "Stone",
    "username": "bobstone",
}
CAROL = {"id": 1003, "is_bot": False, "first_name": "Carol"}  # no username


async def test_commands_registered_from_the_command_table(
    fake: FakeBotApi, start_front: StartFront
) -> None:
    async with start_front(Script()):
        pass
    assert fake.commands is not None
    assert [c["command"] for c in fake.commands] == [c.name for c in COMMANDS]
    assert all(c["description"] for c in fake.commands)
    assert [c.method for c in fake.calls[:2]] == ["getMe", "setMyCommands"]


async def test_a_menu_per_catalogue_language(
    fake: FakeBotApi, start_front: StartFront, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.telegram_front.frontend as frontend

    monkeypatch.setattr(frontend, "LANGUAGES", ("en", "ru"))
    async with start_front(Script()):
        pass
    assert set(fake.menus) == {"", "ru"}
    assert [c["command"] for c in fake.menus["ru"]] == [c.name for c in COMMANDS]


async def test_menus_per_scope_and_language_and_a_description_per_language(
    fake: FakeBotApi, start_front: StartFront
) -> None:
    async with start_front(Script()):
        pass
    scopes = ("default", "all_private_chats", "all_group_chats", "all_chat_administrators")
    codes = ("", "ru", "ja", "pl")
    assert set(fake.scoped_menus) == {(s, c) for s in scopes for c in codes}
    every = [c.name for c in COMMANDS]
    for code in codes:
        assert [c["command"] for c in fake.scoped_menus[("all_private_chats", code)]] == every
        admins = fake.scoped_menus[("all_chat_administrators", code)]
        assert [c["command"] for c in admins] == every
        members = [c["command"] for c in fake.scoped_menus[("all_group_chats", code)]]
        assert "settings" not in members and set(members) == set(every) - {"settings"}
        assert fake.descriptions[code] and fake.short_descriptions[code]
    assert fake.scoped_menus[("all_private_chats", "ja")][0]["description"] == (
        COMMANDS[0].summary("ja")
    )
    assert fake.descriptions["ru"].startswith("Я Komabot")
    assert fake.short_descriptions["pl"].startswith("Shogi i wa shogi")


async def test_group_commands_mentions_and_replies(
    fake: FakeBotApi, start_front: StartFront
) -> None:
    script = Script()
    group = fake.group_chat(-100500, "Shogi club")
    async with start_front(script):
        fake.send_text(group, ALICE, "/move 7g7f")
        fake.send_text(group, ALICE, "/move@OtherBot 2g2f")  # for another bot
        fake.send_text(group, ALICE, "/move@KomaTestBot 3c3d")
        fake.send_text(group, ALICE, "/frobnicate")  # unknown, maybe another bot's
        fake.send_text(group, ALICE, "8h2b+")  # privacy mode would not even deliver it
        (first, second) = await fake.expect(2)
        fake.send_text(group, CAROL, "nice one!", reply_to=first["message_id"])  # a remark
        fake.send_text(group, CAROL, "no way", reply_to=first["message_id"])  # not /decline
        fake.send_text(group, BOB, "2c2d", reply_to=first["message_id"])  # reply to the bot
        fake.send_text(group, BOB, "@KomaTestBot board")  # mention of the bot
        await fake.expect(2)
    assert [(r.command, r.args) for r in script.requests] == [
        ("move", ("7g7f",)),
        ("move", ("3c3d",)),
        ("move", ("2c2d",)),
        ("board", ()),
    ]
    assert not any(r.to_bot for r in script.requests)  # "@KomaTestBot board" only addresses
    first_request = script.requests[0]
    assert first_request.chat == ChatKey("telegram", "-100500")
    assert first_request.options == {}
    assert first_request.user.id == "1001" and first_request.user.name == "Alice"
    assert script.requests[2].user.name == "Bob Stone"
    assert script.requests[2].target is None  # a reply to the bot names no opponent
    # replies in groups quote the command they answer
    assert first["reply_to_message"]["text"] == "/move 7g7f"
    assert first["text"] == "move 7g7f"
    assert second["text"] == "move 3c3d"
    assert not fake.unread()


async def test_private_chat_bare_text(fake: FakeBotApi, start_front: StartFront) -> None:
    script = Script()
    chat = fake.private_chat(ALICE)
    async with start_front(script):
        for line in ("7g7f", "P-7f 12", "７六歩", "help move", "/games", "/frobnicate"):
            fake.send_text(chat, ALICE, line)
        replies = await fake.expect(6)
    assert [(r.command, r.args) for r in script.requests] == [
        ("move", ("7g7f",)),
        ("move", ("P-7f", "12")),
        ("move", ("７六歩",)),
        ("help", ("move",)),
        ("games", ()),
        ("frobnicate", ()),  # the service explains unknown commands in private chats
    ]
    assert all("reply_to_message" not in m for m in replies)
    assert all(r.options == {"chat": "private"} for r in script.requests)


async def test_challenge_targets(fake: FakeBotApi, start_front: StartFront) -> None:
    script = Script()
    group = fake.group_chat(-100600, "Dojo")
    async with start_front(script):
        fake.send_text(group, BOB, "/help")  # the bot now knows @bobstone
        hello = fake.send_text(group, CAROL, "anyone for a game?")
        await fake.expect(1)
        fake.send_text(group, ALICE, "/challenge wa 3d", reply_to=hello["message_id"])
        fake.send_text(group, ALICE, "/challenge @BobStone shogi")
        fake.send_text(group, ALICE, "/challenge @stranger_x")
        fake.send_text(group, ALICE, "/challenge Carol gote", text_mentions=(("Carol", CAROL),))
        fake.send_text(group, ALICE, "/challenge")
        fake.send_text(group, ALICE, "/challenge @KomaTestBot wa", reply_to=hello["message_id"])
        await fake.expect(6)
    by_reply, by_username, unknown, by_text_mention, open_, the_bot = script.requests[1:]
    assert by_reply.target is not None and by_reply.target.id == "1003"
    assert by_reply.args == ("wa", "3d")
    assert by_username.target is not None and by_username.target.id == "1002"
    assert by_username.args == ("shogi",)
    assert unknown.target is None and unknown.args == ("@stranger_x",)  # the service says who
    assert by_text_mention.target is not None and by_text_mention.target.name == "Carol"
    assert by_text_mention.args == ("gote",)
    assert open_.target is None and open_.args == ()
    # the bot mentioned as the opponent (a reply to Carol names her no longer)
    assert the_bot.to_bot and the_bot.target is None and the_bot.args == ("wa",)
    assert not any(r.to_bot for r in script.requests[:-1])


async def test_board_photo_caption_long_text_and_documents(
    fake: FakeBotApi, start_front: StartFront
) -> None:
    board = Attachment(PNG, "board.png", "image/png")
    kifu = Attachment("先手：Alice\n".encode(), "game-3.kifu", "text/plain; charset=utf-8")
    kif = Attachment("先手：Alice\n".encode("cp932"), "game-3.kif", "text/plain; charset=shift_jis")
    buttons = ((Button("Resign", "resign 3", "danger"),),)
    replies = {
        "board": Reply("Bob played P-7f.\nAlice (sente) to move.", image=board, buttons=buttons),
        "moves": Reply("x" * 1500, image=board, buttons=buttons),
        "export": Reply("Game #3 as KIF.", files=(kif,)),
        "games": Reply("Two files.", files=(kifu, kif)),
        "help": Reply("line\n" * 1000),
    }
    script = Script(lambda r: replies[r.command])
    chat = fake.private_chat(ALICE)
    async with start_front(script):
        fake.send_text(chat, ALICE, "/board")
        photo = (await fake.expect(1))[0]
        fake.send_text(chat, ALICE, "/moves 7g")
        bare_photo, long_text = await fake.expect(2)
        fake.send_text(chat, ALICE, "/export kif")
        document = (await fake.expect(1))[0]
        fake.send_text(chat, ALICE, "/games")
        text_first, doc1, doc2 = await fake.expect(3)
        fake.send_text(chat, ALICE, "/help")
        part1, part2 = await fake.expect(2)
    assert photo["caption"] == "Bob played P-7f.\nAlice (sente) to move."
    assert photo["photo"][0]["width"] == 2
    assert photo["_upload"].data == PNG
    assert photo["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "resign 3"
    assert "caption" not in bare_photo and "reply_markup" not in bare_photo
    assert long_text["text"] == "x" * 1500 and "reply_markup" in long_text
    assert document["caption"] == "Game #3 as KIF."
    assert document["document"]["file_name"] == "game-3.kif"
    assert document["_upload"].data.decode("cp932") == "先手：Alice\n"
    assert text_first["text"] == "Two files."
    assert [doc1["document"]["file_name"], doc2["document"]["file_name"]] == [
        "game-3.kifu",
        "game-3.kif",
    ]
    assert (
        len(part1["text"]) <= 4096
        and part1["text"] + "\n" + part2["text"] == ("line\n" * 1000).strip()
    )


async def test_mentions_become_text_mentions(fake: FakeBotApi, start_front: StartFront) -> None:
    from bot.core.api import User

    carol = User("telegram", "1003", "Carol")
    script = Script(lambda r: Reply("Alice played P-7f. Carol (gote) to move.", mentions=(carol,)))
    group = fake.group_chat(-100700, "Club")
    async with start_front(script):
        fake.send_text(group, ALICE, "/move 7g7f")
        message = (await fake.expect(1))[0]
    (entity,) = message["entities"]
    assert entity["type"] == "text_mention" and entity["user"]["id"] == 1003
    assert message["text"][entity["offset"] : entity["offset"] + entity["length"]] == "Carol"


async def test_buttons_are_answered(fake: FakeBotApi, start_front: StartFront) -> None:
    def answer(request: Request) -> Reply:
        if request.command == "resign" and not request.args:
            return Reply(
                "Really resign?",
                buttons=((Button("Resign", "resign 4 yes"), Button("No", "noop 4")),),
            )
        if request.command == "resign":
            if request.user.id != "1001":
                return Reply("Only Alice can confirm.", ephemeral=True)
            return Reply("Alice resigned.")
        return Reply("x" * 300, ephemeral=True)

    script = Script(answer)
    group = fake.group_chat(-100800, "Club")
    async with start_front(script):
        fake.send_text(group, ALICE, "/resign")
        (prompt,) = await fake.expect(1)
        stranger = fake.press(group, BOB, prompt["message_id"], "resign 4 yes")
        assert (await fake.answered(stranger))["text"] == "Only Alice can confirm."
        assert fake.messages[(group["id"], prompt["message_id"])].get("reply_markup")
        long_one = fake.press(group, BOB, prompt["message_id"], "noop 4")
        await fake.answered(long_one)
        (long_reply,) = await fake.expect(1)  # too long for an alert: posted instead
        confirm = fake.press(group, ALICE, prompt["message_id"], "resign 4 yes")
        answer_fields = await fake.answered(confirm)
        (resigned,) = await fake.expect(1)
        await fake.wait_until(lambda: fake.calls_of("editMessageReplyMarkup"))
    assert answer_fields.get("show_alert") in (None, "false")
    assert resigned["text"] == "Alice resigned."
    assert long_reply["text"] == "x" * 300
    assert script.requests[-1].command == "resign" and script.requests[-1].args == ("4", "yes")
    # the answered question lost its buttons
    assert "reply_markup" not in fake.messages[(group["id"], prompt["message_id"])]
    assert not fake.callbacks_open


async def test_buttons_meant_for_one_person(fake: FakeBotApi, start_front: StartFront) -> None:
    def answer(request: Request) -> Reply:
        if request.args == ("confirm", "9"):
            return Reply(f"{request.user.name} resigned.")
        return Reply(
            "Really resign game #9?",
            buttons=((Button("Resign", "resign confirm 9", "danger"),),),
            ephemeral=True,
        )

    script = Script(answer)
    group = fake.group_chat(-100810, "Club")
    async with start_front(script):
        fake.send_text(group, ALICE, "/resign")
        (prompt,) = await fake.expect(1)
    async with start_front(script):  # the owner is remembered across a restart
        meddler = fake.press(group, BOB, prompt["message_id"], "resign confirm 9")
        refused = await fake.answered(meddler)
        assert refused["show_alert"] == "true" and refused["text"] == text("button.not_yours")
        owner = fake.press(group, ALICE, prompt["message_id"], "resign confirm 9")
        await fake.answered(owner)
        (done,) = await fake.expect(1)
    assert [(r.user.name, r.args) for r in script.requests] == [
        ("Alice", ()),
        ("Alice", ("confirm", "9")),
    ]
    assert done["text"] == "Alice resigned."


async def test_flood_limit_waits_and_delivers(fake: FakeBotApi, start_front: StartFront) -> None:
    board = Attachment(PNG, "board.png", "image/png")
    script = Script(lambda r: Reply("Alice played P-7f.", image=board))
    chat = fake.private_chat(ALICE)
    async with start_front(script):
        fake.fail_next("sendPhoto", retry_after=1)
        fake.send_text(chat, ALICE, "7g7f")
        (photo,) = await fake.expect(1)
    refused, accepted = fake.calls_of("sendPhoto")
    assert refused.status == 429 and accepted.status == 200
    assert accepted.at - refused.at >= 1.0  # retry_after honoured
    assert photo["caption"] == "Alice played P-7f."


async def test_cards_are_edited_in_place(fake: FakeBotApi, start_front: StartFront) -> None:
    card_reply = Reply(
        "Challenge #5: Alice challenges anyone.",
        buttons=((Button("Accept", "accept 5", "success"),),),
        card="challenge:5",
    )
    script = Script(lambda r: card_reply)
    group = fake.group_chat(-100900, "Club")
    chat = ChatKey("telegram", str(group["id"]))
    async with start_front(script) as front:
        fake.send_text(group, ALICE, "/challenge")
        (card,) = await fake.expect(1)
        async with asyncio.timeout(10):  # the card is remembered once Telegram has answered
            while await front.memory.card(chat.key, "challenge:5") is None:
                await asyncio.sleep(0.01)
        await front.edit_card(chat, "challenge:5", Reply("Challenge #5 expired."))
        await front.send(chat, Reply("⏰ Bob, it's your move."))
        (reminder,) = await fake.expect(1)
    edited = fake.messages[(group["id"], card["message_id"])]
    assert edited["text"] == "Challenge #5 expired." and "reply_markup" not in edited
    assert reminder["text"] == "⏰ Bob, it's your move."


async def test_card_survives_restart(fake: FakeBotApi, start_front: StartFront) -> None:
    card_reply = Reply(
        "Open challenge #6.", buttons=((Button("Accept", "accept 6"),),), card="challenge:6"
    )
    group = fake.group_chat(-100901, "Club")
    chat = ChatKey("telegram", str(group["id"]))
    async with start_front(Script(lambda r: card_reply)):
        fake.send_text(group, ALICE, "/challenge")
        (card,) = await fake.expect(1)
    async with start_front(Script()) as front:
        await front.edit_card(chat, "challenge:6", Reply("Challenge #6 expired."))
    assert fake.messages[(group["id"], card["message_id"])]["text"] == "Challenge #6 expired."
    assert not fake.unread()


async def test_webhook_mode(fake: FakeBotApi, start_front: StartFront) -> None:
    script = Script()
    chat = fake.private_chat(ALICE)
    url = "https://bot.example.org/tg/hook"
    async with start_front(
        script, webhook_url=url, webhook_listen="127.0.0.1", webhook_port=0, webhook_secret="s3cret"
    ) as front:
        assert fake.webhook_url == url
        (set_webhook,) = fake.calls_of("setWebhook")
        assert set_webhook.params["secret_token"] == "s3cret"
        assert not fake.calls_of("getUpdates")
        message = {
            "message_id": 1,
            "date": 0,
            "chat": chat,
            "from": ALICE,
            "text": "7g7f",
        }
        hook = f"http://127.0.0.1:{front.webhook_port}/tg/hook"
        async with aiohttp.ClientSession() as session:
            body = json.dumps({"update_id": 1, "message": message})
            async with session.post(hook, data=body) as refused:
                assert refused.status == 403
            headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
            async with session.post(hook, data=body, headers=headers) as accepted:
                assert accepted.status == 200
            async with session.post(hook, data="not json", headers=headers) as bad:
                assert bad.status == 400
        (reply,) = await fake.expect(1)
    assert reply["text"] == "move 7g7f"
    assert [(r.command, r.args) for r in script.requests] == [("move", ("7g7f",))]


@pytest.mark.parametrize("thread", [None, 77])
async def test_forum_topics_keep_their_thread(
    fake: FakeBotApi, start_front: StartFront, thread: int | None
) -> None:
    script = Script()
    group = fake.group_chat(-100950, "Forum", forum=True)
    async with start_front(script):
        fake.send_text(group, ALICE, "/board", thread_id=thread)
        (reply,) = await fake.expect(1)
    assert script.requests[0].chat.thread_id == (str(thread) if thread else None)
    assert reply.get("message_thread_id") == thread


async def test_updates_of_one_chat_keep_their_order(
    fake: FakeBotApi, start_front: StartFront
) -> None:
    order: list[str] = []

    async def slow_first(request: Request) -> Reply:
        if request.args == ("1",):
            await asyncio.sleep(0.2)
        order.append(request.args[0])
        return Reply(f"done {request.args[0]}")

    chat = fake.private_chat(ALICE)
    async with start_front(slow_first):
        for n in range(1, 4):
            fake.send_text(chat, ALICE, f"/board {n}")
        replies = await fake.expect(3)
    assert order == ["1", "2", "3"]
    assert [m["text"] for m in replies] == ["done 1", "done 2", "done 3"]


async def test_a_failing_handler_still_gets_an_answer(
    fake: FakeBotApi, start_front: StartFront
) -> None:
    def answer(request: Request) -> Reply:
        if request.command == "board":
            return Reply("Board.", buttons=((Button("Refresh", "explode 1"),),))
        raise RuntimeError("the service fell over")

    group = fake.group_chat(-100990, "Club")
    async with start_front(Script(answer)):
        fake.send_text(group, ALICE, "/board")
        (board,) = await fake.expect(1)
        fake.send_text(group, ALICE, "/games")
        (apology,) = await fake.expect(1)
        query = fake.press(group, ALICE, board["message_id"], "explode 1")
        alert = await fake.answered(query)
    assert "went wrong" in apology["text"] and "/games" in apology["text"]
    assert alert["show_alert"] == "true" and "went wrong" in alert["text"]


async def test_a_text_board_is_shown_in_monospace_when_there_is_no_picture(
    fake: FakeBotApi, start_front: StartFront
) -> None:
    board = "☖ gote Bob\n  9  8  7\n | vL vN vS | a\n☗ sente Alice"
    script = Script(lambda r: Reply("Alice played P-7f.", text_board=board))
    chat = fake.private_chat(ALICE)
    async with start_front(script):
        fake.send_text(chat, ALICE, "7g7f")
        (message,) = await fake.expect(1)
    assert message["text"] == f"Alice played P-7f.\n\n{board}"
    (pre,) = message["entities"]
    assert pre["type"] == "pre"
    raw = message["text"].encode("utf-16-le")
    shown = raw[pre["offset"] * 2 : (pre["offset"] + pre["length"]) * 2].decode("utf-16-le")
    assert shown == board
