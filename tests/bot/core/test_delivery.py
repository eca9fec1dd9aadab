"""Reminders and time-out notices are delivered at least once: retried after a failed send,
sent after a crash mid-send, sent once by several processes sharing one database."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.core.api import ChatKey, DeliveryRefused, Reply
from bot.core.delivery import LEASE, MAX_AGE, RETRY_PAUSES, dump_reply, load_reply
from bot.core.scheduler import Scheduler
from bot.store.models import NoticeState
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, MAIN, Harness, RecordingOutbox
from tests.bot.core.killing import run_and_kill

DAY = 86400
HOUR = 3600


@dataclass
class FlakyOutbox(RecordingOutbox):
    """Fails the first ``failures`` sends (as an API answering 500 would), then delivers."""

    failures: int = 0
    error: Exception = field(default_factory=lambda: RuntimeError("500 Internal Server Error"))
    tries: list[tuple[ChatKey, Reply]] = field(default_factory=list)

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        self.tries.append((chat, reply))
        if self.failures:
            self.failures -= 1
            raise self.error
        await super().send(chat, reply)


def texts(outbox: RecordingOutbox, word: str) -> list[str]:
    return [r.text for _, r in outbox.sent if word in r.text]


async def bob_to_move(h: Harness) -> None:
    """Alice and Bob play with one day a move; Bob is to move (his one-hour reminder is due at
    DAY - HOUR, his deadline at DAY from now)."""
    game = await h.start_game(time="1d")
    await h.play(game, "7g7f")


# --- (a) a failed send is tried again ------------------------------------------------------


async def test_a_reminder_that_fails_to_send_is_sent_later(h: Harness) -> None:
    outbox = FlakyOutbox(failures=2)
    h.service.outboxes["console"] = outbox
    await bob_to_move(h)
    await h.clock.advance(DAY - HOUR + 1)
    assert await h.service.fire_due() == 1
    assert len(outbox.tries) == 1 and outbox.sent == []
    await h.clock.advance(RETRY_PAUSES[0] - 1)
    await h.service.fire_due()
    assert len(outbox.tries) == 1  # not before its pause
    await h.clock.advance(1)
    await h.service.fire_due()
    assert len(outbox.tries) == 2 and outbox.sent == []  # failed again: a longer pause
    await h.clock.advance(RETRY_PAUSES[1])
    await h.service.fire_due()
    assert len(outbox.tries) == 3
    ((chat, reminder),) = outbox.sent
    assert chat == MAIN and "Bob, it's your move in game #1" in reminder.text
    assert reminder.mentions == (BOB,)
    assert len({r.idempotency_key for _, r in outbox.tries}) == 1  # one key for every attempt
    await h.clock.advance(HOUR // 2)
    await h.service.fire_due()
    assert len(outbox.sent) == 1  # and never again


async def test_a_time_out_notice_that_fails_to_send_is_sent_later(h: Harness) -> None:
    outbox = FlakyOutbox(failures=1)
    h.service.outboxes["console"] = outbox
    await h.say(BOB, "settings", "reminders", "dm")
    await bob_to_move(h)
    await h.clock.advance(DAY + 1)  # the reminder is moot; the deadline passed
    assert await h.service.fire_due() == 2
    assert not (await h.game(1)).active  # the loss on time holds whatever the sends do
    assert [c for c, _ in outbox.sent] == [ChatKey("console", "dm:bob")]  # the chat's failed
    await h.clock.advance(RETRY_PAUSES[0])
    await h.service.fire_due()
    assert [c for c, _ in outbox.sent] == [ChatKey("console", "dm:bob"), MAIN]
    assert len(texts(outbox, "Bob ran out of time")) == 2
    assert set(outbox.sent[-1][1].mentions) == {ALICE, BOB}


async def test_the_scheduler_comes_back_for_a_failed_send(h: Harness) -> None:
    outbox = FlakyOutbox(failures=1)
    h.service.outboxes["console"] = outbox
    scheduler = Scheduler(h.service, h.clock, max_wait=DAY)
    stop = asyncio.Event()
    task = asyncio.create_task(scheduler.run(stop))
    try:
        await bob_to_move(h)
        await asyncio.sleep(0.05)
        await h.clock.advance(DAY - HOUR + 1)
        await wait_for(lambda: outbox.tries)
        assert outbox.sent == []
        # The pause is counted from when the failure is written down, so the clock moves on
        # only after that (on a loaded machine the test could otherwise move it in between).
        for _ in range(500):
            (notice,) = await h.store.notices()
            if notice.last_error is not None and notice.claimed_by is None:
                break
            await asyncio.sleep(0.01)
        assert notice.next_attempt_at == h.clock.now() + RETRY_PAUSES[0]
        await h.clock.advance(RETRY_PAUSES[0])
        await wait_for(lambda: outbox.sent)
        assert "Bob, it's your move" in outbox.sent[0][1].text
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)


async def test_a_send_that_keeps_failing_is_given_up_after_a_day_loudly(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    outbox = FlakyOutbox(failures=10**6)
    h.service.outboxes["console"] = outbox
    await bob_to_move(h)
    await h.clock.advance(DAY + 1)
    with caplog.at_level(logging.WARNING, logger="komabot.delivery"):
        await h.service.fire_due()
        for _ in range(60):
            await h.clock.advance(HOUR)
            await h.service.fire_due()
    assert 10 <= len(outbox.tries) <= 40  # 5 s, 30 s, 2 min, 10 min, 30 min, then hourly
    assert outbox.sent == []
    (notice,) = await h.store.notices()
    assert notice.state is NoticeState.FAILED and "500" in (notice.last_error or "")
    assert notice.done_at is not None and notice.done_at - notice.created_at <= MAX_AGE + HOUR
    assert any(r.levelno == logging.ERROR and "given up" in r.getMessage() for r in caplog.records)
    tries = len(outbox.tries)
    await h.clock.advance(DAY)
    await h.service.fire_due()
    assert len(outbox.tries) == tries


async def test_a_send_refused_for_good_is_not_repeated(h: Harness) -> None:
    outbox = FlakyOutbox(failures=10**6, error=DeliveryRefused("the bot was removed"))
    h.service.outboxes["console"] = outbox
    await bob_to_move(h)
    await h.clock.advance(DAY + 1)
    await h.service.fire_due()
    await h.clock.advance(DAY)
    await h.service.fire_due()
    assert len(outbox.tries) == 1
    (notice,) = await h.store.notices()
    assert notice.state is NoticeState.FAILED


async def test_a_reminder_still_unsent_when_the_player_moves_is_dropped(h: Harness) -> None:
    outbox = FlakyOutbox(failures=1)
    h.service.outboxes["console"] = outbox
    await bob_to_move(h)
    await h.clock.advance(DAY - HOUR + 1)
    await h.service.fire_due()
    assert len(outbox.tries) == 1
    await h.play(await h.game(1), "3c3d")  # Bob moved meanwhile: the reminder is moot
    await h.clock.advance(RETRY_PAUSES[0])
    await h.service.fire_due()
    assert len(outbox.tries) == 1 and outbox.sent == []
    (notice,) = await h.store.notices()
    assert notice.state is NoticeState.DROPPED


async def test_a_deadline_that_fails_to_fire_is_tried_again_after_a_pause(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A time-out whose handling fails (a bug, a full disk) is postponed, not retried in a busy
    loop, and ends the game once it can."""
    await bob_to_move(h)
    calls = []
    real = h.service.replies.game_reply

    async def broken(*args: object, **kwargs: object) -> Reply:
        calls.append(1)
        if len(calls) <= 2:
            raise OSError("no space left on device")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(h.service.replies, "game_reply", broken)
    scheduler = Scheduler(h.service, h.clock, max_wait=DAY)
    stop = asyncio.Event()
    task = asyncio.create_task(scheduler.run(stop))
    try:
        await h.clock.advance(DAY + 1)
        await wait_for(lambda: calls)
        await asyncio.sleep(0.2)  # the loop does not spin on the failed timer
        assert len(calls) == 1 and (await h.game(1)).active
        await h.clock.advance(RETRY_PAUSES[0])
        await wait_for(lambda: len(calls) == 2)
        await h.clock.advance(RETRY_PAUSES[1])
        await wait_for(lambda: h.outbox.sent)
        assert len(calls) == 3 and not (await h.game(1)).active
        assert texts(h.outbox, "Bob ran out of time")
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)


