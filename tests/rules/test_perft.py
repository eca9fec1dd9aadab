"""Perft against published counts (tests/data/perft.txt), and the perft CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from rules import Position, load_variant
from rules.perft import divide, perft

DATA = Path(__file__).parent.parent / "data" / "perft.txt"
MAX_NODES = 1_000_000  # deeper counts are for bench/perft.py


def cases() -> list[tuple[str, str, int, int]]:
    out = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        variant, sfen, counts = (part.strip() for part in line.split("|"))
        for depth, count in enumerate(counts.split(), start=1):
            if int(count) <= MAX_NODES:
                out.append((variant, sfen, depth, int(count)))
    return out


@pytest.mark.parametrize(("variant", "sfen", "depth", "expected"), cases())
def test_perft(variant: str, sfen: str, depth: int, expected: int) -> None:
    pos = Position.from_sfen(load_variant(variant), sfen)
    before = pos.sfen()
    assert perft(pos, depth) == expected
    assert pos.sfen() == before


def test_perft_without_bulk_counting_agrees() -> None:
    pos = Position.start(load_variant("shogi"))
    assert perft(pos, 3, bulk=False) == 25470


def test_divide_sums_to_perft() -> None:
    pos = Position.start(load_variant("wa"))
    rows = divide(pos, 2)
    assert len(rows) == 51
    assert sum(n for _, n in rows) == 2601


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
