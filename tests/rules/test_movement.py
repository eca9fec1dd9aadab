"""A piece's moves taken apart for words: every vector in exactly one movement, nothing added."""

from __future__ import annotations

import pytest

from rules import available_variants, load_variant
from rules.betza import MoveSpec, Vector, parse_betza
from rules.movement import Direction, Movement, Reach, describe_moves

D = Direction
_COMPASS: dict[Direction, tuple[int, int]] = {
    D.FORWARD: (0, 1),
    D.BACKWARD: (0, -1),
    D.LEFT: (-1, 0),
    D.RIGHT: (1, 0),
    D.FORWARD_LEFT: (-1, 1),
    D.FORWARD_RIGHT: (1, 1),
    D.BACKWARD_LEFT: (-1, -1),
    D.BACKWARD_RIGHT: (1, -1),
}
_FOLDED = {
    D.ANY: list(_COMPASS),
    D.SIDEWAYS: [D.LEFT, D.RIGHT],
    D.DIAGONAL: [D.FORWARD_LEFT, D.FORWARD_RIGHT, D.BACKWARD_LEFT, D.BACKWARD_RIGHT],
    D.DIAGONALLY_FORWARD: [D.FORWARD_LEFT, D.FORWARD_RIGHT],
    D.DIAGONALLY_BACKWARD: [D.BACKWARD_LEFT, D.BACKWARD_RIGHT],
}
_FOLDED_OBLIQUE = {
    D.FORWARD: [D.FORWARD_LEFT, D.FORWARD_RIGHT],
    D.BACKWARD: [D.BACKWARD_LEFT, D.BACKWARD_RIGHT],
}


def _vectors(m: Movement) -> set[Vector]:
    """The vectors a movement stands for (the inverse of the grouping, written apart)."""
    folded = _FOLDED_OBLIQUE if m.side else _FOLDED
    out = set()
    for d in m.directions:
        for compass in folded.get(d, [d]):
            sx, sy = _COMPASS[compass]
            if not m.side:
                out.add((sx * m.distance, sy * m.distance))
            elif m.wide:
                out.add((sx * m.distance, sy * m.side))
            else:
                out.add((sx * m.side, sy * m.distance))
    return out


def _rebuild(movements: tuple[Movement, ...]) -> MoveSpec:
    leaps: set[Vector] = set()
    rides: dict[Vector, int] = {}
    for m in movements:
        for v in _vectors(m):
            assert v not in leaps and v not in rides, f"{v} in two movements"
            if m.reach in (Reach.STEP, Reach.JUMP):
                leaps.add(v)
            else:
                rides[v] = m.limit
    return MoveSpec(tuple(sorted(leaps)), tuple(sorted(rides.items())))


EVERY_PIECE = [
    pytest.param(p.moves, id=f"{vid}-{p.letter}-{p.betza}")
    for vid in available_variants()
    for p in load_variant(vid).pieces
]


@pytest.mark.parametrize("spec", EVERY_PIECE)
def test_every_piece_is_described_whole(spec: MoveSpec) -> None:
    movements = describe_moves(spec)
    assert movements
    assert all(m.directions for m in movements)
    assert _rebuild(movements) == spec


@pytest.mark.parametrize(
    "betza", ["NN", "fD3", "rrN", "ffC", "vsN", "DD", "G", "Z", "lfF", "K2", "Q", "bbN"]
)
def test_other_betza_of_the_subset_round_trip(betza: str) -> None:
    assert _rebuild(describe_moves(parse_betza(betza))) == parse_betza(betza)


def _parts(betza: str) -> list[tuple[str, list[str], int, int, int]]:
    return [
        (m.reach.value, [d.value for d in m.directions], m.distance, m.side, m.limit)
        for m in describe_moves(parse_betza(betza))
    ]


def test_examples() -> None:
    assert _parts("fWbF") == [("step", ["forward", "diagonally_backward"], 1, 0, 0)]
    assert _parts("K") == [("step", ["any"], 1, 0, 0)]
    assert _parts("sRvW") == [
        ("slide", ["sideways"], 1, 0, 0),
        ("step", ["forward", "backward"], 1, 0, 0),
    ]
    assert _parts("vRfF3bFsW") == [
        ("slide", ["forward", "backward"], 1, 0, 0),
        ("range", ["diagonally_forward"], 1, 0, 3),
        ("step", ["sideways", "diagonally_backward"], 1, 0, 0),
    ]
    assert _parts("FAvWvD") == [
        ("step", ["forward", "backward", "diagonal"], 1, 0, 0),
        ("jump", ["forward", "backward", "diagonal"], 2, 0, 0),
    ]
    assert _parts("ffN") == [("jump", ["forward"], 2, 1, 0)]
    assert _parts("vN") == [("jump", ["forward", "backward"], 2, 1, 0)]
    assert _parts("fRbW2") == [("slide", ["forward"], 1, 0, 0), ("range", ["backward"], 1, 0, 2)]
