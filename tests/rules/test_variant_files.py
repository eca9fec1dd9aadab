"""Variant files: what they declare, what is computed from moves, and validation errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules import VariantFileError, available_variants, load_variant
from rules.variant import data_dir, read_variant_file


def test_variants_available() -> None:
    assert available_variants() == ["shogi", "wa", "wa-drops"]


def test_shogi_file() -> None:
    v = load_variant("shogi")
    assert (v.files, v.ranks, v.zone_depth) == (9, 9, 3)
    assert [p.letter for p in v.pieces if not p.promoted] == list("KRBGSNLP")
    assert v.by_letter["+R"].names["en"] == "Dragon"
    assert v.by_letter["+P"].kanji == "と"
    assert v.by_letter["K"].kanji_gote == "王"
    assert v.drops.enabled and v.impasse is not None
    for piece in v.pieces:
        assert set(piece.names) == {"en", "ja", "romaji", "ru", "pl"}


def test_wa_drops_inherits_wa_and_only_changes_drops() -> None:
    wa, drops = load_variant("wa"), load_variant("wa-drops")
    assert not wa.drops.enabled and drops.drops.enabled
    assert [p.letter for p in wa.pieces] == [p.letter for p in drops.pieces]
    assert wa.start_sfen == drops.start_sfen
    assert drops.drops.no_two_on_file == {drops.by_letter["P"].kind}
    text = (data_dir() / "variants" / "wa-drops.toml").read_text(encoding="utf-8")
    assert "[pieces" not in text


def test_dead_squares_are_computed_from_moves() -> None:
    shogi = load_variant("shogi")
    t = shogi.tables

    def dead_ranks(letter: str, sign: int) -> set[str]:
        v = shogi.by_letter[letter].kind * sign
        return {t.square_names[sq][-1] for sq in range(t.size) if t.dead[v][sq]}

    assert dead_ranks("P", 1) == {"a"}
    assert dead_ranks("L", 1) == {"a"}
    assert dead_ranks("N", 1) == {"a", "b"}
    assert dead_ranks("N", -1) == {"h", "i"}
    assert dead_ranks("S", 1) == set()
    wa = load_variant("wa")
    wt = wa.tables
    must = {
        p.letter
        for p in wa.pieces
        if any(wt.dead[p.kind][sq] for sq in range(wt.size)) and not p.promoted
    }
    assert must == {"P", "O"}  # sparrow and oxcart only


def test_other_kanji_spellings_are_data() -> None:
    wa = load_variant("wa")
    assert wa.by_letter["K"].kanji_alternatives == ("鶴玉",)
    assert wa.by_letter["G"].kanji_alternatives == ("雁飛", "鴈飛")
    assert wa.by_letter["+R"].kanji_alternatives == ("隱狐",)  # like the fox, spelled like it
    assert load_variant("wa-drops").by_letter["P"].kanji_alternatives == ("雀歩",)
    assert all(not p.kanji_alternatives for p in load_variant("shogi").pieces)


@pytest.fixture
def variants_copy(tmp_path: Path) -> Path:
    for name in ("shogi", "wa", "wa-drops"):
        shutil.copy(data_dir() / "variants" / f"{name}.toml", tmp_path / f"{name}.toml")
    return tmp_path


def _break(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / f"{name}.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


_CRANE = 'kanji_alternatives = ["鶴玉"]'
_CRANE_KEY = "pieces.K.kanji_alternatives"


@pytest.mark.parametrize(
    ("name", "old", "new", "key", "problem"),
    [
        ("shogi", 'betza = "fW"', 'betza = "fQx"', "pieces.P.betza", "Betza"),
        ("shogi", "zone_depth = 3", "zone_depth = 7", "variant.zone_depth", "between 1 and 4"),
        ("shogi", "files = 9", 'files = "9"', "variant.files", "expected int"),
        ("shogi", "count = 4", "count = 4\nsometimes = 1", "repetition.sometimes", "unknown key"),
        ("shogi", 'code = "G"', 'code = "S"', "pieces.S.code", "unique"),
        (
            "shogi",
            'no_two_on_file = ["P"]',
            'no_two_on_file = ["Q"]',
            "drops.no_two_on_file",
            "'Q'",
        ),
        ("shogi", 'kanji = "桂"\n', "", "pieces.N.kanji", "missing"),
        (
            "wa",
            'promoted = { like = "X" }',
            'promoted = { like = "Z" }',
            "pieces.R.promoted.like",
            "no piece",
        ),
        ("wa", "PPPXPPPRPPP/1F3S3E1", "PPPXPPPRPPP/1F3S3E2", "variant.start", "rank 10"),
        ("wa-drops", 'inherits = "wa"', 'inherits = "wax"', "", "unknown variant 'wax'"),
        ("wa", _CRANE, 'kanji_alternatives = "鶴玉"', _CRANE_KEY, "expected list"),
        ("wa", _CRANE, 'kanji_alternatives = [""]', _CRANE_KEY, "not a non-empty string"),
        ("wa", _CRANE, "kanji_alternatives = [1]", _CRANE_KEY, "not a non-empty string"),
        ("wa", _CRANE, 'kanji_alternatives = ["雲鷲"]', _CRANE_KEY, "already the kanji"),
        ("wa", _CRANE, 'kanji_alternatives = ["鶴玉", "鶴玉"]', _CRANE_KEY, "twice"),
        (
            "wa",
            _CRANE,
            'kanji_alternatives = ["雁飛"]',
            "pieces.G.kanji_alternatives",
            "also another spelling of 靏玉",
        ),
    ],
)
def test_bad_variant_file_names_file_and_key(
    variants_copy: Path, name: str, old: str, new: str, key: str, problem: str
) -> None:
    _break(variants_copy, name, old, new)
    with pytest.raises(VariantFileError) as info:
        read_variant_file(variants_copy / f"{name}.toml")
    message = str(info.value)
    assert problem in message
    if key:
        assert f"{name}.toml: key '{key}'" in message


def test_a_name_in_another_language_needs_no_code(variants_copy: Path) -> None:
    """A translator adds ``de = "Bauer"`` beside the other names; a key that is no language
    code (a typo like ``nmae``) is still refused."""
    pawn = 'ru = "пешка", pl = "pion" }'
    _break(
        variants_copy, "shogi", pawn, 'ru = "пешка", pl = "pion", de = "Bauer", pt_BR = "Peão" }'
    )
    variant = read_variant_file(variants_copy / "shogi.toml")
    assert variant.by_letter["P"].names["de"] == "Bauer"
    assert variant.by_letter["P"].names["pt_BR"] == "Peão"
    _break(variants_copy, "shogi", 'de = "Bauer"', 'Deutsch = "Bauer"')
    with pytest.raises(VariantFileError, match=r"key 'pieces\.P\.names\.Deutsch': unknown key"):
        read_variant_file(variants_copy / "shogi.toml")


def test_not_toml_at_all(variants_copy: Path) -> None:
    (variants_copy / "shogi.toml").write_text("[variant\nid=", encoding="utf-8")
    with pytest.raises(VariantFileError, match=r"shogi\.toml: not valid TOML"):
        read_variant_file(variants_copy / "shogi.toml")


def test_unknown_variant() -> None:
    with pytest.raises(VariantFileError, match="unknown variant 'chess'"):
        load_variant("chess")
