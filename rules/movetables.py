"""Ready-made move objects for every piece on every square: move generation picks them out
of tables instead of building a new :class:`Move` for each move of each search node.

For a signed board value ``v`` on square ``sq``: ``leap_moves[v][sq]`` holds one entry per
leap target and ``ride_moves[v][sq]`` one tuple of entries per ride, outward.  An entry is
``(target, moves)``: the moves that reach ``target``, in the order the generators emit them
(promoting first where the piece may promote there, then not promoting unless it could never
move again from there).  ``drop_moves[kind][sq]`` is the drop of ``kind`` on ``sq``.  Equal
moves are one shared object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.move import Move

if TYPE_CHECKING:
    from rules.tables import Tables

# (target square, the moves to it)
Entry = tuple[int, tuple[Move, ...]]
PerSquare = list[tuple[Entry, ...]]
RidesPerSquare = list[tuple[tuple[Entry, ...], ...]]


class MoveTables:
    """The move objects of one variant's pieces (built with its :class:`Tables`)."""

    __slots__ = ("_made", "drop_moves", "leap_moves", "reach", "ride_moves")

    def __init__(self, t: Tables) -> None:
        self._made: dict[tuple[int, int, bool], Move] = {}
        values = 2 * t.kinds + 1
        self.leap_moves: list[PerSquare] = [[] for _ in range(values)]
        self.ride_moves: list[RidesPerSquare] = [[] for _ in range(values)]
        for kind in range(1, t.kinds + 1):
            for color, v in enumerate((kind, -kind)):
                zone = t.zone[color] if t.promote[v] else None
                dead = t.dead[v]
                self.leap_moves[v] = [
                    tuple(self._entry(sq, d, zone, dead) for d in t.leaps[v][sq])
                    for sq in range(t.size)
                ]
                self.ride_moves[v] = [
                    tuple(
                        tuple(self._entry(sq, d, zone, dead) for d in ray) for ray in t.rides[v][sq]
                    )
                    for sq in range(t.size)
                ]
        # reach[v][sq]: the squares the piece reaches on an empty board, as a bit mask (bit d
        # for square d): a piece whose mask misses every square that answers a check is skipped
        self.reach: list[list[int]] = [[] for _ in range(values)]
        for v in range(-t.kinds, t.kinds + 1):
            if v:
                self.reach[v] = [
                    _mask((*t.leaps[v][sq], *(d for ray in t.rides[v][sq] for d in ray)))
                    for sq in range(t.size)
                ]
        self.drop_moves: list[tuple[Move, ...]] = [
            tuple(Move(-1, sq, False, kind) for sq in range(t.size)) if kind else ()
            for kind in range(t.kinds + 1)
        ]
        self._made.clear()

    def _entry(
        self, frm: int, to: int, zone: tuple[bool, ...] | None, dead: tuple[bool, ...]
    ) -> Entry:
        """The moves from ``frm`` to ``to`` of a piece that promotes in ``zone`` (None for
        a piece that does not promote) and could not move again from the ``dead`` squares."""
        if zone is not None and (zone[frm] or zone[to]):
            if dead[to]:
                return to, (self._move(frm, to, True),)
            return to, (self._move(frm, to, True), self._move(frm, to, False))
        return to, (self._move(frm, to, False),)

    def _move(self, frm: int, to: int, promote: bool) -> Move:
        key = (frm, to, promote)
        move = self._made.get(key)
        if move is None:
            move = self._made[key] = Move(frm, to, promote, 0)
        return move


def _mask(squares: tuple[int, ...]) -> int:
    mask = 0
    for sq in squares:
        mask |= 1 << sq
    return mask
