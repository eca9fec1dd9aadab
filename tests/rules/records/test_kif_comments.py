"""KIF and KIFU with a comment after chosen moves (an analysis's): the same record as without
them, read back alike by Komabot, cshogi and python-shogi; nothing changes when none are given."""

from __future__ import annotations

from pathlib import Path

import cshogi.KIF
import pytest
import shogi.KIF

from rules import GOTE, SENTE, Outcome, Termination, load_variant
from rules.records import GameRecord, export_file, export_record, import_record
from rules.records.kif import write_kif
from tests.rules.records.games import random_game

COMMENTS = {
    0: ["解析 Komabot (300 ms per position)"],
    1: ["評価値 +35"],
    3: ["評価値 -410", "悪手 勝率 -24.1%", "最善手 ２六歩(27)"],
    4: ["  line\nbreaks   kept on one line ", ""],
}


def _record(variant: str = "shogi", seed: int = 3) -> GameRecord:
    moves = random_game(variant, seed)
    winner = GOTE if len(moves) % 2 else SENTE
    return GameRecord(
        variant,
        load_variant(variant).start_sfen,
        tuple(moves),
        "Alice",
        "Bob",
        Outcome(Termination.RESIGNATION, winner),
    )


def test_without_comments_the_file_is_what_it_was() -> None:
    record = _record()
    assert write_kif(record, comments=None) == write_kif(record)
    assert write_kif(record, comments={}) == write_kif(record)
    assert export_file(record, "kif", None) == export_file(record, "kif")


def test_comments_follow_their_move_as_star_lines() -> None:
    lines = write_kif(_record(), comments=COMMENTS).split("\r\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("   1 "))
    assert lines[first - 1] == "*解析 Komabot (300 ms per position)"
    assert lines[first + 1] == "*評価値 +35"
    third = next(i for i, line in enumerate(lines) if line.startswith("   3 "))
    assert lines[third + 1 : third + 4] == [
        "*評価値 -410",
        "*悪手 勝率 -24.1%",
        "*最善手 ２六歩(27)",
    ]
    fourth = next(i for i, line in enumerate(lines) if line.startswith("   4 "))
    assert lines[fourth + 1] == "*line breaks kept on one line"
    assert lines[fourth + 2].startswith("   5 ")


@pytest.mark.parametrize("fmt", ["kif", "kifu"])
def test_komabot_reads_the_commented_record_as_the_record(fmt: str) -> None:
    record = _record()
    data = export_file(record, fmt, COMMENTS).data
    again = import_record(data, f"game.{fmt}")
    assert (again.moves, again.result, again.sente) == (record.moves, record.result, "Alice")


def test_wa_kifu_carries_comments_and_reads_back() -> None:
    record = _record("wa", 5)
    data = export_file(record, "kifu", COMMENTS).data
    assert "*評価値 -410".encode() in data
    assert import_record(data, "game.kifu").moves == record.moves


def test_csa_and_usi_are_written_without_the_comments() -> None:
    record = _record()
    for fmt in ("csa", "usi"):
        assert export_file(record, fmt, COMMENTS).data == export_record(record, fmt)


def test_python_shogi_reads_the_commented_kif() -> None:
    record = _record()
    text = export_file(record, "kif", COMMENTS).data.decode("cp932")
    summary = shogi.KIF.Parser.parse_str(text)[0]
    assert summary["moves"] == list(record.moves)
    assert summary["names"] == ["Alice", "Bob"]
    assert summary["win"] == ("b" if record.result and record.result.winner == SENTE else "w")


def test_cshogi_reads_the_commented_kif_and_its_comments(tmp_path: Path) -> None:
    record = _record()
    path = tmp_path / "game.kif"
    path.write_bytes(export_file(record, "kif", COMMENTS).data)
    parsed = cshogi.KIF.Parser.parse_file(str(path))
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == list(record.moves)
    assert parsed.names == ["Alice", "Bob"]
    assert parsed.comments[0] == "評価値 +35"
    assert parsed.comments[2] == "評価値 -410\n悪手 勝率 -24.1%\n最善手 ２六歩(27)"
