"""/analyse's rows on both backends: finished analyses kept by game, budget and engine; the
requests chats wait for, claimed by one process at a time, taken up when a claim ends."""

from __future__ import annotations

from bot.store.models import AnalysisRequest, AnalysisRow, ChatKey
from bot.store.sql import SqlStore

MAIN = ChatKey("discord", "42", "7", "900")
SCORES = (0, 35, -120, 99_998)
ROW = AnalysisRow(3, "ms:300", "builtin", "Komabot", SCORES, ("7g7f", "3c3d", None, None), 1.0)


async def test_an_analysis_is_kept_by_game_budget_and_engine(store: SqlStore) -> None:
    assert await store.get_analysis(3, "ms:300", "builtin") is None
    await store.save_analysis(ROW)
    assert await store.get_analysis(3, "ms:300", "builtin") == ROW
    assert await store.get_analysis(3, "ms:500", "builtin") is None
    assert await store.get_analysis(3, "ms:300", "yaneuraou --threads 1") is None
    again = AnalysisRow(3, "ms:300", "builtin", "Komabot", (0, 1), ("7g7f", None), 2.0)
    await store.save_analysis(again)  # the same key once more: replaced, not doubled
    assert await store.get_analysis(3, "ms:300", "builtin") == again


async def test_one_request_per_chat_held_by_one_process(store: SqlStore) -> None:
    request = AnalysisRequest(MAIN, 3, "analysis:3", 100.0)
    assert await store.claim_analysis_request(request, "one", until=115.0)
    other = AnalysisRequest(MAIN, 4, "analysis:4", 101.0)
    assert not await store.claim_analysis_request(other, "two", until=116.0)  # the chat waits
    assert await store.take_analysis_requests("two", now=110.0, until=125.0) == []  # held
    assert await store.renew_analysis_request(MAIN, "one", 130.0)
    assert not await store.renew_analysis_request(MAIN, "two", 130.0)
    # the holder died: once its claim ended, another process takes the request up, whole
    (taken,) = await store.take_analysis_requests("two", now=131.0, until=146.0)
    assert taken == request and taken.chat.thread_id == "7" and taken.chat.community == "900"
    assert not await store.renew_analysis_request(MAIN, "one", 150.0)  # no longer its own
    await store.end_analysis_request(MAIN, "one")  # not the holder: nothing happens
    assert not await store.claim_analysis_request(other, "one", until=160.0)
    await store.end_analysis_request(MAIN, "two")
    assert await store.claim_analysis_request(other, "one", until=160.0)  # the chat is free


async def test_a_clean_shutdown_gives_requests_up_at_once(store: SqlStore) -> None:
    request = AnalysisRequest(MAIN, 3, "analysis:3", 100.0)
    assert await store.claim_analysis_request(request, "one", until=1000.0)
    await store.release_analysis_requests("two")  # someone else's: kept
    assert await store.take_analysis_requests("two", now=101.0, until=116.0) == []
    await store.release_analysis_requests("one")
    assert await store.take_analysis_requests("two", now=101.0, until=116.0) == [request]
