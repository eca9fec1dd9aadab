"""Main time + byoyomi (``5m+30s``): main time spent first, then every move within the byoyomi
(afresh each move), as a shogi clock does; warnings once; loss on time by the durable timers
across restarts, with time passing while the bot is down (fake clock, no sleeps)."""

from __future__ import annotations

import pytest

from bot.store import TimerKind
from rules.records import import_record
from tests.bot.core.harness import ALICE, BOB, Harness


async def pending(h: Harness, game_id: int) -> list[tuple[TimerKind, int | None, float]]:
    return [(t.kind, t.offset, t.due_at) for t in await h.store.pending_timers(game_id)]


async def test_a_5m_30s_game_spends_main_time_then_byoyomi(h: Harness) -> None:
    start = h.clock.now()
    game = await h.start_game(time="5m+30s")
    assert (game.main_time, game.time_per_move, game.time_left) == (300, 30, (300.0, 300.0))
    assert game.deadline == start + 330  # Alice's five minutes, then her first byoyomi
    await h.clock.advance(100)
    reply = await h.play(game, "7g7f")  # Alice spent 100 s of her main time
    assert "⏱ Main time left: Alice ☗ 3:20 · Bob ☖ 5:00" in reply.text, reply.text
    assert "(in 5m 30s)" in reply.text, reply.text  # Bob's deadline, to the second
    after = await h.game(1)
    assert after.time_left == (200.0, 300.0) and after.deadline == h.clock.now() + 330
    await h.clock.advance(320)  # Bob spends all his main time and 20 s of byoyomi
    reply = await h.play(game, "3c3d")
    assert "Alice ☗ 3:20 · Bob ☖ byoyomi" in reply.text, reply.text
    after = await h.game(1)
    assert after.time_left == (200.0, 0.0) and after.deadline == h.clock.now() + 230
    await h.clock.advance(10)
    await h.play(game, "2g2f")
    after = await h.game(1)
    assert after.time_left == (190.0, 0.0)
    assert after.deadline == h.clock.now() + 30  # Bob moves within his byoyomi now
    for _ in range(2):  # each move in byoyomi is in time, and the byoyomi starts afresh
        await h.clock.advance(29)
        assert await h.service.fire_due() == 0
        await h.play(game, "8c8d" if _ == 0 else "8d8e")
        await h.clock.advance(5)
        await h.play(game, "2f2e" if _ == 0 else "2e2d")
    assert (await h.game(1)).deadline == h.clock.now() + 30
    await h.clock.advance(29.9)
    assert await h.service.fire_due() == 0 and (await h.game(1)).active
    await h.clock.advance(0.1)  # 30 s of byoyomi used up: Bob loses on time
    assert await h.service.fire_due() == 1
    final = await h.game(1)
    assert (final.termination, final.winner) == ("timeout", 0)
    assert "Bob ran out of time" in h.outbox.sent[-1][1].text
    assert not [s for s in h.outbox.sent if "⏰" in s[1].text]  # no warning with 30 s byoyomi


async def test_the_main_time_warning_comes_once_at_a_minute_left(h: Harness) -> None:
    game = await h.start_game(time="5m+30s")
    start = h.clock.now()
    # the warning of a minute of main time left, then the deadline (30 s byoyomi: no more)
    assert await pending(h, game.id) == [
        (TimerKind.REMINDER, 90, start + 240),
        (TimerKind.DEADLINE, 0, start + 330),
    ]
    await h.clock.advance(239)
    assert await h.service.fire_due() == 0
    await h.restart()
    await h.clock.advance(1)
    assert await h.service.fire_due() == 1
    ((_chat, warning),) = h.outbox.sent
    assert (
        "⏰ Alice, it's your move in game #1 against Bob: 1m of main time left, "
        "then 30s a move (byoyomi)."
    ) in warning.text, warning.text
    assert "(in 1m 30s)" in warning.text and warning.mentions == (ALICE,)
    await h.restart()
    assert await h.service.fire_due() == 0 and len(h.outbox.sent) == 1  # once
    await h.clock.advance(30)
    await h.play(game, "7g7f")  # 30 s of main time left: no second warning in her next turns
    await h.play(game, "3c3d")
    assert [k for k, _o, _d in await pending(h, game.id)] == [TimerKind.DEADLINE]
    assert len(h.outbox.sent) == 1


