"""A Betza-notation subset: enough for Standard Shogi, Wa Shogi and their relatives.

A move description like ``vRfF3bFsW`` becomes a :class:`MoveSpec` of leaps (one jump to a fixed
offset, over anything) and rides (repeated steps along a vector, blocked by the first piece,
optionally capped in range).  Vectors are relative to the mover: ``dx`` to its right, ``dy``
forward.

Atoms: ``W`` ``F`` ``D`` ``A`` ``N`` ``H`` ``C`` ``Z`` ``G`` (leapers), ``K`` (= WF), ``R`` ``B``
``Q`` (riders = WW, FF, RB).  A number after an atom makes it a rider capped at that many steps
(``bW2``, ``fF3``); a doubled leaper (``NN``) is an unlimited rider.  Modifiers before an atom
pick directions: ``f`` ``b`` ``l`` ``r`` and ``s`` (sideways) ``v`` (forward and back); on
diagonal atoms ``fl`` ``fr`` ``bl`` ``br`` name one diagonal; on oblique atoms (``N``...)
``ff`` ``bb`` ``fs`` ``bs`` ``ll`` ``rr`` name the narrow and wide pairs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rules.errors import RulesError
from rules.numbers import read_number

Vector = tuple[int, int]

_LEAPERS: dict[str, Vector] = {
    "W": (1, 0),
    "F": (1, 1),
    "D": (2, 0),
    "A": (2, 2),
    "N": (2, 1),
    "H": (3, 0),
    "C": (3, 1),
    "Z": (3, 2),
    "G": (3, 3),
}
_COMPOUNDS: dict[str, tuple[str, ...]] = {"K": ("W", "F"), "Q": ("W", "F")}
_RIDERS: dict[str, str] = {"R": "W", "B": "F", "Q": "Q"}

MAX_RANGE = 18  # the longest slide on the largest board (19 squares)


def _bad(problem: str) -> RulesError:
    return RulesError(problem, code="bad_betza")


_TOKEN = re.compile(r"([a-z]*)([A-Z])(\2?)([0-9]*)")


@dataclass(frozen=True)
class MoveSpec:
    """Where a piece may go: leaps ``(dx, dy)`` and rides ``((dx, dy), max_steps)``.

    ``max_steps`` 0 means unlimited.  Vectors are relative to the mover (``dy`` > 0 forward).
    """

    leaps: tuple[Vector, ...]
    rides: tuple[tuple[Vector, int], ...]

    def vectors(self) -> set[Vector]:
        """Every first-step vector of the piece (leaps and the first square of each ride)."""
        return set(self.leaps) | {v for v, _ in self.rides}


def _symmetries(base: Vector) -> set[Vector]:
    x, y = base
    out = set()
    for a, b in ((x, y), (y, x)):
        for sa in (1, -1):
            for sb in (1, -1):
                out.add((a * sa, b * sb))
    return out


def _kind(v: Vector) -> str:
    dx, dy = v
    if dx == 0 or dy == 0:
        return "orthogonal"
    if abs(dx) == abs(dy):
        return "diagonal"
    return "oblique"


_SINGLE: dict[str, Callable[[int, int], bool]] = {
    "f": lambda dx, dy: dy > 0,
    "b": lambda dx, dy: dy < 0,
    "l": lambda dx, dy: dx < 0,
    "r": lambda dx, dy: dx > 0,
    "s": lambda dx, dy: abs(dx) > abs(dy),
    "v": lambda dx, dy: abs(dy) > abs(dx),
}
_DIAGONAL_PAIRS = {"fl", "fr", "bl", "br", "lf", "rf", "lb", "rb"}
_OBLIQUE_PAIRS: dict[str, Callable[[int, int], bool]] = {
    "ff": lambda dx, dy: dy > 0 and abs(dy) > abs(dx),
    "bb": lambda dx, dy: dy < 0 and abs(dy) > abs(dx),
    "fs": lambda dx, dy: dy > 0 and abs(dx) > abs(dy),
    "sf": lambda dx, dy: dy > 0 and abs(dx) > abs(dy),
    "bs": lambda dx, dy: dy < 0 and abs(dx) > abs(dy),
    "sb": lambda dx, dy: dy < 0 and abs(dx) > abs(dy),
    "ll": lambda dx, dy: dx < 0 and abs(dx) > abs(dy),
    "rr": lambda dx, dy: dx > 0 and abs(dx) > abs(dy),
}


def _select(mods: str, vectors: set[Vector], text: str) -> set[Vector]:
    """The vectors picked by a modifier string (all of them when it is empty)."""
    if not mods:
        return vectors
    kind = _kind(next(iter(vectors)))
    chosen: set[Vector] = set()
    i = 0
    while i < len(mods):
        pair = mods[i : i + 2]
        if kind == "diagonal" and pair in _DIAGONAL_PAIRS:
            a, b = _SINGLE[pair[0]], _SINGLE[pair[1]]
            chosen |= {v for v in vectors if a(*v) and b(*v)}
            i += 2
            continue
        if kind == "oblique" and pair in _OBLIQUE_PAIRS:
            chosen |= {v for v in vectors if _OBLIQUE_PAIRS[pair](*v)}
            i += 2
            continue
        letter = mods[i]
        if letter not in _SINGLE:
            raise RulesError(f"unknown Betza modifier {letter!r} in {text!r}", code="bad_betza")
        if kind == "diagonal" and letter in "sv":
            raise RulesError(
                f"modifier {letter!r} is ambiguous on a diagonal atom in {text!r}; "
                "use f, b, l, r or a pair like fl",
                code="bad_betza",
            )
        test = _SINGLE[letter]
        chosen |= {v for v in vectors if test(*v)}
        i += 1
    if not chosen:
        raise RulesError(f"modifiers {mods!r} select no direction in {text!r}", code="bad_betza")
    return chosen


def parse_betza(text: str) -> MoveSpec:
    """Parse a Betza move description; raises :class:`RulesError` naming what is wrong."""
    if not text:
        raise RulesError("empty Betza move description", code="bad_betza")
    leaps: set[Vector] = set()
    rides: dict[Vector, int] = {}
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise RulesError(f"cannot read Betza {text!r} at {text[pos:]!r}", code="bad_betza")
        mods, atom, doubled, number = m.groups()
        pos = m.end()
        rider_atom = _RIDERS.get(atom)
        if atom not in _LEAPERS and atom not in _COMPOUNDS and rider_atom is None:
            raise RulesError(f"unknown Betza atom {atom!r} in {text!r}", code="bad_betza")
        if doubled and number:
            raise RulesError(
                f"{atom}{atom}{number}: a doubled atom or a range, not both", code="bad_betza"
            )
        limit = read_number(number, f"the range in {text!r}", 1, MAX_RANGE, _bad) if number else 0
        riding = rider_atom is not None or bool(doubled) or (bool(number) and limit > 1)
        base = rider_atom or atom
        for part in _COMPOUNDS.get(base, (base,)):
            vectors = _select(mods, _symmetries(_LEAPERS[part]), text)
            for v in vectors:
                if riding:
                    old = rides.get(v)
                    rides[v] = 0 if old == 0 or limit == 0 else max(old or 0, limit)
                else:
                    leaps.add(v)
    leaps -= set(rides)
    return MoveSpec(tuple(sorted(leaps)), tuple(sorted(rides.items())))
