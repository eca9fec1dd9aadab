"""Tables of move texts per notation and variant (tests/data/notation/*.toml)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules import Position, RulesError, load_variant
from rules.notation import format_move, parse_move

DATA = Path(__file__).resolve().parents[2] / "data" / "notation"


def _positions() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(DATA.glob("*.toml")):
        with path.open("rb") as fh:
            for i, entry in enumerate(tomllib.load(fh)["position"]):
                out.append((f"{path.stem}-{i}", entry))
    return out


def _setup(entry: dict[str, Any]) -> Position:
    variant = load_variant(entry["variant"])
    pos = Position.from_sfen(variant, entry["sfen"]) if "sfen" in entry else Position.start(variant)
    for usi in entry.get("setup", []):
        pos.push_usi(usi)
    return pos


def _cases(kind: str) -> list[Any]:
    return [
        pytest.param(entry, text, want, id=f"{name}:{text}")
        for name, entry in _positions()
        for text, want in entry.get(kind, {}).items()
    ]


@pytest.mark.parametrize(("entry", "text", "usi"), _cases("moves"))
def test_text_means_move(entry: dict[str, Any], text: str, usi: str) -> None:
    pos = _setup(entry)
    assert pos.usi(parse_move(pos, text)) == usi


@pytest.mark.parametrize(("entry", "text", "code"), _cases("errors"))
def test_text_is_refused(entry: dict[str, Any], text: str, code: str) -> None:
    pos = _setup(entry)
    with pytest.raises(RulesError) as info:
        parse_move(pos, text)
    assert info.value.code == code, info.value.message


@pytest.mark.parametrize(("entry", "text", "usi"), _cases("moves"))
def test_printed_forms_read_back(entry: dict[str, Any], text: str, usi: str) -> None:
    pos = _setup(entry)
    move = pos.parse_usi(usi)
    for style in ("usi", "western", "japanese"):
        assert parse_move(pos, format_move(pos, move, style)) == move
