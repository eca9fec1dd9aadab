"""Two ``komabot telegram`` webhook workers behind one webhook URL, on one PostgreSQL database,
as the README's "Running at scale" describes: the fake Telegram posts a game's updates to them
in turn (a load balancer in front).  Nothing lost, nothing doubled, every reply sent once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store.postgres import PostgresStore
from tests.bot.komabot_process import free_port, komabot, wait_listening
from tests.bot.telegram.fake_botapi import JSON, FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, BOB, MATE, start_game
from tests.postgres_server import PostgresServer

HOOK_URL = "https://bot.example.org/tg/hook"
SECRET = "shared-s3cret"

pytestmark = pytest.mark.slow


def worker(fake: FakeBotApi, url: str, port: int) -> Any:
    """A ``komabot telegram`` webhook worker listening on ``port``."""
    return komabot(
        "telegram",
        env={
            "TELEGRAM_TOKEN": fake.token,
            "TELEGRAM_API_BASE": f"http://127.0.0.1:{fake.port}",
            "TELEGRAM_WEBHOOK_URL": HOOK_URL,
            "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
            "TELEGRAM_WEBHOOK_PORT": str(port),
            "TELEGRAM_WEBHOOK_SECRET": SECRET,
            "KOMABOT_DATABASE_URL": url,
            "KOMABOT_LOG_LEVEL": "INFO",
        },
    )


async def game_of(url: str, game_id: int) -> Any:
    store = await PostgresStore.open(url)
    try:
        return await store.get_game(game_id)
    finally:
        await store.close()


async def quiet(fake: FakeBotApi) -> None:
    """Wait until every update was delivered and a doubled reply would have come."""
    await fake.wait_until(lambda: not fake.undelivered())
    await asyncio.sleep(0.5)


async def test_two_webhook_workers_play_one_game(
    fake: FakeBotApi, postgres_server: PostgresServer
) -> None:
    url = await postgres_server.new_database()
    group = fake.group_chat(-1001, "Shogi club")
    ports = free_port(), free_port()
    receivers = [f"http://127.0.0.1:{port}/tg/hook" for port in ports]
    fake.deliver_to(*receivers)
    async with worker(fake, url, ports[0]), worker(fake, url, ports[1]):
        for port in ports:
            await wait_listening(port)
        await fake.wait_until(lambda: len(fake.calls_of("setWebhook")) >= 2, timeout=60)

        await play(fake, group, url)

        await quiet(fake)
        assert fake.unread() == []  # no reply twice
        answers = [c.params["callback_query_id"] for c in fake.calls_of("answerCallbackQuery")]
        assert sorted(answers) == sorted(fake.callback_answers) and not fake.callbacks_open
    delivered = [receiver for _, receiver in fake.deliveries]
    assert delivered == [receivers[i % 2] for i in range(len(delivered))]  # in turn
    game = await game_of(url, 1)
    assert game.moves == MATE


async def play(fake: FakeBotApi, group: JSON, url: str) -> None:
    """A game from challenge to mate, every update to the other worker."""
    await start_game(fake, group)
    for number, move in enumerate(MATE[:-1]):
        mover = ALICE if number % 2 == 0 else BOB
        fake.send_text(group, mover, f"/move {move}")
        (answer,) = await fake.expect(1)
        assert (await game_of(url, 1)).moves[-1] == move, answer

    # The mating move sent twice at once: the two updates reach both workers together.
    last = MATE[-1]
    fake.send_text(group, ALICE, f"/move {last}")
    fake.send_text(group, ALICE, f"/move {last}")
    replies = await fake.expect(2)
    said = [r.get("caption") or r.get("text") or "" for r in replies]
    # played once; the other request lost the race and says so, with the board as it is now,
    # or (a loaded machine answered the first before the second arrived) the game is over
    assert sum(s.startswith("Alice played") for s in said) == 1, said
    refusals = ("your move was not played", "Game #1 is over (")
    assert sum(any(r in s for r in refusals) for s in said) == 1, said


async def test_a_worker_stopped_mid_game_loses_nothing(
    fake: FakeBotApi, postgres_server: PostgresServer
) -> None:
    """A rolling restart: one worker is stopped (SIGTERM) just after it took a move; it still
    answers that move, and the rest of the game goes to the other worker."""
    url = await postgres_server.new_database()
    group = fake.group_chat(-1001, "Shogi club")
    ports = free_port(), free_port()
    receivers = [f"http://127.0.0.1:{port}/tg/hook" for port in ports]
    fake.deliver_to(*receivers)
    async with worker(fake, url, ports[0]) as first, worker(fake, url, ports[1]):
        for port in ports:
            await wait_listening(port)
        await fake.wait_until(lambda: len(fake.calls_of("setWebhook")) >= 2, timeout=60)
        await start_game(fake, group)
        stopped_after = None
        for number, move in enumerate(MATE):
            mover = ALICE if number % 2 == 0 else BOB
            before = len(fake.deliveries)
            fake.send_text(group, mover, f"/move {move}")
            await fake.wait_until(lambda: len(fake.deliveries) > before)  # noqa: B023
            if stopped_after is None and fake.deliveries[before][1] == receivers[0]:
                first.terminate()  # it has answered 200: the move is its to handle
                stopped_after = before
            (answer,) = await fake.expect(1)
            assert (await game_of(url, 1)).moves[-1] == move, answer
        await quiet(fake)
        assert fake.unread() == []
        await asyncio.wait_for(first.proc.wait(), 30)
    assert stopped_after is not None
    later = [receiver for _, receiver in fake.deliveries[stopped_after + 1 :]]
    assert later and set(later) == {receivers[1]}
    assert (await game_of(url, 1)).moves == MATE
