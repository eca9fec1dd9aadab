"""Wa Shogi against positions from an independent Wa move generator (shared/testdata)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import Position, load_variant
from rules.perft import perft

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "testdata" / "wa_reference.json"


def reference() -> list[dict[str, Any]]:
    if not REFERENCE.exists():
        pytest.skip(f"{REFERENCE} not found (shared/ must sit beside the checkout)")
    data: list[dict[str, Any]] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("index", range(40))
def test_matches_reference(index: int) -> None:
    entries = reference()
    entry = entries[index]
    pos = Position.from_sfen(load_variant(entry["variant"]), entry["sfen"])
    assert sorted(pos.usi(m) for m in pos.legal_moves()) == sorted(entry["moves"])
    assert perft(pos, 2) == entry["perft2"]
    again = Position.from_sfen(pos.variant, pos.sfen())
    assert (again.board, again.hands, again.side) == (pos.board, pos.hands, pos.side)
