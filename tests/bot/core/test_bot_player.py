"""Playing the bot through the game service: /play and challenges to the bot, its moves (real
searches in worker processes at a tiny budget), its manners (draws, takebacks, resigning,
impasse), failures, restarts, fairness between people, and other chats served meanwhile."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import run_app
from bot.config import Config
from bot.core.api import ChatKey, Handler, Reply, Request
from bot.core.clock import FakeClock
from bot.core.opponent.engine_runner import EngineAnswer, EngineRunner
from bot.core.positions import replay
from bot.store import GameStatus, SqliteStore
from bot.store.models import ENGINE_PLAYER
from tests.bot.core.engine_fakes import SCRIPT, RecordingEngine, scripted_think
from tests.bot.core.harness import (
    ALICE,
    BOB,
    CAROL,
    MAIN,
    QUICK_MOVETIME_MS,
    Harness,
    bot_to_move,
    until,
)

OTHER = ChatKey("console", "other")
HOPELESS = "4k4/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L18P 1"  # gote has a king, sente everything
IMPASSE = "4K4/9/9/9/9/9/ppppppppp/1b5r1/gsgsksgsg w - 1"  # gote may declare: 27 points
MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # G*5b mates


@pytest.fixture
async def fake(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Harness]:
    """A harness whose bot answers in this process with the first legal move."""
    harness = Harness(tmp_path / "k.sqlite3", clock, Config(), engine=RecordingEngine())
    await harness.open()
    yield harness
    await harness.close()


async def settle(h: Harness) -> None:
    await h.service.bot_player.settled()


async def person_moves(h: Harness, game_id: int, chat: ChatKey = MAIN) -> Reply:
    """The person of a game against the bot plays their first legal move."""
    game = await h.game(game_id)
    pos = await h.service.games.position_of(game)
    user = ALICE if ALICE.key in (game.sente, game.gote) else BOB
    reply = await h.say(user, "move", pos.usi(pos.legal_moves()[0]), chat=chat)
    assert "played" in reply.text, reply.text
    return reply


def said(h: Harness) -> list[str]:
    return [reply.text for _, reply in h.outbox.sent]


async def test_play_starts_at_once_and_the_bot_answers_every_move(h: Harness) -> None:
    start = await h.say(ALICE, "play", "wa", "level", "2", "sente")
    assert "Game #1 begins: Alice (sente ☗) vs Komabot, level 2 (gote ☖), Wa Shogi" in start.text
    assert start.mentions == (ALICE,) and start.card is None  # no challenge to accept
    assert "Level 2 (for novices): it also sees your reply" in start.text
    game = await h.game(1)
    assert (game.sente, game.gote, game.engine_level) == (ALICE.key, ENGINE_PLAYER, 2)
    for turn in range(1, 4):
        reply = await person_moves(h, 1)
        assert "Komabot, level 2 (gote) is thinking" in reply.text and reply.mentions == ()
        thinking = await h.game(1)
        assert thinking.deadline is None  # the bot has no clock...
        assert await h.store.pending_timers(1) == []  # ...and no reminders
        await settle(h)
        answered = await h.game(1)
        assert len(answered.moves) == 2 * turn
        chat, message = h.outbox.sent[-1]
        assert chat == MAIN and message.text.startswith("Komabot, level 2 played ")
        assert message.mentions == (ALICE,) and message.text_board is not None
        assert answered.deadline == h.clock.now() + h.config.default_time  # Alice's clock
        assert {t.kind.value for t in await h.store.pending_timers(1)} >= {"deadline"}
    replay(answered)  # every move the bot made is legal
    assert len(answered.engine_scores) == 3  # kept for its resign decisions


async def test_the_bot_moves_first_when_it_has_sente(h: Harness) -> None:
    start = await h.say(ALICE, "play", "shogi", "gote", "level", "1", "1d")
    assert "Komabot, level 1 (sente) is thinking" in start.text and start.mentions == ()
    assert (await h.game(1)).deadline is None
    await settle(h)
    game = await h.game(1)
    assert len(game.moves) == 1 and game.deadline == h.clock.now() + 86400
    assert said(h)[-1].startswith("Komabot, level 1 played ")
    await person_moves(h, 1)
    await settle(h)
    assert len((await h.game(1)).moves) == 3


@pytest.mark.parametrize("variant", ["shogi", "wa", "wa-drops"])
async def test_a_challenge_to_the_bot_starts_the_game_in_every_variant(
    h: Harness, variant: str
) -> None:
    mention = Request(MAIN, ALICE, "challenge", (variant, "sente", "level", "1"), to_bot=True)
    start = await h.service.handle(mention)
    assert "Game #1 begins" in start.text and start.card is None, start.text
    assert await h.store.open_challenges(MAIN) == []
    game = await h.game(1)
    assert (game.variant, game.engine_level, game.gote) == (variant, 1, ENGINE_PLAYER)
    await person_moves(h, 1)
    await settle(h)
    game = await h.game(1)
    assert len(game.moves) == 2 and said(h)[-1].startswith("Komabot, level 1 played ")
    replay(game)


async def test_challenge_bot_by_word_and_play_defaults(fake: Harness) -> None:
    await fake.start_game(BOB, CAROL, variant="wa")  # the chat plays Wa Shogi
    start = await fake.say(ALICE, "play")
    game = await fake.game(2)
    assert (game.variant, game.engine_level) == ("wa", 3)  # the chat's variant, level 3
    assert ENGINE_PLAYER in (game.sente, game.gote) and "Komabot, level 3" in start.text
    other = await fake.say(ALICE, "challenge", "bot", "lvl4", chat=OTHER)
    game = await fake.game(3)
    assert (game.variant, game.engine_level) == ("shogi", 4), other.text  # nothing played there
    busy = await fake.say(ALICE, "play", chat=OTHER)
    assert busy.ephemeral and "You already have game #3 in this chat" in busy.text


@pytest.mark.parametrize(
    ("command", "args", "target", "to_bot", "answer"),
    [
        ("play", ("wa", "level", "12"), None, False, "'12' is not a level: choose one from 1"),
        ("play", ("wa", "level"), None, False, "After 'level' give my level, a number from 1"),
        ("play", ("wa", "0"), None, False, "'0' is not a level"),
        ("play", ("wa", "shogi"), None, False, "'wa' and 'shogi' both say the variant"),
        ("play", ("chess",), None, False, "I can't read 'chess' in /play. Write /play [shogi|"),
        ("play", (), BOB, False, "/play is a game against me; to play Bob, write /challenge"),
        ("challenge", ("bot", "chess"), None, False, "I can't read 'chess' in a challenge."),
        ("challenge", ("chess",), None, True, "[shogi|wa|wa-drops]"),
        ("challenge", ("4",), BOB, False, "Level 4 is for games against me"),
        ("challenge", ("wa",), BOB, True, "both say the opponent"),
        ("challenge", ("bot", "level", "9"), None, False, "'9' is not a level"),
    ],
)
async def test_bad_input_is_refused_with_what_would_be_right(
    fake: Harness,
    command: str,
    args: tuple[str, ...],
    target: object,
    to_bot: bool,
    answer: str,
) -> None:
    request = Request(MAIN, ALICE, command, args, target=target, to_bot=to_bot)  # type: ignore[arg-type]
    reply = await fake.service.handle(request)
    assert reply.ephemeral and answer in reply.text, reply.text
    assert await fake.store.get_game(1) is None


async def test_the_bot_declines_a_draw_at_once(fake: Harness) -> None:
    await fake.say(ALICE, "play", "shogi", "sente")
    reply = await fake.say(ALICE, "draw")
    assert not reply.ephemeral
    assert "Komabot, level 3 declines the draw in game #1: it plays every game" in reply.text
    game = await fake.game(1)
    assert game.active and game.draw_offer is None
    answer = await fake.say(ALICE, "draw", "accept")
    assert answer.ephemeral and "no draw offer" in answer.text


async def test_a_takeback_undoes_the_move_and_the_bots_answer(tmp_path: Path) -> None:
    engine = RecordingEngine(delay=0.3)
    h = await Harness(tmp_path / "k.sqlite3", FakeClock(), Config(), engine=engine).open()
    try:
        await h.say(ALICE, "play", "shogi", "sente", "level", "1")
        await h.say(ALICE, "move", "7g7f")
        await settle(h)
        assert len((await h.game(1)).moves) == 2
        undone = await h.say(ALICE, "takeback")
        assert "Komabot, level 1 agreed: P-7f, " in undone.text and "taken back" in undone.text
        game = await h.game(1)
        assert game.moves == () and game.engine_scores == () and game.deadline is not None
        # Taken back while the bot thinks: its answer is dropped, Alice is to move again.
        await h.say(ALICE, "move", "2g2f")
        await asyncio.sleep(0.1)
        await h.say(ALICE, "takeback")
        await settle(h)
        game = await h.game(1)
        assert game.moves == () and game.active
        assert engine.asked == [1, 1]
    finally:
        await h.close()


async def test_the_bot_resigns_a_hopeless_game(h: Harness) -> None:
    await h.say(ALICE, "play", "shogi", "sente", "level", "8")
    game = await h.game(1)
    # Its last two moves already looked hopeless; now gote (the bot) has only its king.
    lost = replace(game, start_sfen=HOPELESS, engine_scores=(-9000, -9000))
    h.service.bot_player.request(await h.store.update_game(lost))
    await settle(h)
    game = await h.game(1)
    assert (game.status, game.termination, game.winner) == (GameStatus.FINISHED, "resignation", 0)
    assert "Komabot, level 8 resigned." in said(h)[-1]
    assert "Alice wins by resignation" in said(h)[-1]


async def test_the_bot_declares_impasse_when_the_rules_allow(h: Harness) -> None:
    await h.say(ALICE, "play", "shogi", "sente", "level", "4")
    game = await h.game(1)
    h.service.bot_player.request(await h.store.update_game(replace(game, start_sfen=IMPASSE)))
    await settle(h)
    game = await h.game(1)
    assert (game.termination, game.winner) == ("impasse", 1), said(h)
    assert "Komabot, level 4 declared impasse with 27 points." in said(h)[-1]


async def test_a_position_decided_by_the_rules_is_never_sent_to_the_engine(fake: Harness) -> None:
    await fake.say(ALICE, "play", "shogi", "sente")
    game = await fake.game(1)
    await fake.store.update_game(replace(game, start_sfen=MATE_IN_ONE))
    over = await fake.say(ALICE, "move", "G*5b")
    assert "Alice wins by checkmate" in over.text
    await settle(fake)
    assert isinstance(fake.engine, RecordingEngine) and fake.engine.asked == []


async def test_the_bot_never_loses_on_time(tmp_path: Path) -> None:
    engine = RecordingEngine()
    gate = asyncio.Event()
    engine.answer = _held(engine.answer, gate)  # type: ignore[method-assign]
    clock = FakeClock()
    h = await Harness(tmp_path / "k.sqlite3", clock, Config(), engine=engine).open()
    try:
        await h.say(ALICE, "play", "shogi", "sente", "1d")
        await h.say(ALICE, "move", "7g7f")
        await clock.advance(10 * 86400)  # the bot thinks (very) long
        await h.service.fire_due()
        assert (await h.game(1)).active
        gate.set()
        await settle(h)
        game = await h.game(1)
        assert len(game.moves) == 2 and game.deadline == clock.now() + 86400
        await clock.advance(86400 + 1)  # but Alice's deadline holds
        await h.service.fire_due()
        game = await h.game(1)
        assert (game.termination, game.winner) == ("timeout", 1)
    finally:
        gate.set()
        await h.close()


def _held(
    answer: Callable[..., Awaitable[EngineAnswer]], gate: asyncio.Event
) -> Callable[..., Awaitable[EngineAnswer]]:
    async def wait_then_answer(query: object) -> EngineAnswer:
        await gate.wait()
        return await answer(query)

    return wait_then_answer


async def test_people_take_turns_in_the_engine_queue(tmp_path: Path) -> None:
    """Alice floods the queue with four games; Bob's one game does not wait for all of hers."""
    engine = RecordingEngine()
    gate = asyncio.Event()
    engine.answer = _held(engine.answer, gate)  # type: ignore[method-assign]
    h = await Harness(tmp_path / "k.sqlite3", FakeClock(), Config(), engine=engine).open()
    try:
        for n in range(1, 5):
            await h.say(ALICE, "play", "gote", chat=ChatKey("console", f"alice-{n}"))
        await h.say(BOB, "play", "gote", chat=ChatKey("console", "bob"))
        await asyncio.sleep(0)
        gate.set()
        await settle(h)
        assert engine.asked == [1, 2, 5, 3, 4]  # first come first served: [1, 2, 3, 4, 5]
    finally:
        await h.close()


