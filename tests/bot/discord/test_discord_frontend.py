"""The Discord front end against the fake Discord server, with a recording stand-in service."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from discord_harness import Recorder, running_front
from fake_discord import CHANNEL_ID, OTHER_CHANNEL_ID, FakeDiscord
from PIL import Image

from bot.core.api import Attachment, Button, ChatKey, Reply, User
from bot.core.commands import COMMANDS
from bot.discord_front.frontend import SYNC_HASH_KEY
from bot.store import SqliteStore

SNAPSHOT = Path(__file__).parent / "data" / "shogi_commands.json"
NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
OTHERS = ("ru", "ja", "pl")  # every catalogue language but English, Discord's default


def discord_name(name: str) -> bool:
    """Discord's rule for a localized command or option name: 1 to 32 letters, digits, ``-``
    and ``_``, in lower case where the script has case."""
    return (
        1 <= len(name) <= 32
        and all(c.isalnum() or c in "-_" for c in name)
        and name == name.lower()
    )


def check_localized_names(names: list[dict[str, Any]]) -> None:
    """Every name of ``names`` (the subcommands of the group, or the options of one subcommand)
    in every other language: there, within Discord's rule and unique among its siblings."""
    for lang in OTHERS:
        localized = [n["name_localizations"][lang] for n in names]
        for name in localized:
            assert discord_name(name), (lang, name)
        assert len(set(localized)) == len(localized), (lang, localized)


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (12, 8), (200, 150, 62)).save(buf, "PNG")
    return buf.getvalue()


def data_attachment(upload: Any) -> dict[str, Any]:
    attachments: list[dict[str, Any]] = upload.json["data"]["attachments"]
    return attachments[0]


