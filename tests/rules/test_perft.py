"""Perft against published counts (tests/data/perft.txt), and the perft CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import Position, load_variant
from rules.perft import divide, perft

DATA = Path(__file__).parent.parent / "data" / "perft.txt"
MAX_NODES = 7_000_000  # deeper counts are for bench/perft.py


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
