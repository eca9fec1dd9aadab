"""Handicap games (駒落ち) through the game service: challenges that name a handicap in any
language, the game's start position and first mover, the challenge card, /games and the board
naming it, no ratings, bad terms refused, and games against the bot giving or taking it."""

from __future__ import annotations

import pytest

from bot.core.words import handicap_names
from bot.store import GameStatus
from bot.store.models import ENGINE_PLAYER
from rules import GOTE, Position, load_variant
from tests.bot.core.harness import ALICE, BOB, Harness
from tests.rules.test_handicaps import JAPANESE

ROOK_SFEN = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
SHOGI = load_variant("shogi")


async def test_a_rook_handicap_challenge_starts_from_the_handicap_with_gote_to_move(
    h: Harness,
) -> None:
    card = await h.say(ALICE, "challenge", "shogi", "handicap", "rook", "1d", target=BOB)
    assert card.card == "challenge:1", card.text
    assert "Shogi, handicap: Rook (飛車落ち)" in card.text
    assert "Alice gives the handicap, plays gote and moves first" in card.text
    assert "not rated" in card.text and "Alice plays gote" in card.text
    challenge = await h.store.get_challenge(1)
    assert challenge is not None
    assert (challenge.handicap, challenge.color, challenge.rated) == ("rook", "gote", False)
    start = await h.say(BOB, "accept")
    assert "Game #1 begins: Bob (sente ☗) vs Alice (gote ☖)" in start.text, start.text
    assert "Shogi, handicap: Rook (飛車落ち)" in start.text
    assert start.mentions == (ALICE,)  # the giver moves first
    game = await h.game(1)
    assert game.start_sfen == ROOK_SFEN and game.side_to_move == GOTE
    assert (game.sente, game.gote, game.rated) == (BOB.key, ALICE.key, False)
    assert game.deadline == h.clock.now() + 86400  # Alice's clock runs
    refused = await h.say(BOB, "move", "7g7f")
    assert "played" not in refused.text and len((await h.game(1)).moves) == 0
    played = await h.say(ALICE, "move", "3c3d")
    assert "Alice played" in played.text and played.mentions == (BOB,)
    assert "Bob" in played.text.split("Alice played", 1)[1]  # Bob (sente) to move
    listed = await h.say(BOB, "games")
    assert "Shogi, handicap: Rook (飛車落ち)" in listed.text, listed.text
    board = await h.say(BOB, "board")
    assert "handicap: Rook (飛車落ち)" in board.text, board.text


async def test_taking_the_handicap_plays_sente_and_the_opponent_moves_first(h: Harness) -> None:
    card = await h.say(ALICE, "challenge", "handicap", "bishop", "taking", target=BOB)
    assert "Bob gives the handicap, plays gote and moves first" in card.text, card.text
    await h.say(BOB, "accept")
    game = await h.game(1)
    assert (game.sente, game.gote) == (ALICE.key, BOB.key)
    assert game.start_sfen == SHOGI.handicaps["bishop"].sfen and game.side_to_move == GOTE


async def test_an_open_handicap_challenge_names_whoever_accepts_as_the_giver(
    h: Harness,
) -> None:
    card = await h.say(ALICE, "challenge", "香落ち", "taking")
    assert "whoever accepts gives the handicap" in card.text, card.text
    assert "Shogi, handicap: Lance (香落ち)" in card.text


@pytest.mark.parametrize("handicap", sorted(JAPANESE))
async def test_every_handicap_by_every_name(h: Harness, handicap: str) -> None:
    spec = SHOGI.handicaps[handicap]
    assert spec.names["ja"] == JAPANESE[handicap]
    typed = [
        ("handicap", handicap),
        ("handicap", *spec.names["en"].split()),
        (JAPANESE[handicap],),
        (spec.names["romaji"],),
        ("фора", *spec.names["ru"].split()),
        (*spec.names["ru"].split(),),
        (*spec.names["pl"].split(),),
        ("handicap", JAPANESE[handicap]),
    ]
    for n, words in enumerate(typed, start=1):
        card = await h.say(ALICE, "challenge", *words, "1d", target=BOB)
        assert card.card == f"challenge:{n}", (words, card.text)
        challenge = await h.store.get_challenge(n)
        assert challenge is not None and challenge.handicap == handicap, words
        await h.say(ALICE, "cancel")
    await h.say(ALICE, "challenge", "handicap", handicap, target=BOB)
    await h.say(BOB, "accept")
    game = await h.game(1)
    start = Position.from_sfen(SHOGI, game.start_sfen)
    assert start.side == GOTE and game.gote == ALICE.key
    plain = Position.start(SHOGI)
    removed = {SHOGI.tables.parse_square(s) for s in spec.removed}
    for sq, piece in enumerate(plain.board):
        assert start.board[sq] == (0 if sq in removed else piece)


