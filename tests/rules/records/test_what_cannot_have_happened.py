"""Records claiming what cannot have happened: moves after the position where the rules ended
the game are left out (and said so), a result the final position contradicts is not taken
(and said so), an unknown CSA ending is refused rather than called "aborted", a KIF move line
of a number alone is refused rather than dropped, and a written capture needs something to
capture."""

from __future__ import annotations

import pytest

from bot.cli import main
from rules import GOTE, SENTE, Outcome, Position, Termination, load_variant
from rules.errors import RulesError
from rules.notation import parse_move
from rules.records import RecordError, import_record

SHUFFLE = ["5i4h", "5a4b", "4h5i", "4b5a"]  # back to the start every four plies

KIF_HEAD = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n"


def usi(moves: list[str], *comments: str) -> bytes:
    return "\n".join([f"position startpos moves {' '.join(moves)}", *comments]).encode()


def test_moves_after_a_fourfold_repetition_are_left_out_and_said() -> None:
    record = import_record(usi(SHUFFLE * 5 + ["7g7f"]), "g.usi")  # 21 plies
    assert len(record.moves) == 12  # the start position for the fourth time
    assert record.result == Outcome(Termination.REPETITION, None)
    assert any("left out" in note and "9 moves" in note for note in record.notes), record.notes


def test_a_game_that_ends_by_repetition_at_its_last_move_has_no_note() -> None:
    record = import_record(usi(SHUFFLE * 3), "g.usi")
    assert len(record.moves) == 12 and record.notes == ()
    assert record.result == Outcome(Termination.REPETITION, None)


def test_a_claimed_checkmate_the_position_does_not_show_is_not_taken() -> None:
    record = import_record(usi(["7g7f", "3c3d"], "# result: checkmate sente"), "g.usi")
    assert record.result is None
    assert any("checkmate" in note for note in record.notes), record.notes


def test_a_claimed_checkmate_that_is_one_is_taken_without_a_note() -> None:
    mate = "position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1 moves G*5b\n# result: checkmate sente"
    record = import_record(mate.encode(), "g.usi")
    assert record.result == Outcome(Termination.CHECKMATE, SENTE) and record.notes == ()
    resigned = import_record(usi(["7g7f"], "# result: resignation sente"), "g.usi")
    assert resigned.result == Outcome(Termination.RESIGNATION, SENTE) and resigned.notes == ()


def test_an_unfinished_record_of_a_mate_gets_the_result() -> None:
    mate = "position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1 moves G*5b"
    record = import_record(mate.encode(), "g.usi")
    assert record.result == Outcome(Termination.CHECKMATE, SENTE)


def test_csa_tsumi_on_a_position_that_is_no_mate_is_not_taken() -> None:
    text = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TSUMI\n"
    record = import_record(text.encode(), "g.csa")
    assert record.result is None or record.result.termination != Termination.CHECKMATE
    assert any("checkmate" in note for note in record.notes), record.notes


def test_csa_unknown_ending_is_refused_not_aborted() -> None:
    text = "V2.2\nPI\n+\n+7776FU\n%WHATEVER\n"
    with pytest.raises(RecordError, match=r"line 5: .*%WHATEVER"):
        import_record(text.encode(), "g.csa")
    known = import_record(b"V2.2\nPI\n+\n+7776FU\n%CHUDAN\n", "g.csa")
    assert known.result == Outcome(Termination.ABORTED, None)


def test_kif_summary_counting_other_moves_is_said() -> None:
    text = KIF_HEAD + "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで99手で後手の勝ち\n"
    record = import_record(text.encode(), "g.kifu")
    assert record.result == Outcome(Termination.RESIGNATION, GOTE)
    assert any("99" in note and "2 moves" in note for note in record.notes), record.notes


def test_kif_move_line_of_a_number_alone_is_refused() -> None:
    text = KIF_HEAD + "   1 ７六歩(77)\n   2\n   3 ２六歩(27)\n"
    with pytest.raises(RecordError, match=r"^line 6: "):
        import_record(text.encode(), "g.kifu")


def test_kif_board_diagram_numbers_still_read() -> None:
    text = (
        "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
        "|v香v桂v銀v金v玉v金v銀v桂v香|一\n| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n"
        "|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
        "| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n"
        "| 香 桂 銀 金 玉 金 銀 桂 香|九\n+---------------------------+\n先手の持駒：なし\n"
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n"
    )
    assert import_record(text.encode(), "g.kifu").moves == ("7g7f",)


def test_a_written_capture_with_nothing_to_capture_is_refused() -> None:
    pos = Position.start(load_variant("shogi"))
    with pytest.raises(RulesError, match="P-7f"):
        parse_move(pos, "Px7f")
    assert parse_move(pos, "P-7f") == parse_move(pos, "7g7f")


def test_komabot_parse_refuses_a_capture_of_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "Px7f"]) != 0
    assert "did you mean P-7f" in capsys.readouterr().out


def test_komabot_import_prints_the_notes(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "g.usi"
    path.write_bytes(usi(SHUFFLE * 5 + ["7g7f"]))
    assert main(["import", str(path)]) == 0
    captured = capsys.readouterr()
    assert "left out" in captured.err and len(captured.out.split("\n")[1].split()) == 12


def test_a_perpetual_check_the_position_does_not_show_is_taken_as_a_foul() -> None:
    kif = KIF_HEAD + "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 反則勝ち\n*連続王手の千日手\n"
    record = import_record(kif.encode(), "g.kifu")
    assert record.result == Outcome(Termination.ILLEGAL_MOVE, SENTE)
    assert any("foul" in note for note in record.notes), record.notes
