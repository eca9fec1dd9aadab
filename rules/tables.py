"""Tables derived once per variant: geometry, move and attack lookups, zobrist keys.

Board values are signed kinds: ``+k`` a sente piece of kind ``k``, ``-k`` a gote one, 0 empty.
Per-value tables have ``2 * kinds + 1`` entries indexed directly by the signed value (a
negative index lands in the upper half).  Tables of numbers and flags that the search reads
are the packed arrays of :mod:`rules.arrays` (lists when interpreted).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from rules.arrays import (
    BoolArray,
    BoolTable,
    IntArray,
    IntTable,
    bool_array,
    bool_table,
    int_array,
    int_table,
)
from rules.errors import InvalidMoveError
from rules.movetables import move_tables

if TYPE_CHECKING:
    from rules.betza import Vector
    from rules.variant import Variant

SENTE: Final = 0
GOTE: Final = 1

Ray = tuple[int, ...]
# by signed board value (a per-value table): is a piece of that value one of the set
ValueSet = BoolArray


class Tables:
    """Precomputed lookups for one variant; built lazily by ``Variant.tables``."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        w, h = self.width, self.height = variant.files, variant.ranks
        self.size = n = w * h
        k = self.kinds = len(variant.pieces)
        self.square_names: tuple[str, ...] = tuple(
            f"{w - (sq % w)}{chr(ord('a') + sq // w)}" for sq in range(n)
        )
        self.square_index = {name: sq for sq, name in enumerate(self.square_names)}
        self.file_of: IntArray = int_array(sq % w for sq in range(n))
        depth = variant.zone_depth
        self.zone: BoolTable = bool_table(
            (
                [sq // w < depth for sq in range(n)],
                [sq // w >= h - depth for sq in range(n)],
            )
        )

        size = 2 * k + 1
        self.leaps: list[tuple[tuple[int, ...], ...]] = [()] * size
        self.rides: list[tuple[tuple[Ray, ...], ...]] = [()] * size
        promote = [0] * size  # signed value after promotion, 0 if none
        base_kind = [0] * size  # unpromoted kind a capture puts in hand
        dead: list[list[bool]] = [[]] * size  # no move at all from this square
        for piece in variant.pieces:
            for sign in (1, -1):
                v = piece.kind * sign
                leaps, rides = [], []
                for sq in range(n):
                    leaps.append(self._targets(sq, piece.moves.leaps, sign))
                    rides.append(
                        tuple(
                            ray
                            for vec, limit in piece.moves.rides
                            if (ray := self._ray(sq, vec, sign, limit))
                        )
                    )
                self.leaps[v] = tuple(leaps)
                self.rides[v] = tuple(rides)
                dead[v] = [not leaps[sq] and not rides[sq] for sq in range(n)]
                promote[v] = piece.promotes_to * sign
                base_kind[v] = piece.base
        self.dead: BoolTable = bool_table(dead)
        self.promote: IntArray = int_array(promote)
        self.base_kind: IntArray = int_array(base_kind)
        # own[color][v]: does a board value belong to ``color`` (indexed by every signed
        # value, 0 included)
        self.own: BoolTable = bool_table(
            ([0 < v <= k for v in range(size)], [v > k for v in range(size)])
        )
        self.squares: range = range(n)
        # for make/undo: a promoted value taken back (its unpromoted kind, same colour)
        unpromote = [0] * size
        for v in range(-k, k + 1):
            unpromote[v] = base_kind[v] * (1 if v > 0 else -1)
        self.unpromote: IntArray = int_array(unpromote)
        self.royal_kind: int = variant.royal_kind
        self.drops_enabled: bool = variant.drops.enabled
        self._build_attacks()
        self.moves = move_tables(self)  # ready-made Move objects for the generators
        # how many of each unpromoted kind a full set has (the start position's pieces)
        self.set_counts: tuple[int, ...] = tuple(
            sum(
                1
                for token in re.findall(r"\+?[A-Za-z]", variant.start_sfen.split()[0])
                if (p := variant.by_letter.get(token.upper())) is not None and p.base == kind
            )
            for kind in range(k + 1)
        )
        rng = random.Random(0x5F0C1)
        self.z_board = [[rng.getrandbits(64) for _ in range(n)] for _ in range(size)]
        self.z_hand = [
            [[rng.getrandbits(64) for _ in range(max(self.set_counts) + 1)] for _ in range(k + 1)]
            for _ in range(2)
        ]
        self.z_side = rng.getrandbits(64)

    # --- geometry -----------------------------------------------------------------------

    def _step(self, sq: int, vec: Vector, sign: int) -> int | None:
        """Square reached from ``sq`` by a mover-relative vector, or None off the board."""
        dx, dy = vec
        col = sq % self.width + dx * sign
        row = sq // self.width - dy * sign
        if 0 <= col < self.width and 0 <= row < self.height:
            return row * self.width + col
        return None

    def _targets(self, sq: int, vectors: tuple[Vector, ...], sign: int) -> tuple[int, ...]:
        return tuple(t for vec in vectors if (t := self._step(sq, vec, sign)) is not None)

    def _ray(self, sq: int, vec: Vector, sign: int, limit: int) -> Ray:
        out: list[int] = []
        cur: int | None = sq
        while limit == 0 or len(out) < limit:
            cur = self._step(cur, vec, sign)  # type: ignore[arg-type]
            if cur is None:
                break
            out.append(cur)
        return tuple(out)

    def _build_attacks(self) -> None:
        """For each square: who attacks it from which direction and distance, by colour.

        By row ``c * size + sq`` (``c`` the attackers' colour): ``ray_squares`` the squares of
        every ray outward from ``sq``, one ray after another; ``ray_next[i]`` where the ray
        after that of ``ray_squares[i]`` starts (a piece there blocks the rest of its ray);
        ``ray_sets[i]`` the row of ``value_sets`` that says which signed values hit ``sq`` from
        there when nothing stands between; ``jump_squares`` and ``jump_sets`` the leaps.  A
        row of flags indexed by the value (one row for equal sets) answers faster than a set,
        compiled above all.
        """
        flags: list[ValueSet] = []  # each distinct set once
        set_ids: dict[frozenset[int], int] = {}

        def set_id(values: Iterable[int]) -> int:
            key = frozenset(values)
            found = set_ids.get(key)
            if found is None:
                found = set_ids[key] = len(flags)
                flags.append(bool_array(v in key for v in self._signed_values()))
            return found

        ray_squares: list[list[int]] = []
        ray_next: list[list[int]] = []
        ray_sets: list[list[int]] = []
        jump_squares: list[list[int]] = []
        jump_sets: list[list[int]] = []
        for color in (SENTE, GOTE):
            sign = 1 if color == SENTE else -1
            # direction (board delta) -> distance -> values
            by_dir: dict[tuple[int, int], dict[int, set[int]]] = {}
            jumps: dict[tuple[int, int], set[int]] = {}
            for piece in self.variant.pieces:
                v = piece.kind * sign
                for (dx, dy), limit in piece.moves.rides:
                    delta = (dx * sign, -dy * sign)
                    reach = limit or max(self.width, self.height)
                    for dist in range(1, reach + 1):
                        by_dir.setdefault(delta, {}).setdefault(dist, set()).add(v)
                for dx, dy in piece.moves.leaps:
                    delta = (dx * sign, -dy * sign)
                    if max(abs(dx), abs(dy)) == 1:
                        by_dir.setdefault(delta, {}).setdefault(1, set()).add(v)
                    else:
                        jumps.setdefault(delta, set()).add(v)
            for sq in range(self.size):
                col, row = sq % self.width, sq // self.width
                squares: list[int] = []
                after: list[int] = []
                ids: list[int] = []
                for (dc, dr), dists in sorted(by_dir.items()):
                    ray = []
                    ray_ids = []
                    c, r = col - dc, row - dr
                    dist = 1
                    while 0 <= c < self.width and 0 <= r < self.height and dist <= max(dists):
                        ray.append(r * self.width + c)
                        ray_ids.append(set_id(dists.get(dist, ())))
                        c, r, dist = c - dc, r - dr, dist + 1
                    squares += ray
                    after += [len(squares)] * len(ray)
                    ids += ray_ids
                ray_squares.append(squares)
                ray_next.append(after)
                ray_sets.append(ids)
                found = []
                for (dc, dr), values in sorted(jumps.items()):
                    c, r = col - dc, row - dr
                    if 0 <= c < self.width and 0 <= r < self.height:
                        found.append((r * self.width + c, set_id(values)))
                jump_squares.append([s for s, _ in found])
                jump_sets.append([i for _, i in found])
        self.value_sets: BoolTable = bool_table(flags)
        self.ray_squares: IntTable = int_table(ray_squares)
        self.ray_next: IntTable = int_table(ray_next)
        self.ray_sets: IntTable = int_table(ray_sets)
        self.jump_squares: IntTable = int_table(jump_squares)
        self.jump_sets: IntTable = int_table(jump_sets)

    def _signed_values(self) -> list[int]:
        """Every signed board value in the order of a per-value table (index ``v``, negative
        values from the end): 0, 1 .. kinds, -kinds .. -1."""
        size = 2 * self.kinds + 1
        return [i if i <= self.kinds else i - size for i in range(size)]

    # --- names --------------------------------------------------------------------------

    def parse_square(self, text: str) -> int:
        """Square index of a name like ``7g`` or ``11k``; raises InvalidMoveError."""
        sq = self.square_index.get(text.strip().lower())
        if sq is None:
            last = chr(ord("a") + self.height - 1)
            raise InvalidMoveError(
                f"{text!r} is not a square: write the file 1-{self.width} then the rank "
                f"a-{last}, like {self.square_names[self.size - 1]}",
                code="bad_square",
                text=text,
                width=self.width,
                last=last,
                example=self.square_names[self.size - 1],
            )
        return sq
