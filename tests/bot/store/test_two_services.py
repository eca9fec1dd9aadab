"""Two game services (two bot processes) on one database, on both backends: each reminder is
claimed by one of them and sent once, and each of the bot's moves thought about by one, also
when a process dies holding its claim."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.config import Config
from bot.core.api import ChatKey
from bot.core.clock import FakeClock
from bot.core.timers import TIMER_LEASE
from tests.bot.core.engine_fakes import RecordingEngine
from tests.bot.core.harness import ALICE, Harness, bot_to_move, person
from tests.bot.store.conftest import OpenStore

GAMES = 12


async def two_services(open_store: OpenStore, tmp_path: Path) -> tuple[FakeClock, Harness, Harness]:
    clock = FakeClock()
    config = Config(reminders=(86400,))
    one = await Harness(tmp_path / "unused", clock, config, open_store=open_store).open()
    two = await Harness(tmp_path / "unused", clock, config, open_store=open_store).open()
    for i in range(GAMES):  # each game in a chat of its own, started on either process
        h = one if i % 2 else two
        await h.start_game(
            person(f"s{i}"), person(f"g{i}"), time="3d", chat=ChatKey("console", f"c{i}")
        )
    return clock, one, two


def reminders(*services: Harness) -> list[str]:
    return [
        chat.chat_id
        for h in services
        for chat, reply in h.outbox.sent
        if reply.text.startswith("⏰")  # the reminder's text (messages: clock.reminder)
    ]


async def test_each_reminder_is_sent_once_by_one_of_two_processes(
    open_store: OpenStore, tmp_path: Path
) -> None:
    clock, one, two = await two_services(open_store, tmp_path)
    try:
        await clock.advance(2 * 86400 + 1)  # a day before every deadline
        handled = await asyncio.gather(one.service.fire_due(), two.service.fire_due())
        assert sum(handled) == GAMES
        await asyncio.gather(one.service.fire_due(), two.service.fire_due())
        sent = reminders(one, two)
        assert sorted(sent) == sorted(f"c{i}" for i in range(GAMES)), sent
        assert await one.store.next_due() is not None  # the deadlines are still to come
    finally:
        await one.close()
        await two.close()


async def test_reminders_a_dead_process_had_claimed_are_sent_after_its_lease(
    open_store: OpenStore, tmp_path: Path
) -> None:
    clock, one, two = await two_services(open_store, tmp_path)
    try:
        await clock.advance(2 * 86400 + 1)
        now = clock.now()
        taken = await one.store.claim_timers(now, now + TIMER_LEASE)
        assert len(taken) == GAMES
        await one.close()  # it dies holding them: nothing fired, nothing sent
        assert await two.service.fire_due() == 0
        await clock.advance(TIMER_LEASE)
        assert await two.service.fire_due() == GAMES
        await two.service.fire_due()
        assert sorted(reminders(one, two)) == sorted(f"c{i}" for i in range(GAMES))
    finally:
        await two.close()


async def bot_games_on_two_services(
    open_store: OpenStore, tmp_path: Path
) -> tuple[FakeClock, Harness, Harness, RecordingEngine, RecordingEngine]:
    clock = FakeClock()
    engines = RecordingEngine(), RecordingEngine()
    one = await Harness(tmp_path / "one", clock, Config(), engines[0], open_store=open_store).open()
    two = await Harness(tmp_path / "two", clock, Config(), engines[1], open_store=open_store).open()
    return clock, one, two, *engines


async def test_the_bots_move_is_thought_about_by_one_process(
    open_store: OpenStore, tmp_path: Path
) -> None:
    _, one, two, first, second = await bot_games_on_two_services(open_store, tmp_path)
    try:
        one.service.bot_player.start()
        two.service.bot_player.start()
        for i in range(6):  # the bot has sente: its turn is queued by the process that answered
            h = (one, two)[i % 2]
            await h.say(person(f"p{i}"), "play", "shogi", "gote", chat=ChatKey("console", f"b{i}"))
        await asyncio.gather(one.service.fire_due(), two.service.fire_due())  # and found there
        await one.service.bot_player.settled()
        await two.service.bot_player.settled()
        asked = first.asked + second.asked
        assert sorted(asked) == sorted(set(asked)) and len(asked) == 6
        for game in await one.store.active_engine_games():
            assert len(game.moves) == 1
    finally:
        await one.close()
        await two.close()


async def test_a_turn_a_dead_process_claimed_is_taken_up_when_its_claim_ends(
    open_store: OpenStore, tmp_path: Path
) -> None:
    clock, one, two, first, second = await bot_games_on_two_services(open_store, tmp_path)
    try:
        # a game with the bot to move, written as a process would before queueing the turn
        # (a "play" command would queue it here at once, and this process would think)
        await one.store.create_game(bot_to_move(), [], free=[ALICE.key])
        (game,) = await one.store.active_engine_games()
        now = clock.now()
        lease = two.service.bot_player.lease
        assert await one.store.claim_engine_turn(game.id, game.version, "dead", now, now + lease)
        two.service.bot_player.start()
        await two.service.bot_player.settled()
        await two.service.fire_due()
        assert second.asked == []  # the claim still lasts
        await clock.advance(lease)
        await two.service.fire_due()
        await two.service.bot_player.settled()
        assert second.asked == [game.id] and first.asked == []
        assert len((await two.game(game.id)).moves) == 1
    finally:
        await one.close()
        await two.close()


async def test_a_claim_its_thinker_renews_is_never_taken(
    open_store: OpenStore, tmp_path: Path
) -> None:
    clock, one, two, _first, _second = await bot_games_on_two_services(open_store, tmp_path)
    try:
        # a game with the bot to move, written as a process would before queueing the turn
        # (a "play" command would queue it here at once, and this process would think)
        await one.store.create_game(bot_to_move(), [], free=[ALICE.key])
        (game,) = await one.store.active_engine_games()
        lease = one.service.bot_player.lease
        now = clock.now()
        assert await one.store.claim_engine_turn(game.id, game.version, "one", now, now + lease)
        for _ in range(10):  # thinking for ten leases, renewed as the heartbeat does
            await clock.advance(lease * 0.8)
            now = clock.now()
            assert await one.store.renew_engine_turn(game.id, game.version, "one", now + lease)
            assert not await two.store.claim_engine_turn(
                game.id, game.version, "two", now, now + lease
            )
            assert await two.store.unclaimed_engine_games(now) == []
        await clock.advance(lease)  # the thinker died: its claim ran out
        now = clock.now()
        assert [g.id for g in await two.store.unclaimed_engine_games(now)] == [game.id]
        assert await two.store.claim_engine_turn(game.id, game.version, "two", now, now + lease)
        assert not await one.store.renew_engine_turn(game.id, game.version, "one", now + lease)
    finally:
        await one.close()
        await two.close()
