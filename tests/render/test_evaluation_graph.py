"""The evaluation graph: marks where the judged moves are, the curve on the right side of the
midline, every language's words drawable, a small PNG."""

from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from render.evaluation_graph import (
    MARK_COLOURS,
    GraphWords,
    Mark,
    graph_image,
    render_evaluation_graph,
    x_of,
    y_of,
)
from render.fonts import Face, font_path

WORDS = {
    "en": GraphWords(
        "Analysis: Komabot, 300 ms per position",
        "☗ Alice",
        "☖ Bob",
        "Gote wins by resignation",
        "Inaccuracy",
        "Mistake",
        "Blunder",
    ),
    "ru": GraphWords(
        "Анализ: Komabot, 300 мс на позицию",
        "☗ Алёна",
        "☖ Фёдор",
        "Победа готэ: сдача",
        "Неточность",
        "Ошибка",
        "Зевок",
    ),
    "ja": GraphWords(
        "解析：Komabot、1局面300ミリ秒",
        "☗ さくら",
        "☖ タロウ",
        "後手の勝ち（投了）",
        "疑問手",
        "悪手",
        "大悪手",
    ),
    "pl": GraphWords(
        "Analiza: Komabot, 300 ms na pozycję",
        "☗ Łucja",
        "☖ Źdźbło",
        "Wygrywa gote: poddanie",
        "Niedokładność",
        "Błąd",
        "Podstawka",
    ),
}
# Sente better, then a blunder at move 11 swings it to gote.
SCORES = [0, 20, -10, 40, 30, 60, 40, 210, 200, -140, 420, -2200, -2300]
MARKS = [Mark(9, 1), Mark(10, 2), Mark(11, 3)]


def _pixels_near(img: Image.Image, x: float, y: float, colour: tuple[int, int, int]) -> int:
    rgb = img.convert("RGB")
    count = 0
    for dx in range(-8, 9):
        for dy in range(-8, 9):
            px = rgb.getpixel((round(x) + dx, round(y) + dy))
            if isinstance(px, tuple) and all(
                abs(a - b) <= 24 for a, b in zip(px, colour, strict=False)
            ):
                count += 1
    return count


def test_each_mark_is_drawn_in_its_colour_at_its_move() -> None:
    img = graph_image(SCORES, MARKS, WORDS["en"])
    moves = len(SCORES) - 1
    for mark in MARKS:
        x, y = x_of(mark.ply, moves), y_of(SCORES[mark.ply])
        assert _pixels_near(img, x, y, MARK_COLOURS[mark.severity]) >= 10, mark
    # and no blunder colour where there is no blunder
    assert _pixels_near(img, x_of(3, moves), y_of(SCORES[3]), MARK_COLOURS[3]) == 0


def test_the_png_of_a_long_game_is_small_and_its_marks_survive_the_palette() -> None:
    scores = [(-1) ** n * (n * 37 % 1900) for n in range(201)]
    marks = [Mark(n, 1 + (n // 9) % 3) for n in range(1, 201, 9)]
    data = render_evaluation_graph(scores, marks, WORDS["pl"])
    assert data.startswith(b"\x89PNG") and len(data) < 100_000
    img = Image.open(io.BytesIO(data))
    blunder = next(m for m in marks if m.severity == 3)
    x, y = x_of(blunder.ply, 200), y_of(scores[blunder.ply])
    assert _pixels_near(img, x, y, MARK_COLOURS[3]) >= 10


def test_the_curve_is_capped_and_sente_is_up() -> None:
    assert y_of(100_000) == y_of(2000) < y_of(0) < y_of(-2000) == y_of(-100_000)
    img = graph_image([0, 99_999, -99_999], [], WORDS["en"])
    assert img.size[1] > 300


def test_a_game_without_moves_draws() -> None:
    assert graph_image([15], [], WORDS["ja"]).size[0] == 720


def test_no_scores_is_refused() -> None:
    with pytest.raises(ValueError, match="start position"):
        graph_image([], [], WORDS["en"])


@pytest.mark.parametrize("language", sorted(WORDS))
def test_every_letter_of_every_language_is_in_the_fonts(language: str) -> None:
    words = WORDS[language]
    text = "".join(
        (
            words.title,
            words.sente,
            words.gote,
            words.result,
            words.inaccuracy,
            words.mistake,
            words.blunder,
        )
    )
    for face in (Face.LABEL, Face.BOLD):
        cmap = {chr(c) for c in TTFont(str(font_path(face))).getBestCmap()}
        missing = {c for c in text if c not in cmap and not c.isspace()}
        assert not missing, f"{face.value} lacks {''.join(sorted(missing))}"


def test_names_of_any_length_and_characters_fit() -> None:
    words = GraphWords("T" * 300, "☗ " + "🐉" * 50, "☖ " + "Ж" * 400, "R" * 200, "a" * 99, "b", "c")
    assert graph_image(SCORES, MARKS, words).size == graph_image(SCORES, MARKS, WORDS["en"]).size
