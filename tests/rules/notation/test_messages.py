"""Error messages people will read, word for word, and the facts they carry."""

from __future__ import annotations

import pytest

from rules import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Position, load_variant
from rules.notation import parse_move


def _pos(variant: str = "shogi", sfen: str | None = None, *setup: str) -> Position:
    v = load_variant(variant)
    pos = Position.from_sfen(v, sfen) if sfen else Position.start(v)
    for usi in setup:
        pos.push_usi(usi)
    return pos


def test_which_gold_lists_candidates_in_western() -> None:
    pos = _pos()
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(pos, "G-5h")
    assert info.value.message == "Which gold? G6i-5h or G4i-5h"
    assert [pos.usi(m) for m in info.value.params["candidates"]] == ["6i5h", "4i5h"]


def test_which_silver_example_from_the_issue() -> None:
    pos = _pos("shogi", "4k4/9/9/9/9/9/9/3S1S3/4K4 b - 1")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(pos, "S-5g")
    assert info.value.message == "Which silver? S6h-5g or S4h-5g"


def test_which_gold_lists_candidates_in_japanese() -> None:
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(_pos(), "５八金")
    assert info.value.message == "Which gold? ５八金左 or ５八金右"


def test_promotion_choice_western() -> None:
    pos = _pos("shogi", None, "7g7f", "3c3d")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(pos, "Bx2b")
    err = info.value
    assert err.code == "promotion_choice"
    assert err.message == ("Promote the bishop? Add + to promote or = not to: B8hx2b+ or B8hx2b=")
    assert sorted(pos.usi(m) for m in err.params["candidates"]) == ["8h2b", "8h2b+"]


def test_promotion_choice_japanese() -> None:
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(_pos("shogi", None, "7g7f", "3c3d"), "２二角")
    assert info.value.message == (
        "Promote the bishop? Add 成 (promote) or 不成 (do not): ２二角成 or ２二角不成"
    )


def test_usi_without_plus_does_not_promote() -> None:
    pos = _pos("shogi", None, "7g7f", "3c3d")
    assert pos.usi(parse_move(pos, "8h2b")) == "8h2b"


def test_unreadable_text_gets_examples_from_the_position() -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_move(_pos(), "hello")
    assert info.value.message == (
        "cannot read 'hello' as a move. Write a move like 9g9f (USI), P-9f (Western) or "
        "９六歩 (Japanese)"
    )
    assert info.value.params["examples"] == {"usi": "9g9f", "western": "P-9f", "japanese": "９六歩"}


def test_all_digit_square_refused_on_wa() -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_move(_pos("wa"), "7776")
    assert info.value.code == "all_digit_square"
    assert info.value.message.startswith(
        "'7776': on a 11x11 board a square needs its rank letter (like 11k or 6h)"
    )
    assert "SP-8g (Western)" in info.value.message


def test_illegal_move_carries_the_rules_reason() -> None:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(_pos(), "R-2c")
    assert info.value.code == "path_blocked"
    assert "2g" in info.value.message


def test_missing_piece_is_named() -> None:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(_pos(), "+R-5e")
    assert info.value.message == "you have no dragon on the board or in hand"


def test_japanese_words_that_fit_nothing_offer_what_would() -> None:
    pos = _pos("shogi", "4k4/9/9/9/9/9/9/3G5/K4G3 b - 1")
    with pytest.raises(IllegalMoveError) as info:
        parse_move(pos, "５八金引")
    assert info.value.message == "'５八金引' fits no legal move; did you mean ５八金上 or ５八金寄?"


def test_standard_shogi_piece_in_wa_suggests_the_wa_piece_that_moves_like_it() -> None:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(_pos("wa"), "８七歩")
    err = info.value
    assert err.code == "foreign_piece"
    assert err.message == (
        "歩 is a Standard Shogi piece, not a Wa Shogi one; here 萑歩 (sparrow pawn) moves like "
        "it: did you mean ８七萑歩?"
    )
    assert err.params == {"written": "歩", "pieces": "萑歩", "example": "８七萑歩"}
    assert parse_move(_pos("wa"), err.params["example"]) == parse_move(_pos("wa"), "8h8g")
    ascii_file = pytest.raises(IllegalMoveError)  # typed 8七歩: the suggestion is not mixed
    with ascii_file as again:
        parse_move(_pos("wa"), "8七歩")
    assert again.value.params["example"] == "８七萑歩"
    with pytest.raises(IllegalMoveError) as lettered:
        parse_move(_pos("wa"), "8g歩")
    assert lettered.value.params["example"] == "8g萑歩"  # a rank letter: ASCII throughout


@pytest.mark.parametrize(
    ("written", "wa"),
    [
        ("歩", "萑歩"),  # pawn: sparrow pawn
        ("玉", "靏玉"),  # king: crane king (the royal one, not Bear's Eyes or the Plodding Ox)
        ("王", "靏玉"),
        ("香", "牛車"),  # lance: oxcart
        ("銀", "猛鹿"),  # silver: violent stag
        ("金", "猛狼"),  # gold: violent wolf
        ("と", "金鳥"),  # a promoted piece that moves like a gold: golden bird
        ("成銀", "金鳥"),
        ("飛", "燕行"),  # only a promoted swallow moves like a rook
    ],
)
def test_standard_piece_counterparts_in_wa(written: str, wa: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(_pos("wa"), f"５五{written}")
    assert info.value.code == "foreign_piece"
    assert info.value.params["pieces"] == wa


def test_standard_piece_without_a_wa_counterpart_lists_the_wa_pieces() -> None:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(_pos("wa"), "５五角")
    err = info.value
    assert err.code == "foreign_piece_unmatched"
    assert err.message.startswith(
        "角 is a Standard Shogi piece, not a Wa Shogi one, and no Wa Shogi piece moves like it; "
        "the Wa Shogi pieces are 靏玉、雲鷲"
    )
    assert err.params["pieces"].endswith("牛車、萑歩")


def test_wa_piece_in_standard_shogi_suggests_the_standard_piece() -> None:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(_pos(), "７六萑歩")
    assert info.value.params == {"written": "萑歩", "pieces": "歩", "example": "７六歩"}


def test_other_kanji_spelling_means_the_same_piece_as_the_usual_one() -> None:
    # a Treacherous Fox and a promoted rabbit share 隠狐, and either could go to 7e: the fox's
    # own name means the fox, and so does its other spelling 隱狐
    pos = _pos("wa", "5k5/11/11/11/11/3X1+R5/11/11/11/11/K10 b - 1")
    assert pos.usi(parse_move(pos, "７五隠狐")) == "8f7e"
    assert pos.usi(parse_move(pos, "７五隱狐")) == "8f7e"
    assert pos.usi(parse_move(pos, "７五成走兔")) == "6f7e"
