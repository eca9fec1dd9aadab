"""/puzzle through Discord: a puzzle given with its board, solved with /move and with the
puzzle's own option, failed, hinted, and revealed."""

from __future__ import annotations

from pathlib import Path

from fake_discord import FakeDiscord
from test_discord_service import RENDERS, discord_for, interaction_message, text_of

from bot.config import Config
from bot.core.clock import FakeClock
from bot.core.service import GameService
from bot.store.sqlite import SqliteStore
from tests.bot.core.puzzle_fixtures import ESCAPING_CHECK, KEY, MATE, QUIET, one_puzzle_book


async def test_a_puzzle_solved_failed_hinted_and_revealed(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "komabot.sqlite3", sync="normal")
    config = Config(db_path=tmp_path / "komabot.sqlite3", reminders=())
    service = GameService(
        store,
        config,
        clock=FakeClock(),
        render_images=RENDERS,
        puzzle_book=one_puzzle_book(tmp_path),
    )
    try:
        async with FakeDiscord() as fake, discord_for(fake, service, tmp_path):
            alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
            given = await fake.slash(alice, "puzzle")
            assert "Sente to play and mate in 3." in text_of(given), given
            assert "In hand: Sente: Gold General, 6 × Pawn; Gote: none" in text_of(given)
            if RENDERS:
                board = interaction_message(fake)["attachments"][0]
                assert board["filename"] == "puzzle.png"
            hint = await fake.slash(alice, "puzzle", action="hint")
            assert "Hint: drop a Gold General from the hand." in text_of(hint)
            wrong = await fake.slash(alice, "puzzle", action=QUIET)
            assert "P-5f is not a check" in text_of(wrong)
            wrong = await fake.slash(alice, "puzzle", action=ESCAPING_CHECK)
            assert "the king escapes: Kx6a" in text_of(wrong)
            right = await fake.slash(alice, "move", move=KEY)  # no game here: the puzzle's
            assert "G*5b: right. The defence answers Gx5b." in text_of(right)
            solved = await fake.slash(alice, "puzzle", action=f"move {MATE}")
            assert "+Bx5b: checkmate!" in text_of(solved)
            assert "Solved, after a wrong move: it counts as not solved." in text_of(solved)
            assert "Puzzle rating: 1500? →" in text_of(solved)
            await fake.slash(bob, "puzzle")
            revealed = await fake.slash(bob, "puzzle", action="solution")
            assert "Solution: 1. G*5b 2. Gx5b 3. +Bx5b" in text_of(revealed)
            nothing = await fake.slash(bob, "puzzle", action="hint")
            assert nothing["data"]["flags"] & 64  # ephemeral
            assert "no puzzle in progress" in text_of(nothing)
    finally:
        await store.close()