def test_a_notice_keeps_every_part_of_its_message() -> None:
    from bot.core.api import Attachment, Button

    reply = Reply(
        "Game #1 is over\nline two ✓",
        image=Attachment(b"\x89PNG\x00\xff", "board.png", "image/png"),
        files=(Attachment(b"kif", "game-1.kifu", "text/plain"),),
        buttons=((Button("KIF", "export kif 1", "primary"),),),
        mentions=(ALICE, BOB),
        text_board="9 8 7",
    )
    assert load_reply(dump_reply(reply)) == reply


# --- (b) a crash while sending loses nothing -----------------------------------------------


def crash_while_sending(db: Path, now: float, mode: str) -> list[str]:
    """Run a timer pass at ``now`` in another process and SIGKILL it at its first send."""
    return run_and_kill(
        "tests.bot.core.notice_crash",
        [str(db), repr(now), mode],
        lambda lines: lines[-1].startswith(("SENDING", "SENT", "DONE")),
    )


async def test_a_reminder_interrupted_by_a_crash_is_sent_after_the_restart(h: Harness) -> None:
    await bob_to_move(h)
    await h.clock.advance(DAY - HOUR + 1)
    said = crash_while_sending(h.path, h.clock.now(), "before")
    assert said and said[-1].startswith("SENDING main ⏰ Bob, it's your move"), said
    await h.restart()
    await h.service.fire_due()  # the dead process still holds the reminder, for a while
    await h.clock.advance(LEASE)
    await h.service.fire_due()
    assert len(texts(h.outbox, "Bob, it's your move")) == 1
    await h.restart()
    await h.clock.advance(LEASE)
    await h.service.fire_due()
    assert len(h.outbox.sent) == 1


