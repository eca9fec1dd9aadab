"""rules/arrays.py interpreted: plain lists, so that pure-Python code (and tests) may treat
the board, hands and tables as lists.  tests/test_native.py checks the compiled side: packed
arrays that give the same answers and texts."""

from __future__ import annotations

from rules import Position, load_variant, native
from rules.arrays import bool_array, bool_table, int_array, int_table, plain


def test_interpreted_arrays_are_lists() -> None:
    assert not native.install().active
    assert int_array(range(3)) == [0, 1, 2]
    assert bool_array(v > 0 for v in (-1, 1)) == [False, True]
    assert int_table(((1,), (2, 3))) == [[1], [2, 3]]
    assert bool_table(([True], [])) == [[True], []]
    pos = Position.start(load_variant("shogi"))
    assert type(pos.board) is list and type(pos.hands[0]) is list


def test_plain_copies() -> None:
    values = int_array([5, -5])
    copy = plain(values)
    copy[0] = 0
    assert values == [5, -5]
