"""Positions at scale: cheap rebuilds that equal a checked replay, damaged records still
found, legal moves generated once per move, text boards only where shown, store trips bounded."""

from __future__ import annotations

import gc
import random
import sys
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from bot.core.api import ChatKey, Request, User
from bot.core.positions import (
    CorePosition,
    DamagedRecordError,
    PositionCache,
    entry_bytes,
    plausible,
    rebuild,
    replay,
)
from bot.store.models import GameRow, GameStatus
from rules import Move, Position, load_variant, movegen
from rules.move import parse_usi
from tests.bot.core.harness import Harness


def row(variant: str, moves: tuple[str, ...], game_id: int = 1, version: int = 1) -> GameRow:
    return GameRow(
        game_id, ChatKey("console", "main", None), variant, load_variant(variant).start_sfen,
        moves, version, "console:alice", "console:bob", GameStatus.ACTIVE, None, None, None,
        None, None, None, 0.0, 0.0,
    )  # fmt: skip


def random_moves(variant: str, plies: int, rng: random.Random) -> tuple[str, ...]:
    pos = Position.start(load_variant(variant))
    usis: list[str] = []
    while len(usis) < plies and pos.outcome() is None:
        move = rng.choice(pos.legal_moves())
        usis.append(pos.usi(move))
        pos.push(move)
    return tuple(usis)


def same(a: Position, b: Position) -> None:
    assert a.sfen() == b.sfen()
    assert a.hash == b.hash and a.kings == b.kings
    assert a._stack == b._stack  # every undo record: takebacks and perpetual check work alike
    assert a._rep == b._rep  # repetition counts
    assert a.repetitions() == b.repetitions() and a.outcome() == b.outcome()


@pytest.mark.parametrize("variant", ["shogi", "wa"])
def test_a_rebuild_gives_the_position_a_checked_replay_gives(variant: str) -> None:
    rng = random.Random(11)
    for _ in range(12):
        game = row(variant, random_moves(variant, 160, rng))
        same(rebuild(game), replay(game))


def test_a_rebuild_keeps_repetitions_and_finds_fourfold_repetition() -> None:
    shuffle = ("5i4h", "5a4b", "4h5i", "4b5a") * 3  # the start position four times
    game = row("shogi", shuffle)
    rebuilt, checked = rebuild(game), replay(game)
    same(rebuilt, checked)
    assert rebuilt.repetitions() == 4
    outcome = rebuilt.outcome()
    assert outcome is not None and outcome.termination.value == "repetition"
    rebuilt.pop()
    assert rebuilt.repetitions() == 3  # history survives: a takeback works


def test_every_legal_move_passes_the_cheap_guards() -> None:
    rng = random.Random(5)
    for variant in ("shogi", "wa"):
        pos = Position.start(load_variant(variant))
        for usi in random_moves(variant, 120, rng):
            assert all(plausible(pos, m) for m in pos.legal_moves())
            pos.push_usi(usi)


@pytest.mark.parametrize(
    ("moves", "ply"),
    [
        (("7g7f", "7g7f"), 2),  # from an empty square
        (("7g7f", "3c3d", "8h2b"), 3),  # a capture along a blocked diagonal... now open: legal
        (("7g7f", "3c3d", "2h2a"), 3),  # the rook jumps over pieces
        (("7g7f", "3c3d", "P*5e"), 3),  # a drop with nothing in hand
        (("7g7f", "5c5d", "8h3c", "5a5b"), 4),  # gote's king walks into check
        (("5g5f", "5c5d", "5f5e"), 3),  # a pawn move that leaves nothing wrong... but legal
        (("7g7f", "3c3d", "7i7h+"), 3),  # promotion outside the zone
        (("2g2f", "3a3b", "7g7f", "3b3a"), 4),  # fine (4 plies), checked below as legal
    ],
)
def test_damaged_stored_moves_are_still_reported(moves: tuple[str, ...], ply: int) -> None:
    game = row("shogi", moves)
    try:
        checked = replay(game)
    except DamagedRecordError as exc:
        with pytest.raises(DamagedRecordError) as caught:
            rebuild(game)
        assert (caught.value.ply, caught.value.problem) == (exc.ply, exc.problem)
        assert exc.ply == ply
    else:
        same(rebuild(game), checked)


