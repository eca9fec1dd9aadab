"""End to end: the real game service over a temporary SQLite file, played through Discord."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from discord_harness import running_front
from fake_discord import CHANNEL_ID, FakeDiscord

from bot.config import Config
from bot.core.clock import FakeClock
from bot.core.service import GameService
from bot.discord_front import DiscordFrontEnd
from bot.store.sqlite import SqliteStore

RENDERS = importlib.util.find_spec("render.board") is not None


@contextlib.asynccontextmanager
async def service_over(
    tmp_path: Path, reminders: tuple[int, ...] = ()
) -> AsyncIterator[GameService]:
    store = await SqliteStore.open(tmp_path / "komabot.sqlite3", sync="normal")
    config = Config(db_path=tmp_path / "komabot.sqlite3", reminders=reminders)
    service = GameService(store, config, clock=FakeClock(), render_images=RENDERS)
    try:
        yield service
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def discord_for(
    fake: FakeDiscord, service: GameService, tmp_path: Path, **env: str
) -> AsyncIterator[DiscordFrontEnd]:
    async with running_front(fake, service.handle, tmp_path, state=service.store, **env) as front:
        service.outboxes["discord"] = front
        yield front


def buttons(message: dict[str, Any]) -> dict[str, str]:
    """label -> custom_id of every button on a message."""
    return {
        c["label"]: c["custom_id"]
        for row in message.get("components", [])
        for c in row["components"]
    }


def text_of(body: dict[str, Any]) -> str:
    data = body.get("data") or {}
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
    return "\n".join(parts)


def message_text(message: dict[str, Any]) -> str:
    return text_of({"data": message})


def interaction_message(fake: FakeDiscord, body_index: int = -1) -> dict[str, Any]:
    """The message created by the latest interaction answer."""
    return [m for m in fake.messages.values() if "_interaction_id" in m][body_index]


async def test_a_game_from_challenge_to_resignation(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        async with discord_for(fake, service, tmp_path):
            body = await fake.slash(alice, "challenge", opponent=bob, color="sente")
            assert "Challenge #1" in text_of(body), text_of(body)
            assert "<@222>" in body["data"]["content"]  # the challenged player is called
            card = interaction_message(fake)
            assert set(buttons(card).values()) == {"accept 1", "decline 1", "cancel 1"}

        # Restart: a new front end (and process state) over the same database and card index.
        async with discord_for(fake, service, tmp_path) as front:
            wrong = await fake.click(alice, card, "accept 1")
            assert wrong["data"]["flags"] & 64  # alice cannot accept her own challenge
            start = await fake.click(bob, card, "accept 1")
            assert "Game #1 begins" in text_of(start)
            assert "<@111>" in start["data"]["content"]  # alice (sente) is to move
            edited = fake.messages[int(card["id"])]
            assert "accepted by bob" in edited["content"] and edited["components"] == []
            if RENDERS:
                upload = [r for r in fake.requests if r.path.endswith("/callback")][-1]
                assert upload.files[0].data.startswith(b"\x89PNG")
                assert start["data"]["embeds"][0]["image"]["url"] == "attachment://board.png"

            bad = await fake.slash(bob, "move", move="3c3d")
            assert bad["data"]["flags"] & 64 and "alice" in text_of(bad)  # not bob's turn
            moved = await fake.slash(alice, "move", move="7g7f")
            assert any(m in text_of(moved) for m in ("P-7f", "7g7f", "７六歩")), text_of(moved)
            assert "<@222>" in moved["data"]["content"]  # now bob is called
            if RENDERS:
                upload = [r for r in fake.requests if r.path.endswith("/callback")][-1]
                assert upload.multipart and upload.files[0].data.startswith(b"\x89PNG")

            ask = await fake.slash(bob, "resign")
            assert ask["data"]["flags"] & 64
            confirm = interaction_message(fake)
            resign_id = next(v for v in buttons(confirm).values() if v.startswith("resign"))
            pressed = await fake.click(bob, confirm, resign_id)
            assert pressed["type"] == 7  # the private prompt loses its button...
            over = await fake.wait_for(  # ...and the result is posted for everyone
                lambda: fake.last_message()["id"] != confirm["id"] and fake.last_message()
            )
            assert not over["flags"] & 64, message_text(over)
            assert "alice wins by resignation" in message_text(over), message_text(over)
            assert any(v.startswith("export ") for v in buttons(over).values())
            assert front.client.user is not None


async def test_move_autocomplete_offers_legal_moves_within_limits(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        async with discord_for(fake, service, tmp_path):
            await fake.slash(alice, "challenge", opponent=bob, color="sente")
            await fake.click(bob, interaction_message(fake), "accept 1")
            everything = await fake.autocomplete(alice, "move", "move", move="")
            typed = await fake.autocomplete(alice, "move", "move", move="P-7")
            squares = await fake.autocomplete(alice, "moves", "square", square="7")
            games = await fake.autocomplete(bob, "board", "game", game="")
    assert len(everything) == 25  # 30 legal moves at the start, cut to Discord's 25
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in everything)
    assert [c["value"] for c in typed] == ["P-7f"]
    assert [c["value"] for c in squares] == ["7g", "7i", "7a", "7c"]  # alice's pieces first
    assert [(c["name"], c["value"]) for c in games] == [("#1 vs alice", "1")]


async def test_an_expired_challenge_card_is_edited_in_place(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        async with discord_for(fake, service, tmp_path):
            await fake.slash(alice, "challenge", opponent=bob)
            card = interaction_message(fake)
        async with discord_for(fake, service, tmp_path):
            clock = service.clock
            assert isinstance(clock, FakeClock)
            await clock.advance(service.config.challenge_ttl + 1)
            assert await service.fire_due() >= 1
        edited = fake.messages[int(card["id"])]
        assert "expired" in edited["content"] and edited["components"] == []
        assert len(fake.channel_messages(CHANNEL_ID)) == 1  # edited, not posted again


async def test_reminder_and_time_out_are_posted_in_the_game_channel(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path, reminders=(3600,)) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        clock = service.clock
        assert isinstance(clock, FakeClock)
        async with discord_for(fake, service, tmp_path):
            await fake.slash(alice, "challenge", opponent=bob, color="sente", time="1d")
            await fake.click(bob, interaction_message(fake), "accept 1")
            posted = len(fake.channel_messages())
            await clock.advance(86400 - 3600 + 1)
            await service.fire_due()
            reminder = fake.last_message()
            assert len(fake.channel_messages()) == posted + 1
            assert reminder["content"].startswith("<@111>") and "⏰" in reminder["content"]
            await clock.advance(3600)
            await service.fire_due()
            timeout = fake.last_message()
        text = timeout["content"] + json.dumps(timeout["embeds"], ensure_ascii=False)
        assert "alice ran out of time" in text and "bob wins" in text
        assert "<@111>" in timeout["content"] and "<@222>" in timeout["content"]


async def test_bare_moves_once_the_channel_opts_in(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        bob.permissions = "0"  # bob may not manage the channel
        async with discord_for(fake, service, tmp_path, DISCORD_MESSAGE_CONTENT="1"):
            await fake.slash(alice, "challenge", opponent=bob, color="sente")
            await fake.click(bob, interaction_message(fake), "accept 1")
            said = await fake.say(alice, "7g7f")
            await asyncio.sleep(0.1)
            assert fake.last_message()["id"] == said["id"]  # not opted in: the bot stays quiet
            refused = await fake.slash(bob, "settings", bare="on")
            assert refused["data"]["flags"] & 64 and "manage this chat" in text_of(refused)
            agreed = await fake.slash(alice, "settings", bare="on")
            assert "Settings changed: bare on." in text_of(agreed)
            said = await fake.say(alice, "7g7f")
            played = await fake.wait_for(
                lambda: fake.last_message()["id"] != said["id"] and fake.last_message()
            )
            assert "alice played" in message_text(played) and "<@222>" in played["content"]
            chatter = await fake.say(bob, "gg 3c3d?")
            await asyncio.sleep(0.1)
            assert fake.last_message()["id"] == chatter["id"]
            said = await fake.say(bob, "3c3d")
            await fake.wait_for(lambda: fake.last_message()["id"] != said["id"])
        game = await service.store.get_game(1)
        assert game is not None and game.moves == ("7g7f", "3c3d")


async def test_a_thread_per_game_once_the_channel_asks(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        async with discord_for(fake, service, tmp_path):
            await fake.slash(alice, "settings", threads="on")
            body = await fake.slash(alice, "challenge", opponent=bob, color="sente")
            thread = next(c for c in fake.channels.values() if c["type"] == 11)
            assert thread["parent_id"] == str(CHANNEL_ID)
            assert thread["name"] == "Shogi: alice's challenge"
            assert f"<#{thread['id']}>" in text_of(body)
            card = fake.last_message(int(thread["id"]))
            start = await fake.click(bob, card, "accept 1")
            assert "Game #1 begins" in text_of(start)
            moved = await fake.slash(alice, "move", channel_id=int(thread["id"]), move="7g7f")
            assert "alice played" in text_of(moved)
        game = await service.store.get_game(1)
        assert game is not None and game.chat.chat_id == thread["id"]


async def test_reminders_by_direct_message_when_asked(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path, reminders=(3600,)) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        clock = service.clock
        assert isinstance(clock, FakeClock)
        async with discord_for(fake, service, tmp_path):
            mine = await fake.slash(alice, "settings", reminders="dm")
            assert "reminders dm" in text_of(mine)
            await fake.slash(alice, "challenge", opponent=bob, color="sente", time="1d")
            await fake.click(bob, interaction_message(fake), "accept 1")
            posted = len(fake.channel_messages())
            await clock.advance(86400 - 3600 + 1)
            await service.fire_due()
            dm = next(c for c in fake.channels.values() if c["type"] == 1)
            assert dm["recipients"][0]["id"] == "111"
            reminder = fake.last_message(int(dm["id"]))
            assert "⏰ alice, it's your move in game #1" in reminder["content"]
            assert len(fake.channel_messages()) == posted  # nothing in the game's channel
            await clock.advance(3600)
            await service.fire_due()
            in_channel = message_text(fake.last_message())
            privately = message_text(fake.last_message(int(dm["id"])))
        assert "alice ran out of time" in in_channel and "bob wins" in in_channel
        assert "alice ran out of time" in privately and "bob wins" in privately


async def test_komabot_discord_process_serves_and_stops_on_sigterm(tmp_path: Path) -> None:
    import asyncio
    import os
    import signal
    import sys

    async with FakeDiscord() as fake:
        alice = fake.user(111, "alice")
        env = {
            **os.environ,
            **fake.env(KOMABOT_DB=str(tmp_path / "komabot.sqlite3"), KOMABOT_LOG_LEVEL="INFO"),
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))",
            "discord",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await fake.wait_connected(timeout=30)
            body = await fake.slash(alice, "games")
            assert "no game" in text_of(body).lower()
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(proc.communicate(), 30)
        log = err.decode()
        assert proc.returncode == 0, log
        assert "komabot stopped" in log
        assert fake.token not in log  # the token never reaches the log


async def test_two_people_mentioned_are_refused_one_at_a_time(tmp_path: Path) -> None:
    """``!rating @bob @carol`` (and /history, /challenge) names both, as Telegram does, rather
    than quietly take one of them."""
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice = fake.user(111, "alice")
        fake.user(222, "bob"), fake.user(333, "carol")
        async with discord_for(fake, service, tmp_path, DISCORD_MESSAGE_CONTENT="1"):
            answers = []
            for line in (
                "!rating <@222> <@333>",
                "!history <@333> <@222>",
                "!challenge <@222> <@333> wa",
                "!rating <@222> <@222>",  # one person mentioned twice is one
            ):
                said = await fake.say(alice, line)
                answers.append(
                    await fake.wait_for(
                        lambda said=said: (
                            fake.last_message()["id"] != said["id"] and fake.last_message()
                        )
                    )
                )
        assert await service.store.get_challenge(1) is None  # no challenge was made
    *refused, once = [message_text(m) for m in answers]
    for words in refused:
        assert words.startswith("One player at a time, please: "), words
        assert "bob" in words and "carol" in words
    assert not once.startswith("One player") and "bob" in once
