"""Mates in 1, 3 and 5 plies (tsume style: every attacking move checks), each proved again by
the rules core before the engine is asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import think
from rules import Position, load_variant

from .mates import defence_fails, line_ends_in_mate, mating_move, shortest_check_mate

DATA = Path(__file__).resolve().parent / "data" / "mates.txt"


def problems() -> list[tuple[str, int, str]]:
    out = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            variant, plies, sfen = line.split(None, 2)
            out.append((variant, int(plies), sfen))
    return out


def test_the_set_covers_every_variant_and_length() -> None:
    found = {(variant, plies) for variant, plies, _ in problems()}
    for variant in ("shogi", "wa", "wa-drops"):
        assert (variant, 1) in found and (variant, 3) in found
    assert ("shogi", 5) in found and ("wa", 5) in found


@pytest.mark.parametrize(("variant", "plies", "sfen"), problems(), ids=lambda x: str(x))
def test_engine_finds_the_mate(variant: str, plies: int, sfen: str) -> None:
    pos = Position.from_sfen(load_variant(variant), sfen)
    assert shortest_check_mate(pos, plies) == plies  # the problem is what it says
    result = think(variant, sfen, nodes=60_000)
    assert result.mate_plies is not None and 0 < result.mate_plies <= plies, result
    assert result.mate_in == (result.mate_plies + 1) // 2
    assert result.best_move is not None
    assert line_ends_in_mate(pos, result.pv), result.pv
    after = pos.copy()
    after.push_usi(result.best_move)
    assert defence_fails(after, result.mate_plies - 1)  # the first move forces it


def test_the_side_about_to_be_mated_reports_it() -> None:
    # after the first move of a 5-ply problem, gote has replies, all mated within 4 plies
    variant = load_variant("shogi")
    pos = Position.from_sfen(variant, "9/3k5/5S3/+R+P3p3/2+s2+s3/9/9/9/9 b SP 1")
    first = mating_move(pos, 5)
    assert first is not None
    pos.make_unchecked(first)
    assert len(pos.legal_moves()) > 1
    assert defence_fails(pos, 4) and not defence_fails(pos, 2)
    result = think("shogi", pos.sfen(), nodes=30_000)
    assert result.mate_plies == -4 and result.mate_in == -2
    assert result.score_cp is None and result.best_move is not None
