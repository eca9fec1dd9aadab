"""The store's outbox: notices queued with a state change, leased to one process at a time
(on both backends)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.store import ChatKey, GameStatus, TimerKind, VersionConflict
from bot.store.models import NewNotice, NoticeState
from bot.store.sql import SqlStore
from tests.bot.store.conftest import OpenStore
from tests.bot.store.test_sqlite import CHAT, add_game

DM = ChatKey("console", "dm:a")


def notice(kind: str = "timeout", chat: ChatKey = CHAT, **changes: object) -> NewNotice:
    return replace(NewNotice(kind, chat, '{"text": "hi"}', "kb1", 100.0), **changes)  # type: ignore[arg-type]


async def test_notices_are_queued_with_the_game_update_or_not_at_all(store: SqlStore) -> None:
    game = await add_game(store)
    ended = replace(game, status=GameStatus.FINISHED)
    await store.update_game(ended, timers=[], notices=[notice(game_id=game.id)])
    with pytest.raises(VersionConflict):  # the same version again: nothing is queued
        await store.update_game(ended, timers=[], notices=[notice(game_id=game.id)])
    assert [n.game_id for n in await store.notices()] == [game.id]


async def test_a_reminder_notice_comes_only_with_the_claim_of_its_timer(
    open_store: OpenStore,
) -> None:
    store = await open_store()
    other = await open_store()
    try:
        game = await add_game(store)
        (timer,) = [t for t in await store.due_timers(10**9) if t.game_id == game.id]
        assert await store.mark_fired([timer.id], 5.0, [notice("reminder")]) == [timer.id]
        assert await other.mark_fired([timer.id], 6.0, [notice("reminder")]) == []
        assert len(await store.notices()) == 1
    finally:
        await store.close()
        await other.close()


async def test_a_claimed_notice_is_nobody_elses_until_its_lease_ends(open_store: OpenStore) -> None:
    one = await open_store()
    two = await open_store()
    try:
        await one.queue_notices([notice()])
        assert await one.claim_notices(["console"], 99.0, "one", 160.0) == []  # not yet due
        (held,) = await one.claim_notices(["console"], 100.0, "one", 160.0)
        assert (held.attempts, held.claimed_by, held.claimed_until) == (1, "one", 160.0)
        assert await two.claim_notices(["console"], 159.0, "two", 219.0) == []
        assert await two.next_notice_due(["console"]) == 160.0
        assert await two.next_notice_due(["discord"]) is None
        assert await one.renew_notice(held.id, "one", 200.0)
        assert await two.claim_notices(["console"], 160.0, "two", 220.0) == []
        # "one" died: at the end of its lease "two" takes the notice over.
        (taken,) = await two.claim_notices(["console"], 200.0, "two", 260.0)
        assert (taken.id, taken.attempts, taken.claimed_by) == (held.id, 2, "two")
        assert not await one.renew_notice(held.id, "one", 300.0)
        await one.retry_notice(held.id, "one", 205.0, "late")  # not its lease: no effect
        assert (await one.notices())[0].claimed_by == "two"
        await two.finish_notice(taken.id, NoticeState.DELIVERED, 201.0)
        assert await one.claim_notices(["console"], 10**9, "one", 10**9) == []
        (done,) = await one.notices()
        assert (done.state, done.done_at, done.claimed_by) == (NoticeState.DELIVERED, 201.0, None)
    finally:
        await one.close()
        await two.close()


async def test_a_failed_notice_waits_or_moves_to_its_fallback(store: SqlStore) -> None:
    await store.queue_notices(
        [notice("reminder", DM, fallback=CHAT, fallback_payload='{"text": "@a"}')]
    )
    (first,) = await store.claim_notices(["console"], 100.0, "me", 160.0)
    assert first.chat == DM and first.fallback == CHAT
    await store.retry_notice(first.id, "me", 100.0, "refused", to_fallback=True)
    (second,) = await store.claim_notices(["console"], 100.0, "me", 160.0)
    assert (second.chat, second.payload, second.fallback) == (CHAT, '{"text": "@a"}', None)
    assert second.last_error == "refused"
    await store.retry_notice(second.id, "me", 130.0, "500")
    assert await store.claim_notices(["console"], 129.0, "me", 189.0) == []
    assert await store.next_notice_due(["console"]) == 130.0
    assert len(await store.claim_notices(["console"], 130.0, "me", 190.0)) == 1


async def test_a_failing_timer_is_postponed(store: SqlStore) -> None:
    game = await add_game(store)
    (timer,) = [t for t in await store.pending_timers(game.id)]
    assert timer.kind is TimerKind.DEADLINE
    due = timer.due_at
    assert await store.postpone_timer(timer.id, due + 5) == 1
    assert await store.due_timers(due + 4) == []
    assert await store.next_due() == due + 5
    (again,) = await store.due_timers(due + 5)
    assert (again.attempts, again.next_attempt_at, again.due_at) == (1, due + 5, due)


async def test_old_settled_notices_are_pruned(store: SqlStore) -> None:
    await store.queue_notices([notice(), notice(created_at=500.0)])
    (first,) = await store.claim_notices(["console"], 100.0, "me", 160.0)
    await store.finish_notice(first.id, NoticeState.DELIVERED, 101.0)
    assert await store.prune_notices(200.0) == 1
    assert [n.created_at for n in await store.notices()] == [500.0]


async def test_a_delivered_notice_keeps_its_words_but_not_its_pictures(store: SqlStore) -> None:
    """The bot's every move is a notice with a board image: once delivered, the image goes."""
    from bot.core.api import Attachment, Reply
    from bot.core.delivery import dump_reply, load_reply

    board = Attachment(b"\x89PNG" * 5000, "board.png", "image/png")
    payload = dump_reply(Reply("Komabot played P-7f.", image=board, files=(board,)))
    await store.queue_notices([notice(payload=payload), notice(payload=payload, key="kb2")])
    sent, failed = await store.claim_notices(["console"], 100.0, "me", 160.0, limit=2)
    await store.finish_notice(sent.id, NoticeState.DELIVERED, 101.0)
    await store.finish_notice(failed.id, NoticeState.FAILED, 101.0, "refused")
    kept = {n.id: n.payload for n in await store.notices()}
    delivered = load_reply(kept[sent.id])
    assert delivered.text == "Komabot played P-7f." and not delivered.image
    assert not delivered.files and len(kept[sent.id]) < 500
    assert load_reply(kept[failed.id]).image == board  # kept to look into
