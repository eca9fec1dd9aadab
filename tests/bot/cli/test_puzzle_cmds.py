"""``komabot puzzles build`` and ``komabot puzzles check`` (bot/cli/puzzle_cmds.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

# a game record that ends in a mate in 3 (bishop drop, the gold blocks, the pawn mates)
RECORD = (
    "position sfen 6g1k/9/7PP/5p3/9/9/9/9/K8 w BG 1 moves 3a2a B*3c 2a2b 2c2b+\n# variant: shogi\n"
)


def _record(tmp_path: Path) -> Path:
    path = tmp_path / "game.usi"
    path.write_text(RECORD, encoding="utf-8")
    return path


def test_build_from_a_record_keeps_only_proven_unique_mates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "shogi.jsonl"
    args = ["puzzles", "build", "--variant", "shogi", "--count", "5", "--seed", "3"]
    code = main(
        [
            *args,
            "--out",
            str(out),
            "--records",
            str(_record(tmp_path)),
            "--max-games",
            "0",
            "--quiet",
        ]
    )
    # fewer than asked: the record's mate in 1 (2c2b+) is not kept, G*1b mates as well
    assert code == 1
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(p["mate_in"], p["solution"]) for p in lines] == [(3, ["B*3c", "2a2b", "2c2b+"])]
    first = lines[0]
    assert first["sfen"] == "7gk/9/7PP/5p3/9/9/9/9/K8 b BG 1"
    assert first["side"] == "sente" and first["grade"] == "mate-in-3"
    assert first["defences"] == 1 and first["source"] == "record:game.usi:1"
    assert "1 puzzles written" in capsys.readouterr().out
    assert main(["puzzles", "check", str(out)]) == 0
    assert "1 of 1 puzzles proven" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 12 s of CPU, much longer on a busy machine
def test_the_same_seed_builds_the_same_file_with_one_worker_or_two(tmp_path: Path) -> None:
    files = []
    for jobs in ("1", "2"):
        out = tmp_path / f"shogi{jobs}.jsonl"
        args = ["puzzles", "build", "--variant", "shogi", "--count", "2", "--seed", "5"]
        assert main([*args, "--jobs", jobs, "--out", str(out), "--quiet"]) == 0
        files.append(out.read_bytes())
    assert files[0] == files[1]
    assert len(files[0].splitlines()) == 2
    assert main(["puzzles", "check", str(tmp_path / "shogi1.jsonl")]) == 0


def test_check_reports_a_wrong_solution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    main(
        [
            "puzzles",
            "build",
            "--variant",
            "shogi",
            "--count",
            "2",
            "--seed",
            "1",
            "--out",
            str(out),
            "--records",
            str(_record(tmp_path)),
            "--max-games",
            "0",
            "--quiet",
        ]
    )
    good = out.read_text(encoding="utf-8")
    bad = json.loads(good)
    bad["solution"] = ["B*3c", "2a2b", "2c2b"]
    out.write_text(good + json.dumps(bad) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["puzzles", "check", str(out)]) == 1
    text = capsys.readouterr().out
    assert "solution is ('B*3c', '2a2b', '2c2b')" in text
    assert "the same position appears twice" in text
    assert "1 of 2 puzzles proven" in text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json\n", "p.jsonl line 1: not JSON"),
        ('{"id": "x"}\n', "p.jsonl line 1: field 'variant' missing or not a str"),
        ("[1]\n", "p.jsonl line 1: expected a JSON object"),
    ],
)
def test_check_refuses_a_broken_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["puzzles", "check", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--variant", "chess"], "unknown variant 'chess'"),
        (["--count", "0"], "--count must be 1 or more"),
        (["--max-mate", "4"], "--max-mate must be an odd number"),
        (["--records", "/nonexistent/game.kif"], "no record file"),
        (["--jobs", "0"], "--jobs must be 1 or more"),
    ],
)
def test_build_refuses_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    args = ["puzzles", "build", "--variant", "shogi", "--count", "3", "--seed", "1"]
    assert main([*args, "--out", str(tmp_path / "x.jsonl"), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()


def test_build_refuses_a_record_of_another_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _record(tmp_path)
    args = ["puzzles", "build", "--variant", "wa", "--count", "3", "--seed", "1"]
    assert main([*args, "--out", str(tmp_path / "x.jsonl"), "--records", str(record)]) == 2
    assert "game.usi is a shogi game, not wa" in capsys.readouterr().err


def test_build_says_when_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    args = ["puzzles", "build", "--variant", "shogi", "--count", "1", "--seed", "1"]
    record = str(_record(tmp_path))
    out = str(blocker / "x.jsonl")  # a directory that is a file
    assert main([*args, "--records", record, "--max-games", "0", "--out", out]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_check_says_when_the_file_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["puzzles", "check", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: cannot read" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(900)  # three self-play games: about 15 s of CPU
def test_a_resumed_build_writes_the_same_file(tmp_path: Path) -> None:
    args = ["puzzles", "build", "--variant", "shogi", "--count", "50", "--seed", "3"]
    args += ["--max-games", "2", "--quiet"]
    whole, log = tmp_path / "whole.jsonl", tmp_path / "whole.log"
    assert main([*args, "--out", str(whole), "--log", str(log)]) == 1  # fewer than 50
    lines = log.read_text(encoding="utf-8").splitlines()
    games = [int(json.loads(line)["source"].split(":")[2]) for line in lines]
    assert games == sorted(games) and len(lines) >= 2
    # interrupted during the last game it found puzzles in, after its first puzzle
    cut = games.index(games[-1]) + 1
    partial = tmp_path / "partial.log"
    partial.write_text("".join(line + "\n" for line in lines[:cut]), encoding="utf-8")
    resumed = tmp_path / "resumed.jsonl"
    assert (
        main([*args, "--out", str(resumed), "--resume", str(partial), "--log", str(partial)]) == 1
    )
    assert resumed.read_bytes() == whole.read_bytes()
    assert partial.read_text(encoding="utf-8").splitlines() == lines


def test_resume_refuses_records_and_foreign_puzzles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _record(tmp_path)
    found = tmp_path / "found.jsonl"
    args = ["puzzles", "build", "--variant", "shogi", "--count", "5", "--seed", "1"]
    main([*args, "--records", str(record), "--max-games", "0", "--out", str(found), "--quiet"])
    out = str(tmp_path / "x.jsonl")
    assert main([*args, "--records", str(record), "--resume", str(found), "--out", out]) == 2
    assert "give no --records" in capsys.readouterr().err
    assert main([*args, "--resume", str(found), "--out", out]) == 2
    assert "comes from record:game.usi:1, not a self-play game of seed 1" in capsys.readouterr().err