async def test_a_byoyomi_longer_than_30_s_warns_each_move(h: Harness) -> None:
    game = await h.start_game(time="1m+1m")
    start = h.clock.now()
    # a minute of main time is all Alice has: no main-time warning, the byoyomi's only
    assert await pending(h, game.id) == [
        (TimerKind.REMINDER, 30, start + 90),
        (TimerKind.DEADLINE, 0, start + 120),
    ]
    await h.clock.advance(90)
    assert await h.service.fire_due() == 1
    assert "Alice, it's your move in game #1 against Bob: 30s left." in h.outbox.sent[-1][1].text
    await h.clock.advance(20)
    await h.play(game, "7g7f")  # Alice in byoyomi: 20 s into it
    await h.play(game, "3c3d")  # Bob at once: his main time kept
    assert (await h.game(1)).time_left == (0.0, 60.0)
    now = h.clock.now()
    assert await pending(h, game.id) == [
        (TimerKind.REMINDER, 30, now + 30),  # again this move
        (TimerKind.DEADLINE, 0, now + 60),
    ]


async def test_a_restart_neither_forgives_nor_doubles_a_loss_in_byoyomi(h: Harness) -> None:
    game = await h.start_game(time="5m+30s")
    await h.play(game, "7g7f")
    deadline = (await h.game(1)).deadline
    assert deadline == h.clock.now() + 330
    await h.close()  # the bot is down while Bob's clock runs, past his deadline
    await h.clock.advance(400)
    await h.open()
    late = await h.say(BOB, "move", "3c3d")
    assert "Too late: the deadline of game #1 has passed" in late.text, late.text
    assert (await h.game(1)).moves == ("7g7f",)  # the move is not played
    assert await h.service.fire_due() == 2  # the deadline, and the warning missed meanwhile
    assert not [r for _c, r in h.outbox.sent if "⏰" in r.text]  # a moot warning is not sent
    final = await h.game(1)
    assert (final.termination, final.winner) == ("timeout", 0)
    await h.restart()
    await h.clock.advance(3600)
    assert await h.service.fire_due() == 0
    assert sum("ran out of time" in r.text for _c, r in h.outbox.sent) == 1  # lost once


async def test_a_restart_while_the_clock_runs_ends_the_game_at_the_deadline(h: Harness) -> None:
    game = await h.start_game(time="5m+30s")
    await h.clock.advance(300)
    await h.play(game, "7g7f")  # Alice used all but 0 s of her main time: byoyomi next turn
    await h.play(game, "3c3d")
    assert (await h.game(1)).deadline == h.clock.now() + 30
    await h.restart()
    await h.clock.advance(29)
    await h.restart()
    assert await h.service.fire_due() == 0 and (await h.game(1)).active
    await h.clock.advance(1)
    assert await h.service.fire_due() == 1
    final = await h.game(1)
    assert (final.termination, final.winner, final.finished_at) == ("timeout", 1, h.clock.now())


@pytest.mark.parametrize(
    ("typed", "main", "byoyomi"),
    [
        (("10m+30s",), 600, 30),
        (("5m+30s",), 300, 30),
        (("1h+1m",), 3600, 60),
        (("10m", "30s"), 600, 30),
        (("10M+30S",), 600, 30),
    ],
)
async def test_accepted_spellings(
    h: Harness, typed: tuple[str, ...], main: int, byoyomi: int
) -> None:
    card = await h.say(ALICE, "challenge", *typed, "sente", target=BOB)
    assert card.card is not None, card.text
    challenge = await h.store.get_challenge(1)
    assert challenge is not None
    assert (challenge.main_time, challenge.time_per_move) == (main, byoyomi)
    assert "main time +" in card.text and "byoyomi" in card.text, card.text
    begins = await h.say(BOB, "accept")
    game = await h.game(1)
    assert (game.main_time, game.time_per_move) == (main, byoyomi)
    assert "main time +" in begins.text and "⏱ Main time left" in begins.text, begins.text


