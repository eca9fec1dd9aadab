"""/piece and /cheatsheet: the chat's game decides the variant, names are found by any word,
moves are said in words, and a Standard Shogi piece named in a Wa move gets its Wa counterpart."""

from __future__ import annotations

import pytest

from bot.core.messages import CATALOGUE
from bot.core.present.piece_moves import moves_in_words
from rules import available_variants, load_variant
from tests.bot.core.harness import ALICE, CAROL, DAVE, Harness, person

OTHER = person("erin")


async def test_a_word_of_one_piece_name_is_that_piece_in_the_chats_wa_game(h: Harness) -> None:
    await h.start_game(variant="wa")
    for word, name in [
        ("fox", "Treacherous Fox"),
        ("eagle", "Cloud Eagle"),
        ("wolf", "Violent Wolf"),
    ]:
        reply = await h.say(CAROL, "piece", word)
        assert reply.text.startswith(f"{name} ("), reply.text
        assert not reply.ephemeral


async def test_gold_in_a_standard_chat_is_the_gold_general(h: Harness) -> None:
    assert (await h.say(CAROL, "piece", "gold")).text.startswith("Gold General (金")  # no game
    await h.start_game(variant="shogi")
    assert (await h.say(CAROL, "piece", "gold")).text.startswith("Gold General (金")


async def test_the_authors_own_game_decides_before_the_chats_other_games(h: Harness) -> None:
    await h.start_game(variant="shogi")
    await h.start_game(sente=CAROL, gote=DAVE, variant="wa")
    # two games here: Carol's own is Wa, a watcher gets the usual variants
    assert (await h.say(CAROL, "piece", "king")).text.startswith("Crane King (")
    assert (await h.say(OTHER, "piece", "king")).text.startswith("King (")
    assert (await h.say(ALICE, "piece", "king")).text.startswith("King (")


async def test_a_word_of_several_pieces_offers_a_choice(h: Harness) -> None:
    await h.start_game(variant="wa")
    reply = await h.say(CAROL, "piece", "flying")
    assert reply.ephemeral
    assert reply.text == (
        "Several pieces fit 'flying': Flying Falcon, Flying Goose, Flying Cock. Which one? "
        "(/cheatsheet wa shows every piece.)"
    )
    assert [b.action for b in reply.buttons[0]] == [
        "piece Flying Falcon",
        "piece Flying Goose",
        "piece Flying Cock",
    ]


async def test_an_explicit_variant_still_wins(h: Harness) -> None:
    await h.start_game(variant="wa")
    assert (await h.say(CAROL, "piece", "king", "shogi")).text.startswith("King (")


async def test_cheatsheet_without_argument_shows_the_chats_game(h: Harness) -> None:
    plain = await h.say(CAROL, "cheatsheet")
    assert plain.image is not None and plain.image.filename == "cheatsheet-shogi.png"
    await h.start_game(variant="wa")
    sheet = await h.say(CAROL, "cheatsheet")
    assert sheet.text == "Every piece of Wa Shogi."
    assert sheet.image is not None and sheet.image.filename == "cheatsheet-wa.png"
    assert (await h.say(CAROL, "cheatsheet", "shogi")).text == "Every piece of Standard Shogi."


async def test_piece_caption_says_the_moves_in_words(h: Harness) -> None:
    crow = await h.say(CAROL, "piece", "Strutting Crow")
    assert crow.text == (
        "Strutting Crow (烏行, ukō) — Wa Shogi. Moves: one step forward or diagonally backward "
        "(Betza: fWbF). Promotes to Flying Falcon."
    )
    knight = await h.say(CAROL, "piece", "knight")
    assert "Moves: jumps to the square two ahead and one to the side (Betza: ffN)." in knight.text
    await h.say(CAROL, "settings", "language", "ru")
    crow = await h.say(CAROL, "piece", "Strutting Crow")
    assert crow.text == (
        "напыщенный ворон (烏行, ukō) — Ва-сёги. Ходы: на одну клетку вперёд или по диагонали "
        "назад (нотация Бетцы: fWbF). Переворачивается в фигуру «летящий сокол»."
    )


async def test_other_kanji_spellings_are_found_and_shown(h: Harness) -> None:
    crane = await h.say(CAROL, "piece", "鶴玉")
    assert crane.text.startswith("Crane King (靏玉 / 鶴玉, kakugyoku) — Wa Shogi.")


async def test_standard_piece_in_a_wa_move_suggests_the_wa_piece(h: Harness) -> None:
    game = await h.start_game(variant="wa")
    reply = await h.say(ALICE, "move", "８七歩", str(game.id))
    assert reply.text == (
        "Not played: 歩 is a Standard Shogi piece, not a Wa Shogi one; here 萑歩 (sparrow pawn) "
        "moves like it: did you mean ８七萑歩?"
    )
    await h.say(ALICE, "settings", "language", "ru")
    reply = await h.say(ALICE, "move", "８七歩", str(game.id))
    assert "歩 — фигура другого варианта сёги" in reply.text
    assert "так же здесь ходит 萑歩: может быть, ８七萑歩?" in reply.text
    reply = await h.say(ALICE, "move", "８七角", str(game.id))
    assert "ни одна фигура здесь не ходит так же; фигуры этой партии: 靏玉、" in reply.text
    assert "SP-8g" in (await h.say(ALICE, "move", "8七萑歩", str(game.id))).text


EVERY_PIECE = [
    pytest.param(vid, p.letter, id=f"{vid}-{p.letter}")
    for vid in available_variants()
    for p in load_variant(vid).pieces
]


@pytest.mark.parametrize(("variant_id", "letter"), EVERY_PIECE)
@pytest.mark.parametrize("lang", sorted(CATALOGUE))
def test_every_piece_moves_in_words(variant_id: str, letter: str, lang: str) -> None:
    words = moves_in_words(load_variant(variant_id).by_letter[letter].moves, lang)
    assert words and words == words.strip()
    assert not any(c in words for c in "{}[]") and "describe." not in words
    assert "  " not in words and not words.endswith((",", ";", " or", " или"))


async def test_a_word_two_pieces_share_is_asked_about(h: Harness) -> None:
    reply = await h.say(CAROL, "piece", "swallow")
    assert "Swallow's Wings" in reply.text and "Gliding Swallow" in reply.text, reply.text
    actions = [b.action for row in reply.buttons for b in row]
    assert actions == ["piece Swallow's Wings", "piece Gliding Swallow"], actions
    chosen = await h.say(CAROL, "piece", "Gliding Swallow")
    assert chosen.text.startswith("Gliding Swallow"), chosen.text
    assert (await h.say(CAROL, "piece", "fox")).text.startswith("Treacherous Fox")


async def test_piece_suggestions_are_in_the_chats_language(h: Harness) -> None:
    reply = await h.say(CAROL, "piece", "lion")
    labels = [b.label for row in reply.buttons for b in row]
    assert labels and all(label.isascii() for label in labels), labels
    assert "pion" not in reply.text and "pion" not in labels, reply.text
    await h.say(CAROL, "settings", "language", "ru")
    ru = await h.say(CAROL, "piece", "lion")
    ru_labels = [b.label for row in ru.buttons for b in row]
    assert "пешка" in ru_labels and all(label in ru.text for label in ru_labels), ru.text


async def test_a_stray_character_after_a_move_is_named(h: Harness) -> None:
    game = await h.start_game()
    reply = await h.say(ALICE, "move", "７六歩🙂", str(game.id))
    assert reply.ephemeral and "cannot read '🙂' after the piece" in reply.text, reply.text
    assert len((await h.game(game.id)).moves) == 0  # the game is unchanged
