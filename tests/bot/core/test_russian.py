"""A chat in Russian: the language setting, Russian replies, rules errors and board labels."""

from __future__ import annotations

import pytest

from bot.core import present
from render import BoardOptions, board_job, render_board
from render.charset import label_chars
from rules import IllegalMoveError, Move, Position, load_variant
from tests.bot.core.harness import ALICE, BOB, CAROL, MAIN, Harness

START = load_variant("shogi").start_sfen


async def test_language_setting_switches_replies_and_persists(h: Harness) -> None:
    shown = await h.say(CAROL, "settings")
    assert "language: en" in shown.text
    changed = await h.say(CAROL, "settings", "language", "ru")
    assert changed.text == "Настройки изменены: language ru."  # already in the new language
    assert (await h.store.get_settings(MAIN)).language == "ru"
    await h.restart()
    shown = await h.say(CAROL, "settings")
    assert shown.text.startswith("Настройки этого чата:") and "language: ru" in shown.text
    assert "Ваши текущие партии" not in (await h.say(ALICE, "games")).text
    assert (await h.say(ALICE, "games")).text.startswith("У вас нет текущих партий")
    back = await h.say(CAROL, "settings", "english")  # a value alias names its setting
    assert back.text == "Settings changed: language en."


async def test_bad_language_is_refused_with_the_choices(h: Harness) -> None:
    bad = await h.say(CAROL, "settings", "language", "fr")
    assert bad.ephemeral and "'fr' is not a language; choose one of en, ja, pl, ru." in bad.text
    assert (await h.store.get_settings(MAIN)).language == "en"
    missing = await h.say(CAROL, "settings", "lang")
    assert "Give a value for language: one of en, ja, pl, ru." in missing.text


async def test_a_russian_game_from_challenge_to_an_illegal_move(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[BoardOptions] = []

    def recording_render(pos: Position, options: BoardOptions) -> bytes:
        drawn.append(options)
        return render_board(pos, options)

    monkeypatch.setattr(board_job, "render_board", recording_render)
    h.service.pictures.enabled = True
    await h.say(CAROL, "settings", "language", "ru")
    card = await h.say(ALICE, "challenge", "shogi", "sente", "1d", target=BOB)
    assert card.text.startswith("⚔️ Вызов #1: Alice вызывает Bob на партию: Сёги.")
    assert [b.label for b in card.buttons[0]] == ["Принять", "Отклонить", "Отозвать"]
    start = await h.say(BOB, "accept")
    assert "Партия #1 началась: Alice (сэнтэ ☗) — Bob (готэ ☖), Сёги, 1 день на ход" in start.text
    played = await h.say(ALICE, "move", "7g7f")
    assert "Ход Alice: P-7f." in played.text and "Ходит Bob (готэ)" in played.text
    assert played.image is not None and played.image.data.startswith(b"\x89PNG")
    assert played.text_board is not None and "☗ сэнтэ Alice   в руке: -" in played.text_board
    assert "P пешка" in played.text_board and "vX — фигура готэ" in played.text_board
    labels = drawn[-1].labels
    assert (labels.sente, labels.gote, labels.check) == ("Сэнтэ", "Готэ", "Шах!")
    assert labels.move.format(n=2) == "Ход 2" and labels.to_move.format(name="Bob") == "Ходит Bob"
    label_text = labels.sente + labels.gote + labels.move + labels.to_move + labels.check
    assert set(label_text) - set("{}") <= label_chars()  # the fonts draw every letter
    wrong = await h.say(BOB, "move", "8b8h")
    assert wrong.ephemeral
    assert wrong.text == (
        "Ход не сделан: фигура «ладья» с 8b не может дойти до 8h: путь перекрывает фигура "
        "«пешка» (готэ) на 8c"
    )
    rook = await h.say(BOB, "move", "8b7d")
    assert rook.text == "Ход не сделан: фигура «ладья» не может пойти с 8b на 7d"
    theirs = await h.say(BOB, "move", "7f7e")
    assert theirs.text == "Ход не сделан: фигура «пешка» на 7f принадлежит сопернику"
    turn = await h.say(ALICE, "move", "2g2f")
    assert turn.text == "В партии #1 сейчас ходит Bob, а не вы."
    assert len((await h.game(1)).moves) == 1
    resign = await h.say(BOB, "resign", "yes")
    assert "🏁 Партия #1 окончена: Alice побеждает: сдача." in resign.text


CASES = {  # code: (SFEN, move as from-to, or piece letter*square for drops, expected Russian)
    "no_piece": (START, "5e5d", "на 5e нет фигуры"),
    "not_your_piece": (START, "3c3d", "фигура «пешка» на 3c принадлежит сопернику"),
    "own_piece_on_target": (START, "9i9g", "на 9g стоит ваша собственная фигура"),
    "bad_pattern": (START, "2h3f", "фигура «ладья» не может пойти с 2h на 3f"),
    "path_blocked": (START, "2h2c", "путь перекрывает фигура «пешка» (сэнтэ) на 2g"),
    "promotion_outside_zone": (START, "5g5f+", "ход 5g-5f не такой"),
    "cannot_promote": ("k8/9/9/9/9/9/9/4G4/4K4 b - 1", "5h5g+", "фигура «золотой генерал» не"),
    "must_promote": ("k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a", "«пешка» на 5a больше никогда"),
    "not_in_hand": ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "R*2b", "в руке нет фигуры «ладья»"),
    "dead_drop": ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*1a", "«пешка», сброшенная на 1a"),
    "nifu": ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", "непревращённая фигура «пешка» (на 5g)"),
    "uchifuzume": ("8k/6G2/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", "мат сбросом фигуры «пешка»"),
    "leaves_king_in_check": (
        "4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1",
        "5h4h",
        "ваш король на 5i окажется под шахом с 5e",
    ),
    "still_in_check": (
        "4k4/9/9/9/4r4/9/9/9/4K4 b - 1",
        "5i5h",
        "вам шах, и после этого хода ваш король на 5h всё ещё будет атакован с 5e",
    ),
}


def as_move(pos: Position, text: str) -> Move:
    t = pos.tables
    if "*" in text:
        letter, square = text.split("*")
        return Move(-1, t.parse_square(square), drop=pos.variant.by_letter[letter].kind)
    return Move(t.parse_square(text[:2]), t.parse_square(text[2:4]), promote=text.endswith("+"))


@pytest.mark.parametrize("code", sorted(CASES))
def test_illegal_move_reasons_in_russian(code: str) -> None:
    sfen, text, expected = CASES[code]
    pos = Position.from_sfen(load_variant("shogi"), sfen)
    with pytest.raises(IllegalMoveError) as caught:
        pos.check_legal(as_move(pos, text))
    assert caught.value.code == code
    russian = present.rules_problem(caught.value, pos, "ru")
    assert expected in russian, russian
    assert present.rules_problem(caught.value, pos, "en") == caught.value.message


def test_rules_errors_without_their_facts_fall_back_to_english() -> None:
    pos = Position.start(load_variant("wa"))
    error = IllegalMoveError("wa has no drops: captured pieces leave the game", code="no_drops")
    assert present.rules_problem(error, pos, "ru") == error.message
    error = IllegalMoveError("odd", code="no_drops", square="5e", variant_id="wa")
    assert present.rules_problem(error, pos, "ru") == (
        "в варианте «Ва-сёги» сбросов нет: взятые фигуры уходят из игры"
    )
