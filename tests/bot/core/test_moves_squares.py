"""/moves reads a square in every notation /move reads; a game number needs its #."""

from __future__ import annotations

import pytest

from rules import InvalidMoveError, Position, load_variant
from rules.notation import read_square
from tests.bot.core.harness import ALICE, BOB, CAROL, Harness


def test_a_square_in_every_notation() -> None:
    shogi, wa = load_variant("shogi"), load_variant("wa")
    seven_g = shogi.tables.parse_square("7g")
    for text in ("7g", "7G", "77", "７七", "７７", "7七", "七七", "７ｇ"):
        assert read_square(shogi, text) == seven_g, text
    eight_g = wa.tables.parse_square("8g")
    for text in ("8g", "８七", "8七", "８ｇ"):
        assert read_square(wa, text) == eight_g, text
    assert read_square(wa, "１１十一") == wa.tables.parse_square("11k")
    for variant, text in ((shogi, "zz"), (shogi, "7"), (shogi, "７六歩"), (wa, "87"), (shogi, "")):
        with pytest.raises(InvalidMoveError):
            read_square(variant, text)


async def test_moves_takes_any_square_and_a_game_by_its_hash(h: Harness) -> None:
    game = await h.start_game(ALICE, BOB)
    usi = await h.say(CAROL, "moves", "7g")
    assert "7g" in usi.text and "7f" in usi.text, usi.text
    for text in ("77", "７七", "７７"):
        assert (await h.say(CAROL, "moves", text)).text == usi.text, text
    assert (await h.say(CAROL, "moves", "77", f"#{game.id}")).text == usi.text
    assert (await h.say(CAROL, "moves", "7g", str(game.id))).text == usi.text
    missing = await h.say(CAROL, "moves", "#77")
    assert "#77" in missing.text, missing.text


async def test_moves_in_wa_reads_japanese_squares(h: Harness) -> None:
    await h.start_game(ALICE, BOB, variant="wa")
    usi = await h.say(CAROL, "moves", "8g")
    assert (await h.say(CAROL, "moves", "８七")).text == usi.text
    refused = await h.say(CAROL, "moves", "87")
    assert refused.ephemeral and "not a square" in refused.text, refused.text


async def test_board_gives_the_sfen_to_paste_elsewhere(h: Harness) -> None:
    game = await h.start_game(ALICE, BOB)
    await h.play(game, "7g7f")
    board = await h.say(CAROL, "board")
    sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    assert f"SFEN (to paste into other shogi programs): {sfen}" in board.text, board.text
    position = Position.from_sfen(load_variant("shogi"), sfen)
    assert position.sfen() == sfen


async def test_moves_shows_where_a_piece_in_hand_may_be_dropped(h: Harness) -> None:
    game = await h.start_game(ALICE, BOB)
    await h.play(game, "7g7f", "3c3d", "8h2b+", "3a2b")  # each side has a bishop in hand
    drops = await h.say(ALICE, "moves", "B*")
    assert drops.text.startswith("Alice (sente) may drop a Bishop from the hand on: "), drops
    assert "5e" in drops.text and "7f" not in drops.text.split(":")[1], drops.text
    assert drops.text_board is not None and "*" in drops.text_board
    watcher = await h.say(CAROL, "moves", "b*")  # a watcher: the side to move (Alice)
    assert watcher.text == drops.text
    waiting = await h.say(BOB, "moves", "B*")  # Bob's bishop, as on his turn
    assert waiting.text.startswith("Bob (gote) may drop a Bishop"), waiting.text
    none = await h.say(ALICE, "moves", "P*")
    assert none.ephemeral and "can drop no Pawn now" in none.text, none.text
    bad = await h.say(ALICE, "moves", "Q*")
    assert bad.ephemeral and "like P*" in bad.text, bad.text
    await h.say(ALICE, "settings", "language", "pl")
    polish = await h.say(ALICE, "moves", "B*")
    assert "przywrócić do gry" in polish.text, polish.text
