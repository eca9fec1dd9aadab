"""The review of logged match games (bench/fsf_review.py): a real USI engine as the referee
(the bot's own, offline) finds the piece Komabot gave away, says when in the game and what the
referee's reply does, and reads only well-formed log lines."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from bench.fsf_review import main, phase
from bench.match import KOMABOT_MAIN
from bench.match_log import read_games
from rules import GOTE, SENTE, Position, load_variant

KOMABOT = shlex.join([sys.executable, "-c", KOMABOT_MAIN, "usi"])
# Komabot (sente) puts its bishop where a pawn takes it: 8h4d, then 4c4d
HUNG_BISHOP = ["7g7f", "3c3d", "8h4d", "4c4d", "2g2f", "8c8d"]


def _log(path: Path, moves: list[str], sente: bool = True, result: float = 0.0) -> Path:
    record = {"a": "Komabot L8", "b": "Fairy-Stockfish skill 6", "variant": "shogi"}
    record |= {"a_sente": sente, "reason": "resigned"}
    record |= {"result": result, "moves": moves}
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
    return path


def test_the_hung_bishop_is_found_with_what_komabot_thought(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _log(tmp_path / "games.jsonl", HUNG_BISHOP)
    out = tmp_path / "findings.jsonl"
    args = [str(log), "--referee", KOMABOT, "--nodes", "3000", "--confirm-nodes", "6000"]
    args += ["--komabot-nodes", "2000", "--out", str(out)]
    assert main(args) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    findings = [row for row in rows if "ply" in row]
    assert [(f["ply"], f["played"], f["phase"]) for f in findings] == [(3, "8h4d", "opening")]
    bishop = findings[0]
    assert bishop["before"] > bishop["after"] + 400  # a bishop for a pawn, Komabot's view
    assert bishop["komabot_move"] != "8h4d"  # its own search does not hang the bishop
    assert bishop["komabot_depth"] >= 1
    (summary,) = [row for row in rows if "scores" in row]
    assert len(summary["scores"]) == len(HUNG_BISHOP) + 1
    assert summary["stages"]["plies 1-30"] >= bishop["loss"] - 1  # the scan saw it too
    text = capsys.readouterr().out
    assert "1 games, 1 mistakes by Komabot" in text
    assert "opening" in text


def test_gote_games_are_read_from_gote_s_view_and_bad_lines_skipped(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    log.write_text("not json\n{}\n", encoding="utf-8")
    _log(log, ["7g7f", "3c3d"], sente=False, result=1.0)
    (game,) = read_games([log])
    assert game.source == "games.jsonl:3"
    assert game.komabot_sente() is False
    assert game.komabot_result() == 1.0
    assert game.moves == ("7g7f", "3c3d")


def test_a_missing_log_is_named_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([str(tmp_path / "none.jsonl")])
    assert exit_.value.code == 2
    assert "no such log file: " in capsys.readouterr().err


def _after(moves: list[str]) -> Position:
    pos = Position.start(load_variant("shogi"))
    for usi in moves:
        pos.push_usi(usi)
    return pos


def test_phases_name_what_the_reply_does() -> None:
    # after 7g7f 3c3d 8h4d (Komabot sente): the pawn takes the bishop
    pos = _after(HUNG_BISHOP[:3])
    assert phase(pos, "4c4d", 3, SENTE) == "opening"
    assert phase(pos, "4c4d", 41, SENTE) == "capture"
    assert phase(pos, "8c8d", 41, SENTE) == "quiet"
    # bishops traded, sente's king on 4h, gote to move with a bishop in hand
    traded = _after(["7g7f", "3c3d", "8h2b+", "3a2b", "5i4h"])
    assert phase(traded, "B*5i", 41, SENTE) == "check"
    assert phase(traded, "B*5h", 41, SENTE) == "drop at king"
    assert phase(traded, "B*6f", 41, SENTE) == "drop at king"  # two steps away
    assert phase(traded, "B*9e", 41, SENTE) == "quiet"
    assert phase(traded, None, 41, GOTE) == "quiet"
