"""Arrays of small integers and flags for the hot path: packed where the compiled modules run.

Compiled (rules/native.py), a list of ints costs a boxed object and a type check at every
read; mypyc's ``vec[i64]`` (from ``librt``, which mypyc brings) holds plain machine integers
that compiled code reads and writes directly, and a ``vec`` of vecs (a table: rows indexed by
a board value or a square) reaches a row without unboxing it.  Interpreted, a list is faster
than a vec, and ``librt`` may not be installed at all.  So the hot modules are typed with the
aliases below, and the functions here make vecs where the compiled modules are in use, lists
otherwise.  Both index (negative indices too), assign, slice, iterate and measure alike; code
that must run either way uses only those.  A vec has no ``append``, ``index`` or ``copy``
method, never equals a list and does not pickle: :func:`plain` gives a list for such uses.
This module is never compiled.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from mypy_extensions import i64

from rules import native

if TYPE_CHECKING:
    from librt.vecs import vec

# read as vecs by mypy and mypyc; lists when interpreted
IntArray: TypeAlias = "vec[i64]"
BoolArray: TypeAlias = "vec[bool]"
IntTable: TypeAlias = "vec[vec[i64]]"
BoolTable: TypeAlias = "vec[vec[bool]]"


def _packed() -> Any:
    """librt's ``vec`` while the compiled modules are in use, else None."""
    if not native.install().active:
        return None
    from librt.vecs import vec as packed

    return packed


def int_array(values: Iterable[int]) -> IntArray:
    """``values`` as a vec[i64] under the compiled modules, as a list otherwise."""
    packed = _packed()
    if packed is None:
        return cast(IntArray, list(values))
    return cast(IntArray, packed[i64](values))


def bool_array(values: Iterable[bool]) -> BoolArray:
    """``values`` as a vec[bool] under the compiled modules, as a list otherwise."""
    packed = _packed()
    if packed is None:
        return cast(BoolArray, list(values))
    return cast(BoolArray, packed[bool](values))


def int_table(rows: Iterable[Iterable[int]]) -> IntTable:
    """Rows of ints (each its own length) as a vec of vec[i64], or a list of lists."""
    packed = _packed()
    if packed is None:
        return cast(IntTable, [list(row) for row in rows])
    return cast(IntTable, packed[packed[i64]](packed[i64](r) for r in rows))


def bool_table(rows: Iterable[Iterable[bool]]) -> BoolTable:
    """Rows of flags as a vec of vec[bool], or a list of lists."""
    packed = _packed()
    if packed is None:
        return cast(BoolTable, [list(row) for row in rows])
    return cast(BoolTable, packed[packed[bool]](packed[bool](row) for row in rows))


def plain(values: Iterable[int]) -> list[int]:
    """A plain list of the values (of a vec or a list), typed as ints (mypy gives a vec's
    items no ``abs()``): for pickling and for code outside the hot path."""
    return list(values)
