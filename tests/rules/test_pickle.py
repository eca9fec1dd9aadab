"""Positions and variants pickle (and copy) whole: a position keeps its history and repetition
counts; a shipped variant comes back as the object ``load_variant`` gives, any other by its
fields, never with the tables it builds on first use.  ``tests/test_native.py`` checks the same
for the compiled position."""

from __future__ import annotations

import copy
import pickle

from rules import Position, load_variant
from rules.variant import data_dir, read_variant_file


def test_a_position_pickles_with_its_history() -> None:
    pos = Position.start(load_variant("shogi"))
    for move in ("2h1h", "8b9b", "1h2h", "9b8b"):  # the start position a second time
        pos.push_usi(move)
    for back in (pickle.loads(pickle.dumps(pos)), copy.deepcopy(pos)):
        assert back.variant is pos.variant
        assert back.sfen() == pos.sfen()
        assert back.hash == pos.hash
        assert back.kings == pos.kings
        assert back.move_stack == pos.move_stack
        assert back.repetitions() == pos.repetitions() == 2
        assert back.pop() == pos.pop()  # the history undoes as the original's
        assert back.sfen() == pos.sfen()
        pos.push_usi("9b8b")


def test_a_variant_read_from_a_file_pickles_by_its_fields_without_its_tables() -> None:
    variant = read_variant_file(data_dir() / "variants" / "wa.toml")
    assert variant.tables.size == 121  # built, then left out of the pickle
    back = pickle.loads(pickle.dumps(variant))
    assert back is not variant
    assert "tables" not in back.__dict__
    assert (back.id, back.files, back.start_sfen, back.source) == (
        variant.id,
        variant.files,
        variant.start_sfen,
        variant.source,
    )
    assert [p.letter for p in back.pieces] == [p.letter for p in variant.pieces]
    pos = Position.start(back)
    assert len(pos.legal_moves()) == len(Position.start(variant).legal_moves())
