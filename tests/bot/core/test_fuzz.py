"""Fuzzed command text: only user-facing answers, never a crash, never a changed game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.api import Request, User
from bot.core.commands import COMMANDS
from bot.store import GameRow
from tests.bot.core.harness import ALICE, MAIN, Harness, person

COMMAND_NAMES = [c.name for c in COMMANDS] + [a for c in COMMANDS for a in c.aliases]
WORDS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "1",
            "#1",
            "2",
            "99999999999999",
            "yes",
            "accept",
            "decline",
            "offer",
            "@bob",
            "@",
            "wa",
            "shogi",
            "sente",
            "none",
            "0d",
            "7g7f",
            "P*5e",
            "11k11j",
            "kif",
            "gif",
            "notation",
            "japanese",
            "style",
            "perspective",
            "７六歩",
            "同　歩",
            "+R-3c",
            "\x00",
            "-1",
            "1e9",
        ]
    ),
)
WATCHED = (
    "move",
    "resign",
    "draw",
    "abort",
    "takeback",
    "impasse",
    "accept",
    "decline",
    "cancel",
    "challenge",
    "settings",
)


def snapshot(game: GameRow) -> tuple[object, ...]:
    return (game.moves, game.version, game.status, game.draw_offer, game.takeback_offer)


async def ready(h: Harness) -> GameRow:
    game = await h.store.get_game(1)
    if game is None:
        game = await h.start_game()
        await h.play(game, "7g7f")
        game = await h.game(1)
    return game


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    command=st.one_of(st.sampled_from(COMMAND_NAMES), st.text(max_size=10)),
    args=st.lists(WORDS, max_size=5),
)
async def test_a_spectator_can_never_change_a_game(
    h: Harness, command: str, args: list[str]
) -> None:
    game = await ready(h)
    stranger = User("console", "mallory", "Mallory")
    reply = await h.service.handle(Request(MAIN, stranger, command, tuple(args)))
    assert reply.text.strip()
    assert "went wrong" not in reply.text
    assert snapshot(await h.game(game.id)) == snapshot(game)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(text=st.lists(WORDS, min_size=1, max_size=3).map(" ".join))
async def test_garbage_moves_are_refused_or_played_whole(h: Harness, text: str) -> None:
    game = await ready(h)
    user = person(game.player(len(game.moves) % 2).partition(":")[2])  # the player to move
    reply = await h.service.handle(Request(MAIN, user, "move", tuple(text.split())))
    assert reply.text.strip() and "went wrong" not in reply.text
    after = await h.game(game.id)
    if "played" in reply.text and not reply.ephemeral:
        assert len(after.moves) == len(game.moves) + 1 or not after.active
    else:
        assert snapshot(after) == snapshot(game)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(command=st.sampled_from(WATCHED), args=st.lists(WORDS, max_size=4))
async def test_players_get_answers_for_any_arguments(
    h: Harness, command: str, args: list[str]
) -> None:
    await ready(h)
    reply = await h.service.handle(Request(MAIN, ALICE, command, tuple(args)))
    assert reply.text.strip() and "went wrong" not in reply.text
