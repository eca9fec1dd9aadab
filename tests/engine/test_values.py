"""Piece values: derived from the moves for every variant, overridable in the variant file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.values import compute_values, derived_value, values_for
from rules import VariantFileError, available_variants, load_variant
from rules.variant import data_dir, read_variant_file


def value(variant_id: str, letter: str, *, derived: bool = False) -> int:
    variant = load_variant(variant_id)
    values = values_for(variant_id)
    table = values.derived if derived else values.board
    return table[variant.by_letter[letter].kind]


def test_derived_standard_shogi_values_follow_the_usual_order() -> None:
    v = {letter: value("shogi", letter, derived=True) for letter in "PLNSGBR"}
    assert v["P"] == 100  # the unit: one step forward
    assert v["P"] < v["L"] < v["S"] < v["G"] < v["B"] < v["R"]
    assert v["P"] < v["N"] < v["G"]
    promoted = {letter: value("shogi", "+" + letter, derived=True) for letter in "PLNSBR"}
    for letter, worth in promoted.items():
        assert worth > v[letter], letter
    assert promoted["R"] > promoted["B"] > v["R"]


def test_every_variant_gets_a_positive_value_for_every_piece_but_the_king() -> None:
    for variant_id in available_variants():
        variant = load_variant(variant_id)
        values = values_for(variant_id)
        for piece in variant.pieces:
            if piece.royal:
                assert values.board[piece.kind] == 0
            else:
                assert 50 <= values.board[piece.kind] <= 5000, (variant_id, piece.letter)


def test_wa_values_come_from_the_moves() -> None:
    # one step forward is the unit; a wider piece is worth more; the Cloud Eagle (a rook
    # forward and back, bishop 3 forward) beats the Swallow's Wings (rook sideways, 1 step
    # forward and back), which beats the Strutting Crow (3 steps).  Wa's file overrides them
    # with values fitted to HaChu's scores; the derived ones remain the start of a fit.
    def derived(letter: str) -> int:
        return value("wa", letter, derived=True)

    assert derived("P") == 100
    assert derived("E") > derived("S") > derived("U")
    assert derived("+P") == derived("W")  # Golden Bird moves like the Violent Wolf
    assert derived("+R") == derived("X")  # a promoted rabbit is a Treacherous Fox
    wa_drops = values_for("wa-drops")  # its file lists the derived values: Wa's lost there
    assert wa_drops.board == wa_drops.derived


def test_hand_values_are_a_little_above_board_values_and_only_with_drops() -> None:
    """Unless the variant file lists them (``[engine.hand_values]``)."""
    for variant_id in ("shogi", "wa-drops"):
        variant = load_variant(variant_id)
        values = values_for(variant_id)
        for piece in variant.pieces:
            if piece.promoted or piece.royal:
                assert values.hand[piece.kind] == 0
                continue
            board, hand = values.board[piece.kind], values.hand[piece.kind]
            if piece.kind in variant.hand_values:
                assert hand == variant.hand_values[piece.kind]
            else:
                assert board < hand <= board * 1.2, (variant_id, piece.letter)
    assert not any(values_for("wa").hand)


def test_the_shogi_and_wa_files_override_the_derived_values() -> None:
    for variant_id in ("shogi", "wa", "wa-drops"):
        variant = load_variant(variant_id)
        assert variant.piece_values  # the [engine.piece_values] table of the file
        for kind, worth in variant.piece_values.items():
            assert values_for(variant_id).board[kind] == worth
            assert values_for(variant_id).derived[kind] == derived_value(variant, kind)


def _variant_copy(tmp_path: Path, extra: str) -> Path:
    source = data_dir() / "variants" / "shogi.toml"
    text = source.read_text(encoding="utf-8")
    start = text.index("[engine.piece_values]")
    end = text.index("[pieces.K]")
    path = tmp_path / "shogi.toml"
    path.write_text(text[:start] + extra + "\n" + text[end:], encoding="utf-8")
    return path


def test_a_variant_file_without_engine_values_is_derived(tmp_path: Path) -> None:
    variant = read_variant_file(_variant_copy(tmp_path, ""))
    assert variant.piece_values == {}
    values = compute_values(variant)
    assert values.board == values.derived


def test_a_partial_override_keeps_the_other_derived_values(tmp_path: Path) -> None:
    variant = read_variant_file(_variant_copy(tmp_path, '[engine.piece_values]\n"+P" = 700\n'))
    values = compute_values(variant)
    tokin = variant.by_letter["+P"].kind
    pawn = variant.by_letter["P"].kind
    assert values.board[tokin] == 700
    assert values.board[pawn] == values.derived[pawn] == 100


def test_hand_values_and_evaluation_weights_are_read(tmp_path: Path) -> None:
    extra = "[engine.hand_values]\nP = 130\n[engine.evaluation]\ntempo = 25\ndefender = 20.5\n"
    variant = read_variant_file(_variant_copy(tmp_path, extra))
    pawn = variant.by_letter["P"].kind
    assert compute_values(variant).hand[pawn] == 130
    assert variant.evaluation_weights == {"tempo": 25.0, "defender": 20.5}


@pytest.mark.parametrize(
    ("extra", "key", "words"),
    [
        ("[engine.piece_values]\nQ = 900\n", "engine.piece_values.Q", "not a piece letter"),
        ("[engine.piece_values]\nK = 900\n", "engine.piece_values.K", "royal"),
        ("[engine.piece_values]\nP = 0\n", "engine.piece_values.P", "from 1 to 100000"),
        ("[engine.piece_values]\nP = true\n", "engine.piece_values.P", "whole number"),
        ('[engine.piece_values]\nP = "90"\n', "engine.piece_values.P", "whole number"),
        ("[engine]\npiece_value = 3\n", "engine.piece_value", "unknown key"),
        ("[engine]\npiece_values = 3\n", "engine.piece_values", "expected dict"),
        ("[engine.hand_values]\nP = 0\n", "engine.hand_values.P", "from 1 to 100000"),
        ('[engine.hand_values]\n"+P" = 700\n', "engine.hand_values.+P", "never promoted"),
        ("[engine.evaluation]\ntempi = 5\n", "engine.evaluation.tempi", "unknown weight"),
        ("[engine.evaluation]\ntempo = 500\n", "engine.evaluation.tempo", "from 0 to 200"),
        ("[engine.evaluation]\ntempo = nan\n", "engine.evaluation.tempo", "from 0 to 200"),
        ('[engine.evaluation]\ntempo = "5"\n', "engine.evaluation.tempo", "a number"),
        ("[engine.evaluation]\nhand_danger = true\n", "engine.evaluation.hand_danger", "number"),
    ],
)
def test_bad_engine_values_are_refused_naming_the_key(
    tmp_path: Path, extra: str, key: str, words: str
) -> None:
    with pytest.raises(VariantFileError) as err:
        read_variant_file(_variant_copy(tmp_path, extra))
    assert f"key '{key}'" in str(err.value)
    assert words in str(err.value)


def test_an_inheriting_variant_keeps_its_parents_values(tmp_path: Path) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    shutil.copy(data_dir() / "variants" / "shogi.toml", folder / "shogi.toml")
    (folder / "shogi-nodrop.toml").write_text(
        '[variant]\nid = "shogi-nodrop"\ninherits = "shogi"\n'
        'description = "no drops"\n\n[drops]\nenabled = false\n',
        encoding="utf-8",
    )
    child = read_variant_file(folder / "shogi-nodrop.toml")
    assert child.piece_values == load_variant("shogi").piece_values
    assert child.evaluation_weights == load_variant("shogi").evaluation_weights
    assert not any(compute_values(child).hand)
