"""Records as other programs and people write them, read as tsshogi and cshogi read them: a KIF
that declares UTF-8 but is Shift-JIS (read, and said), endings in their less common words (a
time-out 時間切れ, a foul named for its side 先手の反則負け, a summary with full-width digits),
USI move lists closed by ``resign``, ``win``, ``draw`` or a repetition token, and CSA lines of
several statements with a comment among them."""

from __future__ import annotations

import pytest

from rules import GOTE, SENTE, Outcome, Termination
from rules.records import import_record

KIF_HEAD = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n"
TWO_MOVES = "   1 ７六歩(77)\n   2 ３四歩(33)\n"


def test_kif_declaring_utf8_but_in_shift_jis_is_read_and_said() -> None:
    text = "#KIF version=2.0 encoding=UTF-8\n" + KIF_HEAD + TWO_MOVES + "   3 投了\n"
    record = import_record(text.encode("cp932"), "g.kif")
    assert record.moves == ("7g7f", "3c3d") and (record.sente, record.gote) == ("A", "B")
    assert record.result == Outcome(Termination.RESIGNATION, GOTE)
    assert any("UTF-8" in note and "Shift-JIS" in note for note in record.notes), record.notes


def test_a_file_in_no_japanese_encoding_is_still_refused() -> None:
    text = "#KIF version=2.0 encoding=UTF-8\n" + KIF_HEAD + TWO_MOVES
    with pytest.raises(Exception, match="UTF-8"):
        import_record(text.encode("utf-16"), "g.kif")


@pytest.mark.parametrize(
    ("tail", "result"),
    [
        ("   3 時間切れ\nまで2手で後手の勝ち\n", Outcome(Termination.TIMEOUT, GOTE)),
        ("   3 時間切れ\n", Outcome(Termination.TIMEOUT, GOTE)),
        ("   3 切れ負け\nまで2手で先手の切れ負け\n", Outcome(Termination.TIMEOUT, GOTE)),
        ("まで2手で時間切れにより後手の勝ち\n", Outcome(Termination.TIMEOUT, GOTE)),
        ("   3 先手の反則負け\n", Outcome(Termination.ILLEGAL_MOVE, GOTE)),
        ("   3 後手の反則勝ち\n", Outcome(Termination.ILLEGAL_MOVE, GOTE)),
        ("   3 反則負け\nまで2手で先手の反則負け\n", Outcome(Termination.ILLEGAL_MOVE, GOTE)),
        ("   3 投了\nまで２手で後手の勝ち\n", Outcome(Termination.RESIGNATION, GOTE)),
        ("   3 投了\nまで、2手で後手の勝ち\n", Outcome(Termination.RESIGNATION, GOTE)),
    ],
)
def test_kif_endings_in_their_other_words(tail: str, result: Outcome) -> None:
    record = import_record((KIF_HEAD + TWO_MOVES + tail).encode(), "g.kifu")
    assert record.moves == ("7g7f", "3c3d")
    assert record.result == result
    assert record.notes == ()


SHUFFLE = "5i4h 5a4b 4h5i 4b5a"


@pytest.mark.parametrize(
    ("moves", "result"),
    [
        ("7g7f 3c3d resign", Outcome(Termination.RESIGNATION, GOTE)),  # sente to move resigns
        ("7g7f resign", Outcome(Termination.RESIGNATION, SENTE)),
        ("7g7f 3c3d win", Outcome(Termination.IMPASSE, SENTE)),  # a declaration by the mover
        ("7g7f 3c3d draw", Outcome(Termination.AGREED_DRAW, None)),
        (f"{SHUFFLE} {SHUFFLE} {SHUFFLE} rep_draw", Outcome(Termination.REPETITION, None)),
    ],
)
def test_usi_move_lists_closed_by_an_ending_word(moves: str, result: Outcome) -> None:
    record = import_record(f"position startpos moves {moves}\n".encode(), "g.usi")
    assert record.moves == tuple(moves.split()[:-1])
    assert record.result == result


def test_an_ending_word_inside_a_usi_move_list_is_refused() -> None:
    with pytest.raises(Exception, match="resign"):
        import_record(b"position startpos moves 7g7f resign 3c3d\n", "g.usi")


def test_csa_lines_of_several_statements_with_a_comment_among_them() -> None:
    text = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU,T12,'a comment, with a comma\n-3334FU,T3\n%TORYO,T5\n"
    record = import_record(text.encode(), "g.csa")
    assert record.moves == ("7g7f", "3c3d")
    assert record.result == Outcome(Termination.RESIGNATION, GOTE)
