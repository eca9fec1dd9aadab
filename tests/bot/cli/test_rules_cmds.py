"""``komabot variants``, ``moves`` and ``perft`` (bot/cli/rules_cmds.py)."""

from __future__ import annotations

import pytest

from bot.cli import main


def test_cli_perft_prints_total_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "wa", "--depth", "3"]) == 0
    assert capsys.readouterr().out.strip() == "126574"


def test_cli_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "shogi", "--depth", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 31
    assert lines[-1] == "900"
    assert all(line.split()[1] == "30" for line in lines[:-1])
    assert "7g7f 30" in lines


def test_cli_moves_sorted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--variant", "shogi"]) == 0
    lines = capsys.readouterr().out.split()
    assert len(lines) == 30
    assert lines == sorted(lines)
    assert "2h1h" in lines and "7g7f" in lines


def test_cli_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--variant", "shogi", "--sfen", "9/9 b - 1"]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "2 ranks" in err
    assert main(["perft", "--variant", "chess", "--depth", "1"]) != 0
    assert "unknown variant 'chess'" in capsys.readouterr().err
    assert main(["perft", "--variant", "shogi", "--depth", "0"]) != 0


def test_cli_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for variant in ("shogi", "wa", "wa-drops"):
        assert variant in out
