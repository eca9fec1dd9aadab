"""A challenge's handicap (migration 13) kept and read back on both backends, and a database
from before it upgraded with its open challenges, which have none."""

from __future__ import annotations

from bot.store.migrations import LATEST
from tests.bot.store.conftest import OpenStore
from tests.bot.store.test_sqlite import CHAT


async def test_a_challenge_keeps_its_handicap(open_store: OpenStore) -> None:
    store = await open_store()
    try:
        made = await store.create_challenge(
            CHAT, "console:a", "console:b", "shogi", "gote", None, 1.0, 9e9,
            rated=False, handicap="rook",
        )  # fmt: skip
        assert (made.handicap, made.rated) == ("rook", False)
        again = await store.get_challenge(made.id)
        assert again == made
        (listed,) = await store.open_challenges(CHAT, by="console:a")
        assert listed.handicap == "rook"
        plain = await store.create_challenge(CHAT, "console:c", None, "wa", "random", None, 1, 9e9)
        assert plain.handicap is None and await store.get_challenge(plain.id) == plain
    finally:
        await store.close()


async def test_challenges_from_before_handicaps_have_none(open_store: OpenStore) -> None:
    store = await open_store(target_version=12)  # before migration 13
    made = await store.create_challenge(CHAT, "console:a", None, "shogi", "random", None, 1, 9e9)
    await store.close()
    store = await open_store()
    try:
        again = await store.get_challenge(made.id)
        assert again is not None and again.handicap is None and again.id == made.id
        assert await store.schema_version() == LATEST
    finally:
        await store.close()
