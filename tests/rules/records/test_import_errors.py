"""Bad record files: a RecordError naming the line and the problem, never a crash."""

from __future__ import annotations

import contextlib
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import SENTE, Outcome, RulesError, Termination, load_variant
from rules.records import GameRecord, RecordError, export_record, import_record
from tests.rules.records.games import random_game

KIF = """手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)
   2 ３四歩(33)
   3 ７五歩(76)
   4 ３三歩(34)
"""


def test_kif_illegal_move_names_line_and_reason() -> None:
    with pytest.raises(RecordError) as info:
        import_record(KIF.encode(), "g.kif")
    message = info.value.message
    assert message.startswith("line 8: move 4 '３三歩(34)': ")
    assert "pawn" in message


def test_kif_unreadable_line() -> None:
    text = KIF.replace("   3 ７五歩(76)", "   3 hello there")
    with pytest.raises(RecordError, match=r"^line 7: move 3 'hellothere'"):
        import_record(text.encode(), "g.kifu")


def test_kif_move_number_out_of_order() -> None:
    text = KIF.replace("   3 ７五歩(76)", "   5 ７五歩(76)")
    with pytest.raises(RecordError, match=r"^line 7: move number 5, expected 3"):
        import_record(text.encode(), "g.kif")


def test_kif_in_shift_jis_is_detected() -> None:
    text = KIF.replace("   4 ３三歩(34)\n", "   4 投了\nまで3手で先手の勝ち\n")
    record = import_record(text.encode("cp932"))
    assert record.moves == ("7g7f", "3c3d", "7f7e")
    assert record.result is not None and record.result.winner == 0


def test_kif_unknown_handicap() -> None:
    with pytest.raises(RecordError, match="unknown 手合割"):
        import_record(KIF.replace("平手", "九枚落ち").encode())


def test_csa_bad_move() -> None:
    text = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726KA\n"
    with pytest.raises(RecordError, match=r"^line 6: move 3 '\+2726KA': the piece on 27 is a pawn"):
        import_record(text.encode(), "g.csa")


def test_csa_move_out_of_turn() -> None:
    with pytest.raises(RecordError, match=r"^line 4: move 1 '-3334FU': it is sente's turn"):
        import_record(b"V2.2\nPI\n+\n-3334FU\n", "g.csa")


def test_usi_bad_move() -> None:
    text = "position startpos moves 7g7f 3c3d 7f7d\n"
    with pytest.raises(RecordError, match=r"^line 1: move 3 \(7f7d\): a pawn cannot move"):
        import_record(text.encode(), "g.usi")


def test_unknown_format_and_encoding() -> None:
    with pytest.raises(RecordError) as info:
        import_record(b"hello world\n")
    assert info.value.code == "unknown_format"
    with pytest.raises(RecordError) as info:
        import_record(b"\x82\xa0abc\x81")
    assert info.value.code == "bad_record_encoding"


def _samples() -> list[bytes]:
    moves = tuple(random_game("shogi", 3, max_plies=30))
    shogi = GameRecord("shogi", load_variant("shogi").start_sfen, moves, "a", "b")
    wa = GameRecord(
        "wa-drops",
        "5k5/11/11/11/11/5+R5/11/11/11/11/K10 b 2Pr 1",
        ("6f6e", "R*1a", "P*5e"),
    )
    out = [export_record(shogi, fmt) for fmt in ("kif", "kifu", "csa", "usi")]
    return [*out, export_record(wa, "kifu"), export_record(wa, "usi")]


SAMPLES = _samples()


@settings(max_examples=300, deadline=None)
@given(
    index=st.integers(0, len(SAMPLES) - 1),
    cut=st.integers(0, 5000),
    junk=st.binary(max_size=6),
    length=st.integers(0, 6),
    name=st.sampled_from([None, "g.kif", "g.kifu", "g.csa", "g.usi", "g.txt"]),
)
def test_damaged_records_only_raise_rules_errors(
    index: int, cut: int, junk: bytes, length: int, name: str | None
) -> None:
    data = SAMPLES[index]
    at = cut % (len(data) + 1)
    damaged = data[:at] + junk + data[at + length :]
    try:
        record = import_record(damaged, name)
    except RulesError:
        return
    record.final_position()  # whatever was accepted replays cleanly


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_rules_errors(data: bytes) -> None:
    with contextlib.suppress(RulesError):
        import_record(data)


def test_kakinoki_style_file_with_comments_times_and_a_variation() -> None:
    """Headers Komabot does not use, * and & comments, times, a + mark and a 変化 section."""
    path = Path(__file__).resolve().parents[2] / "data" / "notation" / "kakinoki_style.kif"
    record = import_record(path.read_bytes(), path.name)
    assert record.moves == ("7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "6a5b", "4e3d")
    assert (record.sente, record.gote, record.event, record.site) == (
        "山田",
        "田中",
        "練習対局",
        "道場",
    )
    assert record.result == Outcome(Termination.RESIGNATION, SENTE)
    assert record.started == datetime(2026, 3, 1, 10, 0, 0)