async def test_a_crashed_search_is_tried_again_on_a_fresh_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    script = tmp_path / "engine-script"
    script.write_text("crash-once")
    monkeypatch.setenv(SCRIPT, str(script))
    engine = EngineRunner(movetime_ms=QUICK_MOVETIME_MS, target=scripted_think)
    h = await Harness(tmp_path / "k.sqlite3", FakeClock(), Config(), engine=engine).open()
    try:
        await h.say(ALICE, "play", "shogi", "sente", "level", "1")
        with caplog.at_level(logging.WARNING, logger="komabot.engine"):
            await h.say(ALICE, "move", "7g7f")
            await settle(h)
        assert len((await h.game(1)).moves) == 2
        assert "engine search for game 1 failed (1): crash" in caplog.text
        assert not any("could not move" in text for text in said(h))
    finally:
        await h.close()


@pytest.mark.parametrize("mode", ["fail", "hang"])
async def test_a_failing_engine_is_reported_and_tried_again_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    script = tmp_path / "engine-script"
    script.write_text(mode)
    monkeypatch.setenv(SCRIPT, str(script))
    engine = EngineRunner(movetime_ms=QUICK_MOVETIME_MS, target=scripted_think, grace_seconds=0.3)
    clock = FakeClock()
    h = await Harness(tmp_path / "k.sqlite3", clock, Config(), engine=engine).open()
    try:
        await h.say(ALICE, "play", "shogi", "sente", "level", "1")
        await h.say(ALICE, "move", "7g7f")
        await settle(h)
        assert said(h) == [
            "Komabot, level 1 could not move in game #1: its engine failed. Nothing is lost; "
            "it tries again in less than a minute (and after a restart)."
        ]
        assert len((await h.game(1)).moves) == 1  # the game waits
        script.write_text("")  # the engine works again
        await clock.advance(5)

        async def answered() -> bool:
            await settle(h)
            return len((await h.game(1)).moves) == 2

        await until(answered)
        assert said(h)[-1].startswith("Komabot, level 1 played ")
    finally:
        await h.close()