@pytest.mark.parametrize("typed", ["10m+", "+30s", "10m+abc", "10x+30s", "10m+30s+5s", "٣m+30s"])
async def test_a_bad_spelling_names_what_is_accepted(h: Harness, typed: str) -> None:
    reply = await h.say(ALICE, "challenge", typed, target=BOB)
    assert f"I can't read '{typed}' as main time and byoyomi" in reply.text, reply.text
    assert "10m+30s, 5m+30s or 1h+1m (or 10m 30s)" in reply.text
    assert reply.card is None and await h.store.get_challenge(1) is None


@pytest.mark.parametrize("typed", ["10m+5s", "30s+30s", "11h+30s", "10m+2h", "10m+0s"])
async def test_a_time_control_out_of_range_is_refused(h: Harness, typed: str) -> None:
    reply = await h.say(ALICE, "play", typed)
    assert (
        f"Main time must be between 1m and 10h, and byoyomi between 10s and 1h; {typed} is not."
        == reply.text
    ), reply.text
    assert await h.store.get_game(1) is None


async def test_play_against_the_bot_with_main_time(h: Harness) -> None:
    reply = await h.say(ALICE, "play", "5m+30s", "sente")
    assert "5m main time + 30s byoyomi" in reply.text, reply.text
    game = await h.game(1)
    assert (game.main_time, game.time_per_move, game.time_left) == (300, 30, (300.0, 300.0))
    assert game.deadline == h.clock.now() + 330  # Alice's; the bot has no deadline
    assert "⏱ Main time left: Alice ☗ 5:00 · Komabot, level 3 ☖ —" in reply.text, reply.text


async def test_games_list_help_and_records_show_the_control(h: Harness) -> None:
    game = await h.start_game(time="10m+30s")
    listing = await h.say(ALICE, "games")
    assert "10m main time + 30s byoyomi" in listing.text, listing.text
    ru = await h.say(ALICE, "settings", "language", "ru")
    assert ru.text
    listing = await h.say(ALICE, "games")
    assert "10 минут на партию, затем 30 секунд на ход (бёёми)" in listing.text, listing.text
    await h.say(ALICE, "settings", "language", "en")
    helped = await h.say(ALICE, "help", "challenge")
    assert "/challenge @bob 10m+30s" in helped.text and "1h+1m" in helped.text
    await h.play(game, "7g7f")
    kif = (await h.say(ALICE, "export", "kif", "1")).files[0].data
    assert "持ち時間：10分+30秒" in kif.decode("cp932")
    csa = (await h.say(ALICE, "export", "csa", "1")).files[0].data
    assert "$TIME_LIMIT:00:10+30" in csa.decode()
    assert import_record(csa, "game.csa").time_control == (600, 30)


async def test_a_takeback_keeps_the_time_used_and_restarts_the_clock(h: Harness) -> None:
    game = await h.start_game(time="5m+30s")
    await h.clock.advance(100)
    await h.play(game, "7g7f")  # Alice: 200 s left
    await h.clock.advance(50)
    await h.say(ALICE, "takeback")  # while Bob's clock runs
    done = await h.say(BOB, "takeback", "accept")
    assert "P-7f taken back" in done.text, done.text
    assert "⏱ Main time left: Alice ☗ 3:20 · Bob ☖ 4:10" in done.text, done.text
    after = await h.game(1)
    assert after.moves == () and after.time_left == (200.0, 250.0)
    assert after.deadline == h.clock.now() + 230  # Alice to move again, with her 200 s
