"""Ready-made move objects for every piece on every square: move generation picks them out
of tables instead of building a new :class:`Move` for each move of each search node.

A piece is found by its row ``v * size + sq`` (signed board value ``v`` on square ``sq``; a
negative ``v`` lands in the upper half, as in :mod:`rules.tables`).  ``leap_to[row]`` holds
its leap targets and ``leap_made[row][i]`` the moves to ``leap_to[row][i]``; ``ride_to[row]``
holds the squares of its rides one ride after another, each outward, ``ride_made[row][i]`` the
moves to ``ride_to[row][i]`` and ``ride_next[row][i]`` where the next ride starts (where a
generator goes on once a piece stands on ``ride_to[row][i]``).  The squares are
packed arrays (:mod:`rules.arrays`), read without unboxing when compiled; the moves to a
square are in the order the generators emit them (promoting first where the piece may promote
there, then not promoting unless it could never move again from there).
``drop_moves[kind][sq]`` is the drop of ``kind`` on ``sq``.  Equal moves are one shared object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rules.arrays import BoolArray, IntTable, int_table
from rules.move import Move

if TYPE_CHECKING:
    from rules.tables import Tables


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


# (target square, the moves to it)
Entry = tuple[int, tuple[Move, ...]]
# the moves to each square of a row of ``leap_to`` or ``ride_to``
Made = tuple[tuple[Move, ...], ...]


class MoveTables:
    """The move objects of one variant's pieces (built with its :class:`Tables`)."""

    __slots__ = (
        "_made",
        "_plain",
        "drop_moves",
        "leap_made",
        "leap_to",
        "reach",
        "ride_made",
        "ride_next",
        "ride_to",
    )

    def __init__(self, t: Tables) -> None:
        self._made: dict[tuple[int, int, bool], Move] = {}
        # the entry of a move that does not promote, by origin then target: one object for
        # every piece making that move
        self._plain: list[dict[int, Entry]] = [{} for _ in range(t.size)]
        size = t.size
        values = 2 * t.kinds + 1
        leap_to: list[list[int]] = [[] for _ in range(values * size)]
        ride_to: list[list[int]] = [[] for _ in range(values * size)]
        ride_next: list[list[int]] = [[] for _ in range(values * size)]
        self.leap_made: list[Made] = [()] * (values * size)
        self.ride_made: list[Made] = [()] * (values * size)
        bits = [1 << sq for sq in range(t.size)]
        # reach[v][sq]: the squares the piece reaches on an empty board, as a bit mask (bit d
        # for square d): a piece whose mask misses every square that answers a check is skipped
        self.reach: list[list[int]] = [[] for _ in range(values)]
        for kind in range(1, t.kinds + 1):
            for color, v in enumerate((kind, -kind)):
                zone = t.zone[color] if t.promote[v] else None
                dead = t.dead[v]
                leaps, rides = t.leaps[v], t.rides[v]
                for sq in range(size):
                    row = v % values * size + sq  # where ``v * size + sq`` lands
                    entries = self._entries(sq, leaps[sq], zone, dead)
                    leap_to[row] = [to for to, _ in entries]
                    self.leap_made[row] = tuple(made for _, made in entries)
                    made_on_rides: list[tuple[Move, ...]] = []
                    for ray in rides[sq]:
                        entries = self._entries(sq, ray, zone, dead)
                        after = len(made_on_rides) + len(entries)
                        for to, made in entries:
                            ride_to[row].append(to)
                            ride_next[row].append(after)
                            made_on_rides.append(made)
                    self.ride_made[row] = tuple(made_on_rides)
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
        self.leap_to: IntTable = int_table(leap_to)
        self.ride_to: IntTable = int_table(ride_to)
        self.ride_next: IntTable = int_table(ride_next)
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
