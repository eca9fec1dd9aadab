"""Two ``komabot discord`` processes on one PostgreSQL database, each running half the shards,
as the README's "Running at scale" describes: every shard identified exactly once, and one game
played by interactions arriving on both processes (the game's server is on a shard of one,
direct messages come on shard 0, of the other).  Nothing lost, nothing doubled, every
interaction answered once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fake_discord import CHANNEL_ID, GUILD_ID, FakeDiscord, FakeUser

from bot.store.postgres import PostgresStore
from bot.store.sql import SqlStore
from tests.bot.komabot_process import komabot
from tests.postgres_server import PostgresServer

SHARDS = 4
GUILD_SHARD = (GUILD_ID >> 22) % SHARDS  # Discord's rule: the shard a server's events go to
DM_SHARDS = (0, 1) if GUILD_SHARD not in (0, 1) else (0, 2)  # direct messages: on shard 0
GUILD_SHARDS = tuple(s for s in range(SHARDS) if s not in DM_SHARDS)

pytestmark = pytest.mark.slow


def komabot_discord(fake: FakeDiscord, url: str, shards: tuple[int, ...]) -> Any:
    """A ``komabot discord`` process running ``shards`` of :data:`SHARDS`."""
    settings = fake.env(
        KOMABOT_DATABASE_URL=url,
        DISCORD_SHARD_COUNT=str(SHARDS),
        DISCORD_SHARD_IDS=",".join(map(str, shards)),
        KOMABOT_LOG_LEVEL="INFO",
        # boards on each process's own thread: what is tested here is the shards and the
        # database, and two processes with two board processes each crowd a 2-core machine
        KOMABOT_BOARD_PROCESSES="0",
    )
    return komabot("discord", env=settings)


def text_of(body: dict[str, Any]) -> str:
    data = body.get("data") or body
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
    return "\n".join(parts)


def buttons(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in message.get("components", []) for c in row["components"]]


async def game_of(url: str, game_id: int) -> Any:
    store: SqlStore = await PostgresStore.open(url)
    try:
        return await store.get_game(game_id)
    finally:
        await store.close()


async def test_two_processes_share_the_shards_and_one_game(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.new_database()
    async with FakeDiscord() as fake:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        alice_dm, bob_dm = int(fake.dm(alice.id)["id"]), int(fake.dm(bob.id)["id"])
        async with (
            komabot_discord(fake, url, DM_SHARDS),
            komabot_discord(fake, url, GUILD_SHARDS),
        ):
            await fake.wait_connected(shards=SHARDS, timeout=90)
            await fake.wait_for(lambda: fake.commands, timeout=30)
            assert fake.shards_identified() == [(s, SHARDS) for s in range(SHARDS)]

            await play(fake, url, alice, bob, alice_dm, bob_dm)

        # every interaction answered once, nothing Discord refused or could not find
        refused = [(r.method, r.path, r.status) for r in fake.requests if r.status >= 400]
        assert refused == []
    game = await game_of(url, 1)
    assert game.moves == ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e")
    assert game.status != "active", game


async def play(
    fake: FakeDiscord, url: str, alice: FakeUser, bob: FakeUser, alice_dm: int, bob_dm: int
) -> None:
    # In the server (the guild's shard, one process): a challenge, accepted by a button.
    body = await fake.slash(alice, "challenge", opponent=bob, color="sente")
    assert "Challenge #1" in text_of(body), text_of(body)
    card = next(m for m in reversed(fake.channel_messages()) if "accept 1" in buttons(m))
    start = await fake.click(bob, card, "accept 1")
    assert "Game #1 begins" in text_of(start), text_of(start)

    # Alice plays from her direct messages (shard 0: the other process), Bob in the server.
    for user, channel, move in (
        (alice, alice_dm, "7g7f"),
        (bob, CHANNEL_ID, "3c3d"),
        (alice, alice_dm, "2g2f"),
        (bob, bob_dm, "8c8d"),
    ):
        options = {"move": move} if channel == CHANNEL_ID else {"move": move, "game": "1"}
        answer = await fake.slash(user, "move", channel_id=channel, **options)
        assert not (answer["data"].get("flags") or 0) & 64, text_of(answer)  # played, public
        assert (await game_of(url, 1)).moves[-1] == move
    copies = [m for m in fake.channel_messages() if m.get("_interaction_id") is None]
    assert len(copies) == 3, [text_of(m) for m in copies]  # the moves made elsewhere, once each

    # The same move sent at once on both processes: played once, the other refused.
    both = await asyncio.gather(
        fake.slash(alice, "move", channel_id=alice_dm, move="2f2e", game="1"),
        fake.slash(alice, "move", channel_id=CHANNEL_ID, move="2f2e"),
    )
    private = [bool((a["data"].get("flags") or 0) & 64) for a in both]
    assert sorted(private) == [False, True], [text_of(a) for a in both]
    assert (await game_of(url, 1)).moves[-1] == "2f2e"

    # Bob resigns from his direct messages: the prompt and its button on one process.
    ask = await fake.slash(bob, "resign", channel_id=bob_dm, game="1")
    prompt = next(m for m in reversed(fake.channel_messages(bob_dm)) if buttons(m))
    confirm = next(b for b in buttons(prompt) if b.startswith("resign"))
    assert ask["data"]["flags"] & 64
    await fake.click(bob, prompt, confirm)
    over = await fake.wait_for(
        lambda: [m for m in fake.channel_messages() if "wins by resignation" in text_of(m)]
    )
    await asyncio.sleep(0.5)  # a doubled announcement would arrive now
    over = [m for m in fake.channel_messages() if "wins by resignation" in text_of(m)]
    assert len(over) == 1, [text_of(m) for m in over]


async def test_a_process_killed_mid_game_is_replaced_and_the_game_goes_on(
    postgres_server: PostgresServer,
) -> None:
    """The process running the server's shards is killed (SIGKILL) mid-game; a new one takes
    its shards (each live once again), and the game goes on from where it was, nothing lost."""
    url = await postgres_server.new_database()
    async with FakeDiscord() as fake:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        alice_dm = int(fake.dm(alice.id)["id"])
        async with komabot_discord(fake, url, DM_SHARDS):
            async with komabot_discord(fake, url, GUILD_SHARDS) as doomed:
                await fake.wait_connected(shards=SHARDS, timeout=90)
                await fake.wait_for(lambda: fake.commands, timeout=30)
                await fake.slash(alice, "challenge", opponent=bob, color="sente")
                card = next(
                    m for m in reversed(fake.channel_messages()) if "accept 1" in buttons(m)
                )
                start = await fake.click(bob, card, "accept 1")
                assert "Game #1 begins" in text_of(start), text_of(start)
                await fake.slash(alice, "move", channel_id=alice_dm, move="7g7f", game="1")
                doomed.kill()
                await asyncio.wait_for(doomed.proc.wait(), 30)
                await fake.wait_for(lambda: len(fake.live_shards()) == len(DM_SHARDS))
            async with komabot_discord(fake, url, GUILD_SHARDS):
                await fake.wait_connected(shards=SHARDS, timeout=90)
                assert sorted(fake.live_shards()) == [(s, SHARDS) for s in range(SHARDS)]
                answer = await fake.slash(bob, "move", move="3c3d")
                assert not (answer["data"].get("flags") or 0) & 64, text_of(answer)
                answer = await fake.slash(alice, "move", channel_id=alice_dm, move="2g2f", game="1")
                assert not (answer["data"].get("flags") or 0) & 64, text_of(answer)
        refused = [(r.method, r.path, r.status) for r in fake.requests if r.status >= 400]
        assert refused == []
    assert (await game_of(url, 1)).moves == ("7g7f", "3c3d", "2g2f")
