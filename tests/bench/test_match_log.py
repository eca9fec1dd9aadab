"""Match logs read back the same way by every tool (``bench/match_log.py``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bench.match import GameRecord
from bench.match_log import append_game, read_games


def _record(a_sente: bool, result: float | None) -> dict[str, object]:
    rec = GameRecord(a_sente, result, "resigned", 2, ["7g7f", "3c3d"])
    rec.depths["a"].append(5)
    rec.nodes["a"].append(4000)
    return dataclasses.asdict(rec)


def test_a_written_game_reads_back_with_komabot_s_side_and_result(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    append_game(log, "Komabot L8", "HaChu", "wa", _record(False, 1.0))
    append_game(log, "HaChu", "Komabot L8", "wa", _record(True, 1.0))
    append_game(log, "HaChu", "Fairy-Stockfish skill 6", "shogi", _record(True, 0.0))
    append_game(log, "Komabot L8", "HaChu", "wa", _record(True, None), source="x")
    first, second, neither, aborted = read_games([log])
    assert first.source == "m.jsonl:1" and first.moves == ("7g7f", "3c3d")
    assert first.komabot_sente() is False and first.komabot_result() == 1.0
    assert first.depths == {"a": [5], "b": []} and first.nodes == {"a": [4000], "b": []}
    assert second.komabot_sente() is False and second.komabot_result() == 0.0
    assert neither.komabot_sente() is None and neither.komabot_result() is None
    assert aborted.result is None and aborted.komabot_result() is None


def test_lines_that_are_not_games_are_named_and_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    log.write_text('not json\n\n{"a": "Komabot L8"}\n', encoding="utf-8")
    append_game(log, "Komabot L8", "HaChu", "wa", _record(True, 0.5))
    with log.open("a", encoding="utf-8") as out:
        out.write('{"a": "Komabot L8", "b": "Ha')  # a match killed while writing
    (game,) = read_games([log])
    assert game.source == "m.jsonl:4" and game.result == 0.5
    warnings = capsys.readouterr().err.splitlines()
    assert [w.split(":")[1] for w in warnings] == ["1", "3", "5"]
    assert all(w.startswith("m.jsonl:") and "not a logged game" in w for w in warnings)
