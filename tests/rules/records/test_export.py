"""Export: characters Shift-JIS cannot hold, and the formats each variant offers."""

from __future__ import annotations

import pytest

from rules import load_variant
from rules.records import (
    GameRecord,
    RecordError,
    export_file,
    export_record,
    formats_for,
    import_record,
)

START = load_variant("shogi").start_sfen


def test_names_shift_jis_cannot_hold_are_replaced_and_reported() -> None:
    record = GameRecord("shogi", START, ("7g7f",), "Zoë 🐉✨", "Bob 🐉", event="Party 🎉")
    exported = export_file(record, "kif")
    assert exported.replaced == ("🎉", "ë", "🐉", "✨")  # in the order they appear
    text = exported.data.decode("cp932")
    assert "先手：Zo? ??" in text and "後手：Bob ?" in text and "棋戦：Party ?" in text
    assert import_record(exported.data, "game.kif").moves == ("7g7f",)
    assert export_record(record, "kif") == exported.data


def test_kifu_keeps_every_character() -> None:
    record = GameRecord("shogi", START, ("7g7f",), "Alice 🐉", "Bob")
    exported = export_file(record, "kifu")
    assert exported.replaced == ()
    assert import_record(exported.data, "game.kifu").sente == "Alice 🐉"


def test_nothing_replaced_for_plain_names() -> None:
    record = GameRecord("shogi", START, ("7g7f",), "羽生善治", "Bob")
    assert export_file(record, "kif").replaced == ()


@pytest.mark.parametrize(
    ("variant", "formats"),
    [
        ("shogi", ("kif", "kifu", "csa", "usi")),
        ("wa", ("kifu", "usi")),
        ("wa-drops", ("kifu", "usi")),
    ],
)
def test_unknown_format_lists_only_the_variants_formats(
    variant: str, formats: tuple[str, ...]
) -> None:
    assert formats_for(variant) == formats
    record = GameRecord(variant, load_variant(variant).start_sfen, ())
    with pytest.raises(RecordError) as info:
        export_record(record, "pgn")
    assert info.value.code == "unknown_format"
    assert info.value.message == f"unknown record format 'pgn' (one of {', '.join(formats)})"