def test_every_handicap_name_of_every_language_is_a_typed_word() -> None:
    for handicap in SHOGI.handicaps.values():
        for name in handicap.names.values():
            assert handicap_names()[name.lower()] == handicap.id


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (("handicap", "queen"), "“handicap queen” names no handicap"),
        (("handicap",), "“handicap” names no handicap"),
        (("wa", "handicap", "rook"), "Wa Shogi has no handicap games"),
        (("handicap", "rook", "rated"), "Handicap games are never rated: leave out “rated”"),
        (("handicap", "rook", "sente"), "you play gote here, so leave out “sente”"),
        (("handicap", "rook", "taking", "gote"), "you play sente here, so leave out “gote”"),
        (("taking",), "“taking” says who gives a handicap"),
        (("handicap", "rook", "飛車落ち"), "handicap"),
    ],
)
async def test_bad_handicap_terms_are_refused_and_nothing_is_made(
    h: Harness, words: tuple[str, ...], expected: str
) -> None:
    reply = await h.say(ALICE, "challenge", *words, target=BOB)
    assert reply.card is None and expected in reply.text, reply.text
    assert await h.store.get_challenge(1) is None


async def test_a_handicap_game_changes_no_rating(h: Harness) -> None:
    await h.say(ALICE, "challenge", "handicap", "two-piece", target=BOB)
    await h.say(BOB, "accept")
    for user, move in [(ALICE, "5c5d"), (BOB, "7g7f"), (ALICE, "5d5e"), (BOB, "2g2f")]:
        assert "played" in (await h.say(user, "move", move)).text
    await h.say(BOB, "resign", "yes")
    game = await h.game(1)
    assert game.status is GameStatus.FINISHED and not game.rateable
    assert await h.store.rating_changes(game) == []


async def test_the_bot_gives_or_takes_a_handicap(h: Harness) -> None:
    start = await h.say(ALICE, "play", "handicap", "bishop", "taking", "level", "1")
    assert "Shogi, handicap: Bishop (角落ち)" in start.text, start.text
    game = await h.game(1)
    assert (game.sente, game.gote) == (ALICE.key, ENGINE_PLAYER)
    assert game.start_sfen == SHOGI.handicaps["bishop"].sfen
    await h.service.bot_player.settled()
    game = await h.game(1)
    assert len(game.moves) == 1  # the bot gave the handicap and moved first
    await h.say(ALICE, "resign", "yes")
    start = await h.say(ALICE, "play", "handicap", "rook", "level", "1")
    game = await h.game(2)
    assert (game.sente, game.gote) == (ENGINE_PLAYER, ALICE.key)
    assert game.start_sfen == ROOK_SFEN and start.mentions == (ALICE,)
    assert "played" in (await h.say(ALICE, "move", "3c3d")).text
    await h.service.bot_player.settled()
    assert len((await h.game(2)).moves) == 2  # the bot, sente, answered


async def test_help_challenge_explains_handicaps(h: Harness) -> None:
    reply = await h.say(ALICE, "help", "challenge")
    assert "handicap rook" in reply.text and "taking" in reply.text


async def test_a_handicap_game_is_exported(h: Harness) -> None:
    await h.say(ALICE, "challenge", "handicap", "rook", target=BOB)
    await h.say(BOB, "accept")
    assert "played" in (await h.say(ALICE, "move", "3c3d")).text
    for fmt in ("kif", "csa", "usi"):
        reply = await h.say(BOB, "export", fmt)
        assert len(reply.files) == 1, (fmt, reply.text)
        assert reply.files[0].data, fmt
