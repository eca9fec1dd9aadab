"""A handicap game on Discord: the slash command's handicap option, through the real discord.py
client against the fake Discord server, to the game's first move by the giver."""

from __future__ import annotations

from pathlib import Path

from fake_discord import FakeDiscord
from test_discord_service import buttons, discord_for, interaction_message, service_over, text_of

from rules import GOTE

ROOK_SFEN = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"


async def test_a_rook_handicap_challenge_starts_with_the_giver_to_move(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        async with discord_for(fake, service, tmp_path):
            body = await fake.slash(alice, "challenge", opponent=bob, handicap="rook")
            said = text_of(body)
            assert "handicap: Rook (飛車落ち)" in said and "not rated" in said, said
            card = interaction_message(fake)
            start = await fake.click(bob, card, buttons(card)["Accept"])
            assert "Game #1 begins: bob (sente ☗) vs alice (gote ☖)" in text_of(start)
            assert "<@111>" in start["data"]["content"]  # alice, the giver, moves first
            game = await service.store.get_game(1)
            assert game is not None and game.start_sfen == ROOK_SFEN
            assert game.side_to_move == GOTE and not game.rated
            refused = await fake.slash(bob, "move", move="7g7f")
            assert refused["data"]["flags"] & 64  # not bob's turn
            moved = await fake.slash(alice, "move", move="3c3d")
            assert "<@222>" in moved["data"]["content"], text_of(moved)


async def test_taking_the_handicap_from_the_slash_options(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, service_over(tmp_path) as service:
        alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
        async with discord_for(fake, service, tmp_path):
            body = await fake.slash(
                alice, "challenge", opponent=bob, handicap="bishop", handicap_side="taking"
            )
            assert "bob gives the handicap" in text_of(body), text_of(body)
            challenge = await service.store.get_challenge(1)
            assert challenge is not None
            assert (challenge.handicap, challenge.color) == ("bishop", "sente")
