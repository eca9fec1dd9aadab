"""Reading a challenge's terms takes time in proportion to the words typed: a line of 200,000
words costs about a hundred times a line of 2,000, not ten thousand times (a ``pop(0)`` per
word copied the rest of the line each time)."""

from __future__ import annotations

import time

from bot.core.api import ChatKey, Request, User
from bot.core.context import Context
from bot.core.people import People
from bot.core.terms import read_terms
from bot.store.models import ChatSettings

CHAT = ChatKey("console", "main")
ALICE = User("console", "alice", "Alice")
BOB = User("console", "bob", "Bob")


class NoStore:
    """People never look anyone up here: every word is the mention already resolved."""


async def cpu_seconds(words: int) -> float:
    """CPU time to read ``words`` mentions of the opponent the platform resolved."""
    request = Request(CHAT, ALICE, "challenge", args=("@bob",) * words, target=BOB)
    ctx = Context(request, CHAT, ALICE.key, ChatSettings(), 0.0)
    people = People(NoStore())  # type: ignore[arg-type]
    started = time.process_time()
    terms = await read_terms(ctx, people, None)
    spent = time.process_time() - started
    assert terms.opponent == BOB
    return spent


async def test_reading_terms_is_linear_in_the_words() -> None:
    small = min([await cpu_seconds(2_000) for _ in range(5)])
    large = min([await cpu_seconds(200_000) for _ in range(2)])
    # linear: about 100 times; one pop(0) per word: thousands of times (tens of seconds)
    assert large < 1_000 * max(small, 1e-4), (small, large)
