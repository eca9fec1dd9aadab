"""Playing the bot on Telegram: the real ptb client, the real game service and engine (a tiny
budget), the fake Bot API server."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.config import Config
from bot.core.service import GameService
from bot.store import SqliteStore
from bot.telegram_front import TelegramFrontEnd
from tests.bot.telegram.conftest import running, settings_for
from tests.bot.telegram.fake_botapi import JSON, FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, BOB, CAROL, buttons_of, mentioned


@contextlib.asynccontextmanager
async def bot_over(fake: FakeBotApi, tmp_path: Path) -> AsyncIterator[GameService]:
    config = Config(
        db_path=tmp_path / "komabot.sqlite3", telegram_token=fake.token, engine_movetime_ms=50
    )
    store = await SqliteStore.open(config.db_path)
    front = TelegramFrontEnd(config, settings_for(fake, tmp_path))
    service = GameService(store, config, outboxes={"telegram": front})
    try:
        async with running(front, service.handle, state=store):
            yield service
            await service.drain()
    finally:
        await store.close()


async def legal_move(service: GameService, game_id: int) -> str:
    game = await service.store.get_game(game_id)
    assert game is not None
    pos = await service.games.position_of(game)
    return pos.usi(pos.legal_moves()[0])


async def test_playing_the_bot_in_telegram_groups(fake: FakeBotApi, tmp_path: Path) -> None:
    club, lounge, den = (fake.group_chat(-1000 - n, f"Group {n}") for n in (1, 2, 3))
    async with bot_over(fake, tmp_path) as service:
        fake.send_text(club, ALICE, "/play wa level 1 sente")
        (start,) = await fake.expect(1)
        assert "Game #1 begins" in start["caption"] and "Komabot, level 1" in start["caption"]
        fake.send_text(club, ALICE, "/move 8h8g")
        mine, answer = mover_then_bot(await fake.expect(2))
        assert "Alice played" in mine["caption"] and "is thinking" in mine["caption"]
        assert answer["caption"].startswith("Komabot, level 1 played ")
        assert answer["photo"] and answer["_upload"].data.startswith(b"\x89PNG")
        assert mentioned(answer) == [ALICE["id"]]
        # a reply to the bot's board is a move
        fake.send_text(club, ALICE, await legal_move(service, 1), reply_to=answer["message_id"])
        mine, answer = mover_then_bot(await fake.expect(2))
        assert "Alice played" in mine["caption"] and "Komabot, level 1 played" in answer["caption"]
        fake.send_text(club, ALICE, "/takeback")
        (undone,) = await fake.expect(1)
        assert "Komabot, level 1 agreed" in undone["caption"]

        # /challenge @TheBot: it accepts at once and, with sente, moves first
        fake.send_text(lounge, BOB, "/challenge @KomaTestBot shogi gote level 1")
        start, first = await fake.expect(2)
        assert "Game #2 begins" in start["caption"], start
        assert first["caption"].startswith("Komabot, level 1 played ")

        fake.send_text(den, CAROL, "/help")
        (helped,) = await fake.expect(1)
        assert "play" in buttons_of(helped)
        query = fake.press(den, CAROL, helped["message_id"], "play")
        await fake.answered(query)
        started = await fake.wait_until(lambda: _caption_with(fake, den, "Game #3 begins"))
        assert "Komabot, level 3" in started["caption"]
        assert "play" in buttons_of(fake.messages[(den["id"], helped["message_id"])])  # kept
        games = [await service.store.get_game(n) for n in (1, 2, 3)]
        assert [(g.variant, g.engine_level) for g in games if g] == [
            ("wa", 1),
            ("shogi", 1),
            ("shogi", 3),
        ]


def mover_then_bot(messages: list[JSON]) -> list[JSON]:
    """The board after the person's move, then the bot's answer (both are sent at once, so
    which Telegram records first is not the point here)."""
    return sorted(messages, key=lambda m: m["caption"].startswith("Komabot"))


def _caption_with(fake: FakeBotApi, chat: JSON, words: str) -> JSON | None:
    return next(
        (m for m in fake.sent if m["chat"]["id"] == chat["id"] and words in m.get("caption", "")),
        None,
    )