def test_a_move_that_leaves_its_own_king_in_check_is_reported() -> None:
    # 5g5f opens nothing; gote's 5c5d then sente's king steps to 5h? legal. Use a pin instead:
    moves = ("7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "4a3b", "6i5h", "2b3a", "4e2c", "3b2a")
    game = row("shogi", moves)
    with pytest.raises(DamagedRecordError) as checked:
        replay(game)
    with pytest.raises(DamagedRecordError) as cheap:
        rebuild(game)
    assert cheap.value.ply == checked.value.ply


def test_the_cache_is_bounded_by_bytes_and_its_estimate_is_measured() -> None:
    def deep(obj: object, seen: set[int]) -> int:
        if id(obj) in seen:
            return 0
        seen.add(id(obj))
        size = sys.getsizeof(obj)
        if isinstance(obj, dict):
            size += sum(deep(k, seen) + deep(v, seen) for k, v in obj.items())
        elif isinstance(obj, (list, tuple)):
            size += sum(deep(x, seen) for x in obj)
        return size

    rng = random.Random(3)
    for variant in ("shogi", "wa"):
        for plies in (0, 60, 200):
            pos = rebuild(row(variant, random_moves(variant, plies, rng)))
            pos.legal_moves()
            for kept in (pos, pos.packed()):  # as played, and as the cache holds it
                seen = {id(i) for i in range(-5, 257)}
                measured = sys.getsizeof(kept) + sum(deep(getattr(kept, a), seen) for a in PARTS)
                estimate = entry_bytes(kept)
                assert 0.75 * measured <= estimate <= 1.4 * measured + 1000, (plies, measured)

    cache = PositionCache(max_bytes=200_000)
    long = rebuild(row("shogi", random_moves("shogi", 150, rng)))
    for gid in range(1, 20):
        cache.put(row("shogi", (), game_id=gid), long)
        assert cache.bytes <= cache.max_bytes
    assert 0 < len(cache) < 19
    assert cache.bytes == sum(entry_bytes(e[1]) for e in cache._entries.values())


PARTS = ("board", "hands", "kings", "_stack", "_rep", "_legal")


def test_a_cached_position_gives_the_garbage_collector_nothing_to_visit_per_move() -> None:
    """A full collection visits every container object the process holds: a cached game
    must hold a few, however long it is, or the pauses grow with the cache (300,000 objects
    and 20-40 ms pauses for 1,000 games of 80 moves, before)."""

    def tracked(obj: object, seen: set[int]) -> int:
        if id(obj) in seen:
            return 0
        seen.add(id(obj))
        inside: Iterable[object] = ()
        if isinstance(obj, dict):
            inside = [*obj.keys(), *obj.values()]
        elif isinstance(obj, (list, tuple)):
            inside = obj
        return int(gc.is_tracked(obj)) + sum(tracked(x, seen) for x in inside)

    rng = random.Random(5)
    for variant in ("shogi", "wa-drops"):
        counts = []
        for gid, plies in enumerate((10, 200), 1):
            cache = PositionCache()
            game = row(variant, random_moves(variant, plies, rng), game_id=gid)
            pos = rebuild(game)
            pos.legal_moves()
            cache.put(game, pos)
            gc.collect()  # tuples of plain values are untracked by the first collection
            kept = cache._entries[gid][1]
            counts.append(sum(tracked(getattr(kept, a), set()) for a in PARTS))
        assert counts[0] == counts[1] <= 8, counts
        copy = cache.cached(game)
        assert copy is not None and copy.legal_moves() == movegen.legal_moves(copy)
        assert all(type(m) is Move for m in copy.legal_moves())
        assert copy.move_stack == [parse_usi(copy.variant, u) for u in game.moves]


def test_a_position_generates_its_legal_moves_once_until_it_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = count_generation(monkeypatch)
    pos = CorePosition.adopt(Position.start(load_variant("shogi")))
    pos.legal_moves()
    pos.copy().legal_moves()
    assert pos.is_legal(pos.parse_usi("7g7f"))
    assert calls() == 1
    pos.push_usi("7g7f")
    assert pos.legal_moves() == Position.from_sfen(pos.variant, pos.sfen()).legal_moves()
    threat = pos.with_side_to_move(0)  # the other side's moves, not gote's
    assert threat.legal_moves() == movegen.legal_moves(threat)


def count_generation(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    n = [0]
    original = movegen.legal_moves

    def counted(pos: Position) -> Any:
        n[0] += 1
        return original(pos)

    monkeypatch.setattr(movegen, "legal_moves", counted)
    return lambda: n[0]


# --- the move path through the service ----------------------------------------------------

DISCORD = ChatKey("discord", "room")
A, B = User("discord", "a", "Ann"), User("discord", "b", "Ben")


async def discord_game(h: Harness) -> None:
    await h.service.handle(Request(DISCORD, A, "challenge", ("shogi", "sente"), target=B))
    await h.service.handle(Request(DISCORD, B, "accept"))


MOVE_TRIPS = 3


def count_trips(h: Harness) -> Callable[[], int]:
    """Every trip to the database thread (aiosqlite sends each call through ``_execute``)."""
    n = [0]
    db: Any = h.store._db
    original = db._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        n[0] += 1
        return await original(fn, *args, **kwargs)

    db._execute = counted
    return lambda: n[0]


async def test_a_move_generates_legal_moves_once_and_bounds_store_trips(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await discord_game(h)
    await h.service.handle(Request(DISCORD, A, "move", ("7g7f",)))  # warms names and cache
    calls = count_generation(monkeypatch)
    trips = count_trips(h)
    for user, text in ((B, "3c3d"), (A, "P-2f"), (B, "8c8d")):
        before_calls, before_trips = calls(), trips()
        reply = await h.service.handle(Request(DISCORD, user, "move", (text,)))
        assert " played " in reply.text
        assert calls() - before_calls == 1  # read, printed and judged with one list
        # settings and the game (one trip each), and the transaction that commits the move
        # and replaces its timers, whole in one trip (bot.store.group_commit): not per ply
        assert trips() - before_trips <= MOVE_TRIPS
    game = await h.store.active_game(ChatKey("discord", "room", None), "discord:a")
    assert game is not None and len(game.moves) == 4
    assert [t.game_version for t in await h.store.pending_timers(game.id)] == [game.version] * len(
        await h.store.pending_timers(game.id)
    )


async def test_a_cache_miss_still_answers_with_one_generation(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await discord_game(h)
    await h.service.handle(Request(DISCORD, A, "move", ("7g7f",)))
    h.service.games.positions = PositionCache()  # as after a restart or an eviction
    calls = count_generation(monkeypatch)
    reply = await h.service.handle(Request(DISCORD, B, "move", ("3c3d",)))
    assert " played " in reply.text and calls() == 2  # the rebuilt position's, the new one's


class ImageFront:
    """A front end that shows images and no text boards (as Discord and Telegram)."""

    async def send(self, chat: ChatKey, reply: Any) -> None: ...
    async def edit_card(self, chat: ChatKey, card: str, reply: Any) -> None: ...


async def test_no_text_board_for_a_front_end_that_does_not_show_it(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.core import pictures, present

    built = [0]
    original = present.board_text

    def counted(*args: Any, **kwargs: Any) -> str:
        built[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(present, "board_text", counted)
    monkeypatch.setattr(pictures, "draw_board_job", lambda job: b"png")
    h.service.pictures.enabled = True
    h.service.outboxes["discord"] = ImageFront()
    await discord_game(h)
    built[0] = 0
    reply = await h.service.handle(Request(DISCORD, A, "move", ("7g7f",)))
    assert reply.image is not None and reply.text_board is None and built[0] == 0
    # a request from a front end that shows text boards (the console) still gets one
    reply = await h.service.handle(
        Request(DISCORD, B, "move", ("3c3d",), options={"text_board": "1"})
    )
    assert reply.text_board is not None and built[0] == 1
    # and so does any reply without an image
    h.service.pictures.enabled = False
    reply = await h.service.handle(Request(DISCORD, A, "move", ("2g2f",)))
    assert reply.image is None and reply.text_board is not None


async def test_the_console_front_end_asks_for_text_boards() -> None:
    from bot.console_front import ConsoleFrontEnd

    assert ConsoleFrontEnd.shows_text_board is True
