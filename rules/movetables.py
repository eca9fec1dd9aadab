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

from typing import TYPE_CHECKING, Final

from rules.arrays import BoolArray
from rules.move import Move

if TYPE_CHECKING:
    from rules.tables import Tables

# (target square, the moves to it)
Entry = tuple[int, tuple[Move, ...]]
PerSquare = list[tuple[Entry, ...]]
RidesPerSquare = list[tuple[tuple[Entry, ...], ...]]


def move_tables(t: Tables) -> MoveTables:
    """The move tables for ``t``, shared by the variants whose pieces move alike on the same
    board (Wa with and without drops): they are read-only once built."""
    key = (
        t.size,
        tuple(map(tuple, t.zone)),
        tuple(t.leaps),
        tuple(t.rides),
        tuple(t.promote),
        tuple(map(tuple, t.dead)),
    )
    built = _BUILT.get(key)
    if built is None:
        built = _BUILT[key] = MoveTables(t)
    return built


class MoveTables:
    """The move objects of one variant's pieces (built with its :class:`Tables`)."""

    __slots__ = ("_made", "_plain", "drop_moves", "leap_moves", "reach", "ride_moves")

    def __init__(self, t: Tables) -> None:
        self._made: dict[tuple[int, int, bool], Move] = {}
        # the entry of a move that does not promote, by origin then target: one object for
        # every piece making that move
        self._plain: list[dict[int, Entry]] = [{} for _ in range(t.size)]
        values = 2 * t.kinds + 1
        self.leap_moves: list[PerSquare] = [[] for _ in range(values)]
        self.ride_moves: list[RidesPerSquare] = [[] for _ in range(values)]
        bits = [1 << sq for sq in range(t.size)]
        # reach[v][sq]: the squares the piece reaches on an empty board, as a bit mask (bit d
        # for square d): a piece whose mask misses every square that answers a check is skipped
        self.reach: list[list[int]] = [[] for _ in range(values)]
        for kind in range(1, t.kinds + 1):
            for color, v in enumerate((kind, -kind)):
                zone = t.zone[color] if t.promote[v] else None
                dead = t.dead[v]
                leaps, rides = t.leaps[v], t.rides[v]
                self.leap_moves[v] = [
                    self._entries(sq, leaps[sq], zone, dead) for sq in range(t.size)
                ]
                self.ride_moves[v] = [
                    tuple(self._entries(sq, ray, zone, dead) for ray in rides[sq])
                    for sq in range(t.size)
                ]
                # distinct squares: their sum is their union
                self.reach[v] = [
                    sum(map(bits.__getitem__, leaps[sq]))
                    + sum(sum(map(bits.__getitem__, ray)) for ray in rides[sq])
                    for sq in range(t.size)
                ]
        self.drop_moves: list[tuple[Move, ...]] = [
            tuple(Move(-1, sq, False, kind) for sq in range(t.size)) if kind else ()
            for kind in range(t.kinds + 1)
        ]
        self._made.clear()
        self._plain.clear()

    def _entries(
        self,
        frm: int,
        targets: tuple[int, ...],
        zone: BoolArray | None,
        dead: BoolArray,
    ) -> tuple[Entry, ...]:
        """The entries from ``frm`` to each of ``targets`` of a piece that promotes in
        ``zone`` (None for a piece that does not promote) and could not move again from the
        ``dead`` squares."""
        plain = self._plain[frm]
        out: list[Entry] = []
        for to in targets:
            if zone is not None and (zone[frm] or zone[to]):
                promoting = self._move(frm, to, True)
                if dead[to]:
                    out.append((to, (promoting,)))
                else:
                    out.append((to, (promoting, self._move(frm, to, False))))
                continue
            entry = plain.get(to)
            if entry is None:
                entry = plain[to] = (to, (self._move(frm, to, False),))
            out.append(entry)
        return tuple(out)

    def _move(self, frm: int, to: int, promote: bool) -> Move:
        key = (frm, to, promote)
        move = self._made.get(key)
        if move is None:
            move = self._made[key] = Move(frm, to, promote, 0)
        return move


_BUILT: Final[dict[object, MoveTables]] = {}
