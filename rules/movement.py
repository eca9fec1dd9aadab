"""A piece's moves taken apart for describing in words: which directions, one step or a slide,
how far, which jumps.  No words here: the bot's message catalogues say the parts.

``describe_moves(parse_betza("fWbF"))`` is one :class:`Movement`: a STEP, directions FORWARD
and DIAGONALLY_BACKWARD.  Every vector of the :class:`~rules.betza.MoveSpec` lands in exactly
one movement, so a description built from them misses nothing and invents nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.betza import MoveSpec, Vector


class Reach(Enum):
    STEP = "step"  # to an adjacent square
    JUMP = "jump"  # to one farther square, over anything
    SLIDE = "slide"  # repeated steps (or jumps) in a line while the way is empty
    RANGE = "range"  # the same, at most ``limit`` times


class Direction(Enum):
    """Relative to the mover.  For an oblique jump, FORWARD means "ahead, to either side"."""

    ANY = "any"
    FORWARD = "forward"
    BACKWARD = "backward"
    SIDEWAYS = "sideways"
    LEFT = "left"
    RIGHT = "right"
    DIAGONAL = "diagonal"
    DIAGONALLY_FORWARD = "diagonally_forward"
    DIAGONALLY_BACKWARD = "diagonally_backward"
    FORWARD_LEFT = "forward_left"
    FORWARD_RIGHT = "forward_right"
    BACKWARD_LEFT = "backward_left"
    BACKWARD_RIGHT = "backward_right"


@dataclass(frozen=True)
class Movement:
    """One kind of move in some directions.

    ``distance``: squares per step along the line (1 for W and F, 2 for D and A); for an
    oblique jump, its long leg (2 for a knight) and ``side`` its short leg (1), ``wide`` when
    the long leg goes sideways.  ``limit``: for RANGE, the most steps.
    """

    reach: Reach
    directions: tuple[Direction, ...]
    distance: int = 1
    side: int = 0
    wide: bool = False
    limit: int = 0

    @property
    def oblique(self) -> bool:
        return self.side > 0 and self.side != self.distance

    @property
    def leaping(self) -> bool:
        """Each step is a jump over anything (D, A, N...), not a step to a neighbour."""
        return self.distance > 1


_ORDER = (Reach.SLIDE, Reach.RANGE, Reach.STEP, Reach.JUMP)

_COMPASS: dict[Vector, Direction] = {
    (0, 1): Direction.FORWARD,
    (0, -1): Direction.BACKWARD,
    (-1, 0): Direction.LEFT,
    (1, 0): Direction.RIGHT,
    (-1, 1): Direction.FORWARD_LEFT,
    (1, 1): Direction.FORWARD_RIGHT,
    (-1, -1): Direction.BACKWARD_LEFT,
    (1, -1): Direction.BACKWARD_RIGHT,
}
_D = Direction
_PAIRS: tuple[tuple[frozenset[Direction], Direction], ...] = (
    (frozenset({_D.LEFT, _D.RIGHT}), _D.SIDEWAYS),
    (
        frozenset({_D.FORWARD_LEFT, _D.FORWARD_RIGHT, _D.BACKWARD_LEFT, _D.BACKWARD_RIGHT}),
        _D.DIAGONAL,
    ),
    (frozenset({_D.FORWARD_LEFT, _D.FORWARD_RIGHT}), _D.DIAGONALLY_FORWARD),
    (frozenset({_D.BACKWARD_LEFT, _D.BACKWARD_RIGHT}), _D.DIAGONALLY_BACKWARD),
)
# oblique jumps: a left-right pair is "ahead (or back), to either side"
_OBLIQUE_PAIRS: tuple[tuple[frozenset[Direction], Direction], ...] = (
    (frozenset({_D.FORWARD_LEFT, _D.FORWARD_RIGHT}), _D.FORWARD),
    (frozenset({_D.BACKWARD_LEFT, _D.BACKWARD_RIGHT}), _D.BACKWARD),
)
_ALL = frozenset(_COMPASS.values())
_LISTED = tuple(Direction)  # the order directions are said in


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _fold(
    found: set[Direction], pairs: tuple[tuple[frozenset[Direction], Direction], ...]
) -> tuple[Direction, ...]:
    """Compass directions folded into the fewest names (left and right are SIDEWAYS, both
    forward diagonals DIAGONALLY_FORWARD...), in the order they are said."""
    left = set(found)
    out: set[Direction] = set()
    for members, name in pairs:
        if members <= left:
            out.add(name)
            left -= members
    return tuple(d for d in _LISTED if d in out | left)


def _shape(v: Vector) -> tuple[int, int, bool]:
    """``(distance, side, wide)`` of a vector: its length along a line, or its two legs."""
    dx, dy = abs(v[0]), abs(v[1])
    if dx == 0 or dy == 0 or dx == dy:
        return max(dx, dy), 0, False
    return max(dx, dy), min(dx, dy), dx > dy


def describe_moves(spec: MoveSpec) -> tuple[Movement, ...]:
    """The moves of ``spec`` grouped into movements: slides first, then ranges, steps, jumps;
    within each, shorter before longer."""
    groups: dict[tuple[Reach, int, int, bool, int], set[Direction]] = {}
    for v, limit in [(v, -1) for v in spec.leaps] + list(spec.rides):
        distance, side, wide = _shape(v)
        if limit < 0:
            reach = Reach.STEP if distance == 1 else Reach.JUMP
            limit = 0
        else:
            reach = Reach.SLIDE if limit == 0 else Reach.RANGE
        key = (reach, distance, side, wide, limit)
        groups.setdefault(key, set()).add(_COMPASS[(_sign(v[0]), _sign(v[1]))])
    out = []
    for (reach, distance, side, wide, limit), found in groups.items():
        if found == _ALL and not side:
            directions: tuple[Direction, ...] = (Direction.ANY,)
        else:
            directions = _fold(found, _OBLIQUE_PAIRS if side else _PAIRS)
        out.append(Movement(reach, directions, distance, side, wide, limit))
    return tuple(sorted(out, key=lambda m: (_ORDER.index(m.reach), m.distance, m.side, m.limit)))