def stable(payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The synced payload without the ids the server assigned."""
    drop = {"id", "application_id", "version", "guild_id"}
    return [{k: v for k, v in cmd.items() if k not in drop} for cmd in payload]


def check_limits(option: dict[str, Any], depth: int = 0) -> None:
    assert NAME.match(option["name"]), option["name"]
    assert 1 <= len(option["description"]) <= 100, option
    subs = option.get("options", [])
    assert len(subs) <= 25, option["name"]
    assert len(option.get("choices") or []) <= 25
    for choice in option.get("choices") or []:
        assert 1 <= len(choice["name"]) <= 100 and len(str(choice["value"])) <= 100
    if option.get("autocomplete"):
        assert not option.get("choices"), "Discord forbids choices together with autocomplete"
    required = [o.get("required", False) for o in subs if o["type"] not in (1, 2)]
    assert required == sorted(required, reverse=True), "required options must come first"
    for sub in subs:
        check_limits(sub, depth + 1)


async def test_sync_registers_one_group_within_discord_limits(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, running_front(fake, Recorder(), tmp_path) as front:
        assert front.synced
        payload = fake.commands["global"]
        assert fake.identifies[0]["presence"]["game"]["name"] == "/shogi help"
    assert [c["name"] for c in payload] == ["shogi"]
    group = payload[0]
    subcommands = group["options"]
    assert [s["name"] for s in subcommands] == [c.name for c in COMMANDS]
    assert all(s["type"] == 1 for s in subcommands)
    assert len(subcommands) <= 25
    check_limits(group)
    options = {s["name"]: {o["name"]: o for o in s.get("options", [])} for s in subcommands}
    assert options["challenge"]["opponent"]["type"] == 6  # a user picker
    assert options["move"]["move"]["autocomplete"] and options["move"]["move"]["required"]
    assert options["piece"]["name"]["autocomplete"]
    assert options["challenge"]["time"]["autocomplete"]
    assert [c["value"] for c in options["challenge"]["variant"]["choices"]] == [
        "shogi",
        "wa",
        "wa-drops",
    ]
    assert options["board"]["game"]["type"] == 3 and options["board"]["game"]["autocomplete"]
    assert options["accept"]["challenge"]["autocomplete"]
    others = OTHERS
    check_localized_names(subcommands)
    for sub in subcommands:
        check_localized_names(sub.get("options", []))
    subnames = {s["name"]: s for s in subcommands}
    assert subnames["resign"]["name_localizations"] == {
        "ru": "сдаться",
        "ja": "投了",
        "pl": "poddaj",
    }
    assert options["move"]["game"]["name_localizations"] == {
        "ru": "партия",
        "ja": "対局",
        "pl": "partia",
    }
    assert group["description_localizations"] == {
        "ru": "Сёги и ва-сёги по переписке",
        "ja": "本将棋と和将棋を通信対局で",
        "pl": "Graj w shogi i wa shogi korespondencyjnie",
    }
    for sub, command in zip(subcommands, COMMANDS, strict=True):  # the catalogue's words
        assert sub["description_localizations"] == {k: command.summary(k) for k in others}
        for option in sub.get("options", []):
            assert set(option["description_localizations"]) == set(others), option["name"]
    variant = options["challenge"]["variant"]
    assert variant["choices"][2]["name"] == "Wa Shogi with drops"
    assert variant["choices"][2]["name_localizations"] == {
        "ru": "ва-сёги со сбросами",
        "ja": "和将棋（持ち駒あり）",
        "pl": "wa shogi z powrotami do gry",
    }
    color = options["challenge"]["color"]["choices"]
    assert [c["name_localizations"]["ru"] for c in color] == [
        "случайно",
        "сэнтэ (ходит первым)",
        "готэ",
    ]
    if os.environ.get("KOMABOT_UPDATE_SNAPSHOTS") == "1":
        text = json.dumps(stable(payload), indent=1, ensure_ascii=False, sort_keys=True)
        SNAPSHOT.write_text(text + "\n", encoding="utf-8")
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert stable(payload) == expected, (
        f"the /shogi payload changed; if that is intended, run this test with "
        f"KOMABOT_UPDATE_SNAPSHOTS=1 to rewrite {SNAPSHOT.name}"
    )


async def test_restart_with_unchanged_commands_does_not_sync_again(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        async with running_front(fake, Recorder(), tmp_path) as front:
            assert front.synced
        async with running_front(fake, Recorder(), tmp_path) as front:
            assert not front.synced
        puts = [r for r in fake.requests if r.method == "PUT"]
        assert len(puts) == 1


async def test_guild_sync_when_guild_ids_are_configured(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = {"DISCORD_GUILD_IDS": "900000000000000100"}
        async with running_front(fake, Recorder(), tmp_path, **env):
            assert "global" not in fake.commands
            assert [c["name"] for c in fake.commands["900000000000000100"]] == ["shogi"]


async def test_slash_options_become_a_request(tmp_path: Path) -> None:
    rec = Recorder()
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        body = await fake.slash(alice, "challenge", opponent=bob, variant="wa", time="3d")
    assert body["type"] == 4
    req = rec.requests[0]
    assert req.command == "challenge"
    assert req.chat == ChatKey("discord", str(CHANNEL_ID))
    assert req.user == User("discord", "111", "alice")
    assert req.target == User("discord", "222", "bob")
    assert req.args == ("wa", "3d")
    # "threads": a challenge may move to a thread; "admin": alice may manage the channel
    assert req.options == {
        "opponent": "222",
        "variant": "wa",
        "time": "3d",
        "threads": "1",
        "admin": "1",
    }


async def test_the_bot_itself_as_opponent_is_to_bot(tmp_path: Path) -> None:
    """Picked in the opponent option or mentioned in a text command, the bot is no person."""
    rec = Recorder()
    env = {"DISCORD_MESSAGE_CONTENT": "1"}
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path, **env):
        alice = fake.user(111, "alice")
        await fake.slash(alice, "challenge", opponent=fake.bot, variant="wa", level="4")
        await fake.say(alice, f"!challenge <@{fake.bot.id}> shogi")
        await fake.wait_for(lambda: len(rec.requests) >= 2)
    slash, typed = rec.requests
    assert (slash.to_bot, slash.target, slash.args) == (True, None, ("wa", "4"))
    assert (typed.to_bot, typed.target, typed.args) == (True, None, ("shogi",))
    assert typed.unknown_mentions == ()


async def test_board_image_is_uploaded_as_png_inside_an_embed_with_mention(tmp_path: Path) -> None:
    png = png_bytes()
    bob = User("discord", "222", "bob")
    board = Reply(
        "Game #1: alice vs bob\nalice played P-7f.\nbob (gote) to move — deadline in 3d.",
        image=Attachment(png, "board.png", "image/png"),
        mentions=(bob, User("telegram", "5", "tg")),
        buttons=((Button("Resign", "resign 1", "danger"),),),
    )
    rec = Recorder(replies={"board": board})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice = fake.user(111, "alice")
        await fake.slash(alice, "board")
        upload = next(r for r in fake.requests if r.path.endswith("/callback"))
        msg = fake.last_message()
    assert upload.multipart
    assert [(f.field, f.filename) for f in upload.files] == [("files[0]", "board.png")]
    assert data_attachment(upload) == {
        "id": 0,
        "filename": "board.png",
        "description": "Game #1: alice vs bob",
    }
    assert upload.files[0].data == png and upload.files[0].data.startswith(b"\x89PNG")
    data = upload.json["data"]
    embed = data["embeds"][0]
    assert embed["image"]["url"] == "attachment://board.png"
    assert embed["title"] == "Game #1: alice vs bob"
    assert "bob (gote) to move" in embed["description"]
    assert data["content"] == "<@222>"  # the player to move is pinged; other platforms are not
    assert data["allowed_mentions"] == {"parse": [], "users": [222]}
    assert msg["components"][0]["components"][0]["custom_id"] == "resign 1"
    assert not data.get("flags")


async def test_user_errors_are_ephemeral(tmp_path: Path) -> None:
    rec = Recorder(replies={"move": Reply("Not played: no piece on 7g.", ephemeral=True)})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        body = await fake.slash(fake.user(111, "alice"), "move", move="7g7f")
    assert body["data"]["flags"] & 64
    assert body["data"]["content"] == "Not played: no piece on 7g."


async def test_service_failure_is_answered_once_and_politely(tmp_path: Path) -> None:
    async def broken(request: Any) -> Reply:
        raise RuntimeError("boom")

    async with FakeDiscord() as fake, running_front(fake, broken, tmp_path):
        body = await fake.slash(fake.user(111, "alice"), "board")
    assert body["data"]["flags"] & 64
    assert "Something went wrong" in body["data"]["content"]


async def test_slow_service_is_deferred_then_followed_up(tmp_path: Path) -> None:
    rec = Recorder(delay=0.2)
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path) as front:
        front.answer_within = 0.02
        body = await fake.slash(fake.user(111, "alice"), "board")
        assert body["type"] == 5  # "thinking..."
        msg = await fake.wait_for(
            lambda: next((m for m in fake.messages.values() if m["content"].startswith("ok")), None)
        )
    assert msg["content"] == "ok board ()"
    assert not msg["flags"] & 128  # no longer loading


async def test_slow_user_error_still_ends_ephemeral(tmp_path: Path) -> None:
    rec = Recorder(delay=0.2, replies={"board": Reply("No game here.", ephemeral=True)})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path) as front:
        front.answer_within = 0.02
        await fake.slash(fake.user(111, "alice"), "board")
        msg = await fake.wait_for(
            lambda: next((m for m in fake.messages.values() if m["content"]), None)
        )
        assert msg["content"] == "No game here." and msg["flags"] & 64
        assert [m for m in fake.messages.values() if m["flags"] & 128] == []


CARD = Reply(
    "Challenge #7: alice challenges bob to shogi.",
    buttons=((Button("Accept", "accept 7", "success"), Button("Decline", "decline 7", "danger")),),
    card="challenge:7",
)


async def test_button_click_and_card_edit_survive_a_restart(tmp_path: Path) -> None:
    rec = Recorder(replies={"challenge": CARD, "accept": Reply("Game #1 begins.")})
    async with FakeDiscord() as fake:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        async with running_front(fake, rec, tmp_path):
            await fake.slash(alice, "challenge", opponent=bob)
            card = fake.last_message()
        assert [c["custom_id"] for c in card["components"][0]["components"]] == [
            "accept 7",
            "decline 7",
        ]
        # A new process: the button posted by the old one still works, and the card it
        # remembered is edited in place.
        async with running_front(fake, rec, tmp_path) as front:
            body = await fake.click(bob, card, "accept 7")
            chat = ChatKey("discord", str(CHANNEL_ID))
            await front.edit_card(chat, "challenge:7", Reply("Challenge #7 was accepted by bob."))
        req = rec.requests[-1]
        assert (req.command, req.args, req.user.id) == ("accept", ("7",), "222")
        assert req.options == {"button": "1"}
        assert body["type"] == 4 and body["data"]["content"] == "Game #1 begins."
        edited = fake.messages[int(card["id"])]
        assert edited["content"] == "Challenge #7 was accepted by bob."
        assert edited["components"] == []  # the buttons are gone once answered
        assert edited["_edits"] == 1


async def test_a_click_is_handled_once_by_the_process_that_posted_the_button(
    tmp_path: Path,
) -> None:
    rec = Recorder(replies={"challenge": CARD})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        await fake.slash(alice, "challenge", opponent=bob)
        card = fake.last_message()
        await fake.click(bob, card, "decline 7")
    assert [(r.command, r.args) for r in rec.requests] == [("challenge", ()), ("decline", ("7",))]
    assert len(fake.callbacks) == 2


async def test_an_expired_interaction_still_gets_its_reply_posted(tmp_path: Path) -> None:
    rec = Recorder(replies={"move": Reply("alice played P-7f.\nbob to move.")})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        fake.expire_interactions = True
        await fake.slash(fake.user(111, "alice"), "move", move="7g7f")
        msg = await fake.wait_for(lambda: fake.channel_messages() and fake.last_message())
    assert msg["content"] == "alice played P-7f.\nbob to move."


async def test_a_private_prompt_loses_its_buttons_once_pressed(tmp_path: Path) -> None:
    prompt = Reply(
        "Really resign game #1?",
        buttons=((Button("Resign", "resign confirm 1", "danger"),),),
        ephemeral=True,
    )
    rec = Recorder(replies={"resign": prompt})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice = fake.user(111, "alice")
        await fake.slash(alice, "resign")
        asked = fake.last_message()
        assert asked["flags"] & 64 and asked["components"]
        rec.replies["resign"] = Reply("alice resigned. bob wins by resignation.")
        body = await fake.click(alice, asked, "resign confirm 1")
        result = await fake.wait_for(
            lambda: "resigned" in fake.last_message()["content"] and fake.last_message()
        )
    assert body["type"] == 7  # the prompt is updated in place...
    assert fake.messages[int(asked["id"])]["components"] == []  # ...without its button
    assert not result["flags"] & 64  # and the result is public
    assert rec.requests[-1].args == ("confirm", "1")


async def test_a_failing_click_is_reported_privately(tmp_path: Path) -> None:
    rec = Recorder(replies={"challenge": CARD})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path) as front:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        await fake.slash(alice, "challenge", opponent=bob)

        async def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("the front end itself failed")

        front.answer = broken  # type: ignore[method-assign]
        body = await fake.click(bob, fake.last_message(), "accept 7")
    assert body["data"]["flags"] & 64
    assert body["data"]["content"].startswith("Something went wrong")


async def test_edit_of_an_unknown_card_posts_it(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, running_front(fake, Recorder(), tmp_path) as front:
        chat = ChatKey("discord", str(CHANNEL_ID))
        await front.edit_card(chat, "challenge:99", Reply("Challenge #99 expired."))
        assert fake.last_message()["content"] == "Challenge #99 expired."


async def test_rate_limited_send_is_retried(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, running_front(fake, Recorder(), tmp_path) as front:
        fake.rate_limit("POST", r"^/channels/\d+/messages$", retry_after=0.05)
        await front.send(ChatKey("discord", str(OTHER_CHANNEL_ID)), Reply("⏰ bob, your move."))
        posts = [r for r in fake.requests if r.path.endswith("/messages") and r.method == "POST"]
        assert [r.status for r in posts] == [429, 200]
        assert fake.last_message(OTHER_CHANNEL_ID)["content"] == "⏰ bob, your move."


async def test_send_by_dm(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, running_front(fake, Recorder(), tmp_path) as front:
        fake.user(111, "alice")
        await front.send(ChatKey("discord", "dm:111"), Reply("⏰ alice, your move."))
        dm = next(c for c in fake.channels.values() if c["type"] == 1)
        assert fake.last_message(int(dm["id"]))["content"] == "⏰ alice, your move."


async def test_autocomplete_piece_names_within_limits(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, running_front(fake, Recorder(), tmp_path):
        alice = fake.user(111, "alice")
        everything = await fake.autocomplete(alice, "piece", "name", name="", variant="wa")
        typed = await fake.autocomplete(alice, "piece", "name", name="swa", variant="wa")
        kanji = await fake.autocomplete(alice, "piece", "name", name="飛", variant="shogi")
    assert len(everything) == 25
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in everything)
    assert [c["value"] for c in typed] == ["swallow's wings", "gliding swallow"]
    assert kanji[0]["value"] == "rook"


async def test_autocomplete_time_offers_usual_and_typed_durations(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, running_front(fake, Recorder(), tmp_path):
        alice = fake.user(111, "alice")
        usual = await fake.autocomplete(alice, "challenge", "time", time="")
        typed = await fake.autocomplete(alice, "challenge", "time", time="36h")
        byoyomi = await fake.autocomplete(alice, "play", "time", time="20m+45s")
    assert [c["value"] for c in usual] == ["1d", "3d", "7d", "none", "5m+30s", "10m+30s"]
    assert typed[0]["value"] == "36h"
    assert byoyomi[0]["value"] == "20m+45s"


async def test_autocomplete_moves_come_from_the_service_and_are_clipped(tmp_path: Path) -> None:
    many = tuple(Button(f"P-{i}f " + "x" * 120, f"{i}g{i}f") for i in range(40))
    rec = Recorder(replies={"complete": Reply("", buttons=(many,))})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice = fake.user(111, "alice")
        choices = await fake.autocomplete(alice, "move", "move", move="P", game="3")
    assert len(choices) == 25
    assert all(len(c["name"]) <= 100 for c in choices)
    req = rec.requests[-1]
    assert (req.command, req.args) == ("complete", ("move", "move", "P"))
    assert req.options == {"game": "3"}


async def test_slow_autocomplete_answers_empty_in_time(tmp_path: Path) -> None:
    rec = Recorder(delay=5)
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        from bot.discord_front import frontend

        old = frontend.COMPLETE_WITHIN
        frontend.COMPLETE_WITHIN = 0.05
        try:
            choices = await fake.autocomplete(fake.user(111, "a"), "move", "move", move="7")
        finally:
            frontend.COMPLETE_WITHIN = old
    assert choices == []


async def test_text_commands_with_prefix_and_mentions(tmp_path: Path) -> None:
    rec = Recorder(replies={"challenge": CARD})
    env = {"DISCORD_MESSAGE_CONTENT": "1", "DISCORD_PREFIX": "?"}
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path, **env) as front:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        robot = fake.user(333, "otherbot", bot=True)
        said = await fake.say(alice, "?shogi challenge <@222> wa 3d")
        sent = await fake.wait_for(
            lambda: len(fake.channel_messages()) >= 2 and fake.last_message()
        )
        chat = ChatKey("discord", str(CHANNEL_ID))
        async with asyncio.timeout(10):  # the card is remembered once Discord has answered
            while await front.cards.find(chat.key, "challenge:7") is None:
                await asyncio.sleep(0.01)
        await front.edit_card(chat, "challenge:7", Reply("accepted"))
        await fake.say(robot, "?board")  # other bots are ignored
        await fake.say(alice, "!board")  # not our prefix
        await fake.say(alice, "?dance")  # not our command: maybe another bot's
        await fake.say(alice, "?")
        await fake.say(bob, "?c <@222>")  # an alias
        await fake.say(bob, "?shogi")  # the group name alone asks for help
        await fake.wait_for(lambda: len(rec.requests) >= 3)
    first, second, third = rec.requests
    assert (first.command, first.args, first.target) == (
        "challenge",
        ("wa", "3d"),
        User("discord", "222", "bob"),
    )
    assert str(sent["message_reference"]["message_id"]) == said["id"]
    assert fake.messages[int(sent["id"])]["content"] == "accepted"
    assert (second.command, second.user.id, second.target) == (
        "challenge",
        "222",
        User("discord", "222", "bob"),
    )
    assert (third.command, third.args) == ("help", ())
    assert intents_of(fake) & (1 << 15)  # message content intent requested


def intents_of(fake: FakeDiscord) -> int:
    return int(fake.identifies[-1]["intents"])


async def test_message_content_intent_not_granted_says_what_to_do(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.privileged = False
        with pytest.raises(RuntimeError, match="Privileged Gateway Intents"):
            async with running_front(fake, Recorder(), tmp_path, DISCORD_MESSAGE_CONTENT="1"):
                pass


async def test_without_message_content_text_is_ignored(tmp_path: Path) -> None:
    rec = Recorder()
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        await fake.say(fake.user(111, "alice"), "!board")
        await fake.slash(fake.user(111, "alice"), "games")
    assert [r.command for r in rec.requests] == ["games"]
    assert not intents_of(fake) & (1 << 15)


async def test_possible_bare_moves_go_to_the_service_which_decides(tmp_path: Path) -> None:
    silent = Reply("", silent=True)
    rec = Recorder(replies={"move": silent})
    async with (
        FakeDiscord() as fake,
        running_front(fake, rec, tmp_path, DISCORD_MESSAGE_CONTENT="1"),
    ):
        alice = fake.user(111, "alice")
        await fake.say(alice, "hello everyone")  # names no square: never asked about
        await fake.say(alice, "see you at 7 tonight")  # several words: chatter
        await fake.say(alice, "7g7f", channel_id=OTHER_CHANNEL_ID)
        said = await fake.say(alice, "７六歩")
        await fake.wait_for(lambda: len(rec.requests) == 2)
        await asyncio.sleep(0.05)
        assert fake.last_message()["id"] == said["id"]  # the service said silent: no answer
    assert [(r.command, r.args, r.options) for r in rec.requests] == [
        ("move", ("7g7f",), {"bare": "1"}),
        ("move", ("７六歩",), {"bare": "1"}),
    ]


async def test_a_refused_bare_move_is_answered_briefly(tmp_path: Path) -> None:
    rec = Recorder(
        replies={"move": Reply("It's bob's turn in game #1, not yours.", ephemeral=True)}
    )
    env = {"DISCORD_MESSAGE_CONTENT": "1"}
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path, **env) as front:
        front.bare_error_seconds = 0.05
        said = await fake.say(fake.user(111, "alice"), "7g7f")
        answer = await fake.wait_for(
            lambda: fake.last_message()["id"] != said["id"] and fake.last_message()
        )
        assert answer["content"] == "It's bob's turn in game #1, not yours."
        await fake.wait_for(lambda: int(answer["id"]) not in fake.messages)
    assert int(said["id"]) in fake.messages  # the player's own message stays


async def test_thread_per_game(tmp_path: Path) -> None:
    rec = Recorder(replies={"challenge": CARD}, threads=True)
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        body = await fake.slash(alice, "challenge", opponent=bob)
    thread = next(c for c in fake.channels.values() if c["type"] == 11)
    assert thread["parent_id"] == str(CHANNEL_ID) and thread["name"] == "Shogi: alice's challenge"
    asked, threaded = rec.requests
    assert asked.chat == ChatKey("discord", str(CHANNEL_ID)) and asked.options["threads"] == "1"
    assert threaded.chat == ChatKey("discord", thread["id"]) and "threads" not in threaded.options
    assert threaded.options["parent"] == str(CHANNEL_ID)
    assert f"<#{thread['id']}>" in body["data"]["content"]
    card = fake.last_message(int(thread["id"]))
    assert card["content"].startswith("Challenge #7")


async def test_a_refused_challenge_leaves_no_thread(tmp_path: Path) -> None:
    rec = Recorder(
        replies={"challenge": Reply("You can't challenge yourself.", ephemeral=True)}, threads=True
    )
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice = fake.user(111, "alice")
        body = await fake.slash(alice, "challenge", opponent=alice)
    assert body["data"]["flags"] & 64
    assert [c for c in fake.channels.values() if c["type"] == 11] == []
    assert any(r.method == "DELETE" for r in fake.requests)


async def test_shards(tmp_path: Path) -> None:
    rec = Recorder()
    async with FakeDiscord() as fake:
        async with running_front(fake, rec, tmp_path, DISCORD_SHARD_COUNT="2") as front:
            await fake.wait_connected(shards=2)
            await fake.slash(fake.user(111, "alice"), "games")
            assert front.client.shard_count == 2
        assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]
    assert [r.command for r in rec.requests] == ["games"]


async def test_automatic_shard_count_asks_discord(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        async with running_front(fake, Recorder(), tmp_path, DISCORD_SHARD_COUNT="auto"):
            pass
        assert any(r.path == "/gateway/bot" for r in fake.requests)
        assert [i["shard"] for i in fake.identifies] == [[0, 1]]


async def test_bad_token_fails_loudly(tmp_path: Path) -> None:
    import discord

    async with FakeDiscord(token="right") as fake:
        with pytest.raises(discord.LoginFailure):
            async with running_front(fake, Recorder(), tmp_path, DISCORD_TOKEN="wrong"):
                pass


async def test_cli_sync_only_registers_the_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from bot.cli import main

    async with FakeDiscord() as fake:
        for key, value in fake.env(KOMABOT_DB=str(tmp_path / "komabot.sqlite3")).items():
            monkeypatch.setenv(key, value)
        code = await asyncio.to_thread(main, ["discord", "--sync-only"])
        assert code == 0
        assert [c["name"] for c in fake.commands["global"]] == ["shogi"]
        assert fake.identifies == []  # logged in over REST only; no gateway session
    assert sorted(p.name for p in tmp_path.iterdir() if "discord" in p.name) == []
    store = await SqliteStore.open(tmp_path / "komabot.sqlite3")  # the hash is in the main DB
    try:
        assert await store.get_state("discord", "meta", SYNC_HASH_KEY) is not None
    finally:
        await store.close()


async def test_cli_sync_only_with_a_refused_token_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from bot.cli import main

    async with FakeDiscord(token="right-token") as fake:
        env = fake.env(KOMABOT_DB=str(tmp_path / "komabot.sqlite3"), DISCORD_TOKEN="WRONG-SECRET")
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        code = await asyncio.to_thread(main, ["discord", "--sync-only"])
    assert code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refused DISCORD_TOKEN" in err
    assert "WRONG-SECRET" not in err and "Traceback" not in err


async def test_run_app_exits_non_zero_when_discord_refuses_the_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    from bot.app import EXIT_FRONT_END_FAILED, run_app
    from bot.config import Config
    from bot.discord_front import DiscordFrontEnd, DiscordSettings

    async with FakeDiscord(token="right-token") as fake:
        config = Config(db_path=tmp_path / "komabot.sqlite3", discord_token="WRONG-SECRET")
        settings = DiscordSettings.from_env(fake.env(DISCORD_TOKEN="WRONG-SECRET"))
        front = DiscordFrontEnd(config, settings=settings, guild_ready_timeout=0.02)
        with caplog.at_level(logging.DEBUG):
            code = await run_app(config, [front])
    assert code == EXIT_FRONT_END_FAILED
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [
        "discord front end stopped: Discord refused DISCORD_TOKEN (Improper token has been passed.)"
    ]
    assert all("WRONG-SECRET" not in r.getMessage() for r in caplog.records)


def closed_port() -> int:
    """A port on 127.0.0.1 that nobody listens on (bound for a moment, then let go)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_a_gateway_that_comes_up_late_is_waited_for(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    from bot.discord_front import DiscordFrontEnd, DiscordSettings

    async with FakeDiscord() as fake:
        fake.gateway_down = 2
        store = await SqliteStore.open(tmp_path / "komabot.sqlite3")
        front = DiscordFrontEnd(settings=DiscordSettings.from_env(fake.env()))
        front.attach_state(store)
        front.start_pauses = (0.01, 0.01, 0.01)
        stop = asyncio.Event()
        with caplog.at_level(logging.WARNING):
            task = asyncio.create_task(front.run(Recorder(), stop))
            try:
                await asyncio.wait_for(front.ready.wait(), 10)
            finally:
                stop.set()
                await asyncio.wait_for(task, 10)
                await store.close()
    assert fake.gateway_refusals == 2 and len(fake.identifies) == 1
    retries = [r.getMessage() for r in caplog.records if "trying again" in r.getMessage()]
    assert len(retries) == 2
    assert retries[0].startswith(f"could not reach the Discord gateway at {fake.gateway_url} (")


@pytest.mark.parametrize("down", ["gateway", "api"])
async def test_an_unreachable_discord_ends_in_one_line_naming_it(
    down: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Retried, then ``komabot discord`` exits 1 with one line, not discord.py's
    ``AttributeError: 'NoneType' object has no attribute 'sequence'``."""
    import logging

    from bot.app import EXIT_FRONT_END_FAILED, run_app
    from bot.config import Config
    from bot.discord_front import DiscordFrontEnd, DiscordSettings

    nobody = closed_port()
    async with FakeDiscord() as fake:
        if down == "gateway":
            where = f"ws://127.0.0.1:{nobody}/gateway"
            env = fake.env(DISCORD_GATEWAY_URL=where)
            what = f"the Discord gateway at {where}"
        else:
            where = f"http://127.0.0.1:{nobody}/api/v10"
            env = fake.env(DISCORD_API_BASE=where)
            what = f"the Discord API at {where}"
        config = Config(db_path=tmp_path / "komabot.sqlite3")
        front = DiscordFrontEnd(config, settings=DiscordSettings.from_env(env))
        front.start_pauses = (0.01, 0.02)
        with caplog.at_level(logging.DEBUG):
            code = await asyncio.wait_for(run_app(config, [front]), 30)
    assert code == EXIT_FRONT_END_FAILED
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"discord front end stopped: could not reach {what} (3 attempts): ")
    assert f"127.0.0.1:{nobody}" in errors[0].split("attempts): ")[1]  # the network's own words
    assert not [r for r in caplog.records if "AttributeError" in r.getMessage()]
    assert sum("trying again" in r.getMessage() for r in caplog.records) == 2


async def test_the_server_is_the_community_of_slash_commands_and_page_buttons(
    tmp_path: Path,
) -> None:
    """Ratings are per server: the guild id rides on every request from a server channel,
    slash options and page buttons alike (``/shogi leaderboard wa 2``, then ▶)."""
    from fake_discord import GUILD_ID

    page = Reply(
        "🏆 Wa Shogi leaderboard, this server (page 2 of 3)",
        image=Attachment(png_bytes(), "leaderboard.png", "image/png"),
        buttons=((Button("◀ Page 1", "leaderboard wa 1"), Button("Page 3 ▶", "leaderboard wa 3")),),
    )
    rec = Recorder(replies={"leaderboard": page})
    async with FakeDiscord() as fake, running_front(fake, rec, tmp_path):
        alice = fake.user(111, "alice")
        await fake.slash(alice, "leaderboard", variant="wa", page="2")
        posted = fake.last_message()
        await fake.click(alice, posted, "leaderboard wa 3")
    slash, click = rec.requests
    assert (slash.command, slash.args) == ("leaderboard", ("wa", "2"))
    assert (click.command, click.args) == ("leaderboard", ("wa", "3"))
    for req in (slash, click):
        assert req.chat.community == str(GUILD_ID) and req.chat.community_id == str(GUILD_ID)
    assert [c["custom_id"] for c in posted["components"][0]["components"]] == [
        "leaderboard wa 1",
        "leaderboard wa 3",
    ]
