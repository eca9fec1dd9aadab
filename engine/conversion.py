"""Turning a material lead into a mate: the terms the side ahead plays for.

A shallow search does not see a mate from afar, so a side far ahead in material would
shuffle its pieces until the ply limit.  Ahead by enough (a share of the strongest piece's
value, growing linearly to full strength), the score of the side ahead gains:

- for each of its pieces, a pull towards the enemy king that grows the nearer the piece
  stands (quadratic in the king-step distance: the last squares count most, as that is where
  a piece takes part in the mate);
- for the enemy king, a push towards an edge;
- without drops, a share of how much of the starting material has left the board: trading
  pieces when ahead leaves the defender too little to hold, and the lead counts for more.
  (With drops a capture only moves a piece to a hand, so this term stays off.)
"""

from __future__ import annotations

from itertools import compress

from rules import GOTE, SENTE, Position, Variant

# Ahead by this share of the strongest piece's value the terms count in full; they start at
# MOP_UP_START_SHARE and grow linearly in between, so the score has no step.
MOP_UP_SHARE = 0.75
MOP_UP_START_SHARE = 0.3
MOP_UP_APPROACH = 4  # per piece, per square nearer the enemy king (linear part)
MOP_UP_CLOSE = 40  # per piece next to the enemy king, falling quadratically with distance
MOP_UP_EDGE = 12  # per square the enemy king stands nearer an edge
TRADE_DOWN = 500  # the whole starting material traded off, with the full lead


class Conversion:
    """The won-endgame terms of one variant (sente's view of a side's pull)."""

    def __init__(self, variant: Variant, piece_value: list[int], strongest: int) -> None:
        t = variant.tables
        size = t.size
        w, h = variant.files, variant.ranks
        self.span = span = max(w, h) - 1
        # king-step distance between two squares, and from a square to the nearest edge
        self.distance = [
            [max(abs(a % w - b % w), abs(a // w - b // w)) for b in range(size)]
            for a in range(size)
        ]
        self.from_edge = [
            min(sq % w, w - 1 - sq % w, sq // w, h - 1 - sq // w) for sq in range(size)
        ]
        # what a piece at each distance from the enemy king is worth to the side ahead
        self.approach = [
            MOP_UP_APPROACH * (span - d) + MOP_UP_CLOSE * (span - d) ** 2 // (span - 1) ** 2
            if d
            else 0
            for d in range(span + 1)
        ]
        self.mop_up_from = round(MOP_UP_SHARE * strongest)
        self.mop_up_start = round(MOP_UP_START_SHARE * strongest)
        self.mop_up_ramp = max(1, self.mop_up_from - self.mop_up_start)
        kinds = len(variant.pieces)
        royal = variant.royal_kind
        # by colour and signed value: a piece of that colour other than its king
        signed = [i if i <= kinds else i - (2 * kinds + 1) for i in range(2 * kinds + 1)]
        self.own_not_royal = [
            [v > 0 and v != royal for v in signed],
            [v < 0 and v != -royal for v in signed],
        ]
        self.piece_value = piece_value
        self.trades = not variant.drops.enabled
        start = Position.start(variant).board
        self.start_total = max(1, sum(map(piece_value.__getitem__, start)))

    def pull(self, pos: Position, strong: int) -> int:
        """What ``strong``'s position is worth towards a mate at the full lead (>= 0)."""
        ksq = pos.kings[strong ^ 1]
        if ksq < 0:
            return 0
        near = self.distance[ksq]
        board = pos.board
        own = compress(near, map(self.own_not_royal[strong].__getitem__, board))
        score = sum(map(self.approach.__getitem__, own))
        score += MOP_UP_EDGE * (self.span // 2 - self.from_edge[ksq])
        if self.trades:
            total = sum(map(self.piece_value.__getitem__, board))
            score += TRADE_DOWN * max(0, self.start_total - total) // self.start_total
        return score

    def bonus(self, material: int, pos: Position) -> int:
        """Sente's view of the terms, given the position's material balance: 0 unless one
        side is ahead by more than the starting share."""
        start = self.mop_up_start
        if material > start:
            lead = min(material - start, self.mop_up_ramp)
            return self.pull(pos, SENTE) * lead // self.mop_up_ramp
        if material < -start:
            lead = min(-start - material, self.mop_up_ramp)
            return -(self.pull(pos, GOTE) * lead // self.mop_up_ramp)
        return 0