async def test_after_a_restart_the_bot_takes_its_turn(h: Harness) -> None:
    await h.say(ALICE, "play", "wa", "sente", "level", "1")
    await h.say(ALICE, "move", "8h8g")
    await h.restart()  # before the bot could answer
    assert len((await h.game(1)).moves) == 1
    assert await h.service.bot_player.resume() == 1  # what start-up does
    await settle(h)
    game = await h.game(1)
    assert len(game.moves) == 2 and said(h)[-1].startswith("Komabot, level 1 played ")
    assert await h.service.bot_player.resume() == 0  # Alice's turn now


async def test_another_chat_is_answered_while_the_engine_thinks(
    tmp_path: Path, clock: FakeClock
) -> None:
    config = Config(engine_movetime_ms=1500)
    h = await Harness(tmp_path / "k.sqlite3", clock, config).open()
    try:
        game = await h.start_game(BOB, CAROL, chat=OTHER)
        await h.say(ALICE, "play", "shogi", "gote", "level", "8")  # the bot thinks 1.5 s
        await until(lambda: bool(h.service.bot_player.queue.taken))
        await asyncio.sleep(0.3)  # its worker is searching
        started = time.perf_counter()
        moved = await h.say(BOB, "move", "7g7f", str(game.id), chat=OTHER)
        helped = await h.say(CAROL, "help", chat=OTHER)
        elapsed = time.perf_counter() - started
        assert "Bob played" in moved.text and helped.buttons
        assert (await h.game(2)).moves == ()  # the bot was still thinking meanwhile
        assert elapsed < 0.5, elapsed
        await settle(h)
        assert len((await h.game(2)).moves) == 1
    finally:
        await h.close()


