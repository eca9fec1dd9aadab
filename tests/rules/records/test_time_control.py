"""Main time + byoyomi in records: KIF ``持ち時間：10分+30秒``, CSA ``$TIME_LIMIT:00:10+30``,
read back by Komabot; cshogi and python-shogi still read the moves and the result of such
files; other forms of the lines are no time control, not an error."""

from __future__ import annotations

from dataclasses import replace

import cshogi
import cshogi.KIF
import pytest
import shogi.CSA
import shogi.KIF

from rules import GOTE, Outcome, Termination, load_variant
from rules.records import GameRecord, export_record, import_record
from rules.records.time_control import (
    csa_time_limit,
    kif_time_control,
    read_csa_time_limit,
    read_kif_time_control,
)
from tests.rules.records.test_readers_agree import _usi

MOVES = ("7g7f", "3c3d", "8h2b+", "3a2b")
RECORD = GameRecord(
    variant="shogi",
    start_sfen=load_variant("shogi").start_sfen,
    moves=MOVES,
    sente="Alice",
    gote="Bob",
    result=Outcome(Termination.TIMEOUT, GOTE),  # sente, to move, ran out of time
    time_control=(600, 30),
)


@pytest.mark.parametrize(
    ("control", "kif", "csa"),
    [
        ((600, 30), "10分+30秒", "00:10+30"),
        ((300, 30), "5分+30秒", "00:05+30"),
        ((3600, 60), "1時間+60秒", "01:00+60"),
        ((5400, 10), "1時間30分+10秒", "01:30+10"),
        ((90, 30), "1分30秒+30秒", None),  # CSA has no seconds of main time
    ],
)
def test_written_and_read(control: tuple[int, int], kif: str, csa: str | None) -> None:
    assert kif_time_control(control) == kif
    assert read_kif_time_control(kif) == control
    assert csa_time_limit(control) == csa
    if csa is not None:
        assert read_csa_time_limit(csa) == control


@pytest.mark.parametrize("text", ["各2時間", "10分", "+30秒", "１０分＋３０秒x", "", "٣分+30秒"])
def test_other_kif_forms_are_no_time_control(text: str) -> None:
    assert read_kif_time_control(text) is None


def test_kif_reads_wide_digits_and_each() -> None:
    assert read_kif_time_control("各１０分＋３０秒") == (600, 30)


@pytest.mark.parametrize("fmt", ["kif", "kifu", "csa"])
def test_a_record_reads_back_with_its_time_control(fmt: str) -> None:
    back = import_record(export_record(RECORD, fmt), f"game.{fmt}")
    assert back.time_control == (600, 30)
    assert back.moves == MOVES and back.result == RECORD.result


def test_without_a_time_control_the_lines_are_not_written() -> None:
    plain = replace(RECORD, time_control=None)
    for fmt in ("kifu", "csa"):
        text = export_record(plain, fmt).decode()
        assert "持ち時間" not in text and "TIME_LIMIT" not in text


def test_cshogi_and_python_shogi_read_the_files() -> None:
    kif_text = export_record(RECORD, "kif").decode("cp932")
    csa_text = export_record(RECORD, "csa").decode()
    assert "持ち時間：10分+30秒" in kif_text and "$TIME_LIMIT:00:10+30" in csa_text
    kif = cshogi.KIF.Parser.parse_str(kif_text)
    assert _usi(kif.moves) == list(MOVES) and kif.win == cshogi.WHITE_WIN
    csa = cshogi.Parser()
    csa.parse_csa_str(csa_text)
    assert _usi(csa.moves) == list(MOVES) and csa.win == cshogi.WHITE_WIN
    py_kif = shogi.KIF.Parser.parse_str(kif_text)[0]
    assert py_kif["moves"] == list(MOVES) and py_kif["win"] == "w"
    py_csa = shogi.CSA.Parser.parse_str(csa_text)[0]
    assert py_csa["moves"] == list(MOVES) and py_csa["win"] == "w"