async def test_a_time_out_notice_interrupted_by_a_crash_is_sent_after_the_restart(
    h: Harness,
) -> None:
    await bob_to_move(h)
    await h.clock.advance(DAY + 1)
    said = crash_while_sending(h.path, h.clock.now(), "before")
    assert said and said[-1].startswith("SENDING main Bob ran out of time"), said
    assert not (await h.game(1)).active  # the result was committed before the send
    await h.restart()
    await h.clock.advance(LEASE)
    await h.service.fire_due()
    assert len(texts(h.outbox, "Bob ran out of time")) == 1
    await h.clock.advance(DAY)
    await h.service.fire_due()
    assert len(h.outbox.sent) == 1


async def test_a_crash_after_the_platform_took_it_gives_one_duplicate_at_most(
    h: Harness,
) -> None:
    await bob_to_move(h)
    await h.clock.advance(DAY - HOUR + 1)
    said = crash_while_sending(h.path, h.clock.now(), "after")
    assert said and said[-1].startswith("SENT main"), said
    await h.restart()
    for _ in range(3):
        await h.clock.advance(LEASE)
        await h.service.fire_due()
        await h.restart()
    # The process that died had delivered it; sent again after the restart (once): the one
    # duplicate a crash between the platform's answer and the database's note can cause.
    assert len(texts(h.outbox, "Bob, it's your move")) == 1


# --- (c) several processes on one database ---------------------------------------------------


async def test_two_services_on_one_database_deliver_each_notice_once(h: Harness) -> None:
    other = await Harness(h.path, h.clock, h.config).open()
    try:
        pairs = ((ALICE, BOB), (CAROL, DAVE), (BOB, CAROL))
        for i, (sente, gote) in enumerate(pairs):
            room = ChatKey("console", f"room{i}")
            game = await h.start_game(sente, gote, time="1d", chat=room)
            await h.play(game, "7g7f")
        h.outbox.sent.clear()  # the moves, announced in the rooms (they were made from MAIN)
        await h.clock.advance(DAY - HOUR + 1)
        for _ in range(3):
            await asyncio.gather(h.service.fire_due(), other.service.fire_due())
        sent = h.outbox.sent + other.outbox.sent
        assert sorted(c.chat_id for c, r in sent if "your move" in r.text) == [
            "room0",
            "room1",
            "room2",
        ]
        await h.clock.advance(HOUR)
        for _ in range(3):
            await asyncio.gather(other.service.fire_due(), h.service.fire_due())
        sent = h.outbox.sent + other.outbox.sent
        assert sorted(c.chat_id for c, r in sent if "ran out of time" in r.text) == [
            "room0",
            "room1",
            "room2",
        ]
        assert len(sent) == 6
        assert all(n.state is NoticeState.DELIVERED for n in await h.store.notices())
    finally:
        await other.close()


async def test_a_process_without_the_platform_leaves_the_notice_to_one_with_it(
    h: Harness,
) -> None:
    """A Discord-only process may end a console (or Telegram) game on time: the notice waits
    for a process that can send it."""
    elsewhere = await Harness(h.path, h.clock, h.config).open()
    discord_only = RecordingOutbox()
    elsewhere.service.outboxes.clear()
    elsewhere.service.outboxes["discord"] = discord_only
    try:
        await bob_to_move(h)
        await h.clock.advance(DAY - HOUR + 1)
        assert await elsewhere.service.fire_due() == 1
        await h.clock.advance(HOUR)
        assert await elsewhere.service.fire_due() == 1
        assert not (await h.game(1)).active and discord_only.sent == []
        assert await elsewhere.service.next_due() is None  # nothing there for it to do
        await h.service.fire_due()
        assert len(texts(h.outbox, "ran out of time")) == 1
        assert texts(h.outbox, "your move") == []  # the reminder came too late to matter
    finally:
        await elsewhere.close()


async def wait_for(check: object, timeout: float = 5.0) -> None:
    assert callable(check)
    for _ in range(int(timeout / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_notices_say_their_language(h: Harness) -> None:
    """A notice written in the chat's language says so to the front end (which adds its own
    words, such as the console's "image:", in that language), also after the outbox."""
    assert load_reply(dump_reply(Reply("Ход", lang="ru"))).lang == "ru"
    game = await h.start_game(ALICE, BOB)
    await h.play(game, "7g7f")
    await h.say(CAROL, "settings", "language", "ru")
    h.outbox.sent.clear()
    await h.clock.advance(DAY - HOUR + 1)  # the reminder an hour before the deadline
    await h.service.fire_due()
    await h.clock.advance(HOUR)  # the time-out, a board with its result
    await h.service.fire_due()
    said = [r.text.split()[:2] for _chat, r in h.outbox.sent]
    assert len(said) == 2 and said[0][0] == "⏰", said
    assert [r.lang for _chat, r in h.outbox.sent] == ["ru", "ru"]
