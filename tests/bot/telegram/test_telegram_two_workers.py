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
from tests.bot.telegram.test_telegram_games import ALICE, BOB, MATE, buttons_of
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

        presses = await play(fake, group, url)

        await quiet(fake)
        assert fake.unread() == []  # no reply twice
        answers = [c.params["callback_query_id"] for c in fake.calls_of("answerCallbackQuery")]
        assert sorted(answers) == sorted(presses) and not fake.callbacks_open
    delivered = [receiver for _, receiver in fake.deliveries]
    assert delivered == [receivers[i % 2] for i in range(len(delivered))]  # in turn
    game = await game_of(url, 1)
    assert game.moves == MATE


async def play(fake: FakeBotApi, group: JSON, url: str) -> list[str]:
    """A game from challenge to mate, every update to the other worker; the button presses."""
    hello = fake.send_text(group, BOB, "/games")
    await fake.expect(1)
    fake.send_text(group, ALICE, "/challenge shogi sente 1d", reply_to=hello["message_id"])
    (card,) = await fake.expect(1)
    accept = next(data for data in buttons_of(card) if data.startswith("accept "))
    presses = [fake.press(group, BOB, card["message_id"], accept)]
    await fake.answered(presses[0])
    (board,) = await fake.expect(1)
    assert board.get("photo") or board.get("text"), board

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
    assert sum("checkmate" in s for s in said) == 1, said  # played once, refused once
    return presses