class WaitingFrontEnd:
    """A console front end that waits for the first message the service sends on its own."""

    platform = "console"

    def __init__(self) -> None:
        self.sent: list[Reply] = []
        self.arrived = asyncio.Event()

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        self.sent.append(reply)
        self.arrived.set()

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        pass

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        await asyncio.wait_for(self.arrived.wait(), 30)


async def test_komabot_resumes_the_bots_turn_when_it_starts(tmp_path: Path) -> None:
    """A game left with the bot to move (the process stopped while it thought): run_app
    queues it at start, and the bot's move reaches the chat."""
    config = Config(db_path=tmp_path / "k.sqlite3", engine_movetime_ms=QUICK_MOVETIME_MS)
    store = await SqliteStore.open(config.db_path)
    try:
        await store.create_game(bot_to_move(variant="wa"), [], free=[ALICE.key])
    finally:
        await store.close()
    front = WaitingFrontEnd()
    assert await asyncio.wait_for(run_app(config, [front]), 60) == 0
    assert front.sent and front.sent[0].text.startswith("Komabot, level 1 played ")
    store = await SqliteStore.open(config.db_path)
    try:
        game = await store.get_game(1)
        assert game is not None and len(game.moves) == 1
    finally:
        await store.close()


async def test_the_bot_is_named_in_the_chats_language(fake: Harness) -> None:
    await fake.say(ALICE, "settings", "language", "ru")
    start = await fake.say(ALICE, "play", "shogi", "gote", "level", "5")
    assert "Komabot (уровень 5)" in start.text and "думает" in start.text
    await settle(fake)
    assert said(fake)[-1].startswith("Ход Komabot (уровень 5): ")
    assert "партии #1" in (await fake.say(ALICE, "draw")).text
