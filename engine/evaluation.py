"""Static evaluation for any variant: material, hands, square terms, king safety and, where
the variant file weighs it, the squares the ranging pieces reach on the board.

Scores are centipawns.  Material and square terms live in one table per signed board value
(``square_value[v][sq]``, sente's view: a gote piece counts negative), so the search keeps their
sum up to date by adding :meth:`Evaluator.move_delta` for each move instead of scanning the
board.  King safety (friends next to the king, enemies within two squares of it, enemy pieces
in hand) is counted when a leaf is evaluated; the score of a leaf is remembered by the
position's hash (a third of the leaves of a search are met again).
"""

from __future__ import annotations

from typing import Final

from engine.values import PieceValues, compute_values
from engine.weights import EvalWeights, weights_for
from rules import GOTE, SENTE, Move, Position, Variant
from rules.arrays import BoolArray, IntArray, IntTable, bool_array, bool_table, int_array, int_table

# The weights of the terms (tempo, square mobility, real-board reach of the ranging pieces,
# king advance, defenders next to the king, attackers near it, pieces in the enemy's hand,
# promotion-zone pressure) are data: engine/weights.py, which a variant file may override.
MAX_DEFENDERS: Final = 5
MAX_HAND_DANGER: Final = 1.0
# Far ahead (material beyond this share of the strongest piece's value), the stronger side's
# pieces are drawn towards the enemy king and the enemy king towards the edge: a won game is
# won by mating, which a shallow search does not see from afar.
MOP_UP_SHARE: Final = 0.75
# From this share on the pull starts, growing linearly to full strength at MOP_UP_SHARE: a
# smaller lead (a few pawns, a minor piece) also makes progress towards the king instead of
# shuffling until the ply limit, and the score has no step where the pull begins.
MOP_UP_START_SHARE: Final = 0.3
# Far ahead against a defence (the weaker side's pieces but its king) worth less than this
# many times the strongest piece, the reach of the ranging pieces counts less, down to nothing
# against a bare king at the full lead: a ranging piece in the open counted more for its reach
# (14 a square in Wa) than for closing in on the king (4 a square nearer), so won endings were
# played for reach, not for mate.  Against a fuller defence the reach counts in full: it is
# what keeps pieces from being walled in.  4 is 5,812 in Wa, 57% of an army; 2 converted fewer
# endings (developers' guide, "the reach fades against a thin defence").
THIN_DEFENCE_SHARE: Final = 4.0
MOP_UP_APPROACH: Final = 4  # per piece, per square nearer the enemy king
MOP_UP_EDGE: Final = 12  # per square the enemy king stands nearer an edge
EVALUATION_CACHE: Final = 1 << 15  # scores remembered (by position hash) before starting afresh


def _near(variant: Variant, radius: int) -> IntTable:
    """For each square, the other squares at most ``radius`` king steps away."""
    w, h = variant.files, variant.ranks
    out = []
    for sq in range(w * h):
        col, row = sq % w, sq // w
        out.append(
            [
                r * w + c
                for r in range(max(0, row - radius), min(h, row + radius + 1))
                for c in range(max(0, col - radius), min(w, col + radius + 1))
                if (r, c) != (row, col)
            ]
        )
    return int_table(out)


def _square_reach(variant: Variant, kind: int, sq: int) -> int:
    """Squares a sente ``kind`` reaches from ``sq`` on an empty board."""
    t = variant.tables
    return len(t.leaps[kind][sq]) + sum(len(ray) for ray in t.rides[kind][sq])


class Evaluator:
    """Evaluation tables of one variant."""

    def __init__(
        self,
        variant: Variant,
        values: PieceValues | None = None,
        weights: EvalWeights | None = None,
    ) -> None:
        self.variant = variant
        self.values = values if values is not None else compute_values(variant)
        self.weights = w8 = weights if weights is not None else weights_for(variant)
        self.tempo = round(w8.tempo)
        self.ride_mobility = w8.ride_mobility
        self.defender = round(w8.defender)
        self.hand_danger = w8.hand_danger
        self.open_to_drops = w8.open_to_drops
        t = variant.tables
        self.size = size = t.size
        kinds = len(variant.pieces)
        self.drops = variant.drops.enabled
        board_values = self.values.board
        # absolute value of a piece by signed board value, for ordering and pruning
        piece_value = [0] * (2 * kinds + 1)
        # sente's view of one piece of each signed value on each square
        square_value = [[0] * size for _ in range(2 * kinds + 1)]
        # sente's view of one piece of each kind in each colour's hand
        hand_value = [[0] * (kinds + 1), [0] * (kinds + 1)]
        # what a capture of a signed value puts in the captor's hand (absolute)
        capture_hand = [0] * (2 * kinds + 1)
        # promotion gain by signed value (absolute centipawns, 0 when it cannot promote)
        promotion_gain = [0] * (2 * kinds + 1)
        # weight of an enemy piece near a king, by signed value
        self.attack_weight: list[int] = [0] * (2 * kinds + 1)
        for piece in variant.pieces:
            k = piece.kind
            value = board_values[k]
            gain = (
                max(0, board_values[piece.promotes_to] - value)
                if piece.promotes_to and not piece.royal
                else 0
            )
            reach = [_square_reach(variant, k, sq) for sq in range(size)]
            movable = [r for sq, r in enumerate(reach) if not t.dead[k][sq]]
            mean_reach = sum(movable) / len(movable) if movable else 0.0
            for sign, color in ((1, SENTE), (-1, GOTE)):
                v = k * sign
                piece_value[v] = value
                capture_hand[v] = self.values.hand[piece.base] if self.drops else 0
                promotion_gain[v] = gain
                self.attack_weight[v] = 0 if piece.royal else round(value * w8.attacker_share)
                row_values = square_value[v]
                for sq in range(size):
                    # mirror gote's squares so that both colours share one geometry
                    own_sq = sq if color == SENTE else size - 1 - sq
                    row_values[sq] = sign * self._square_term(
                        k, value, gain, own_sq, reach[own_sq] - mean_reach
                    )
                hand_value[color][k] = sign * self.values.hand[k]
        self.piece_value: IntArray = int_array(piece_value)
        self.square_value: IntTable = int_table(square_value)
        self.capture_hand: IntArray = int_array(capture_hand)
        self.promotion_gain: IntArray = int_array(promotion_gain)
        self.hand_value: IntTable = int_table(hand_value)
        self.near1 = _near(variant, 1)
        self.near2 = _near(variant, 2)
        # what each kind in a colour's hand is worth (absolute), for the open-squares term
        self.hand_worth = int_array(abs(v) for v in hand_value[SENTE])
        # what each value on those squares counts for a king of each colour: 1 for a friend
        # (next to it), an enemy's attack weight (near it)
        friend = [[0] * (2 * kinds + 1), [0] * (2 * kinds + 1)]
        enemy_weight = [[0] * (2 * kinds + 1), [0] * (2 * kinds + 1)]
        for v in range(-kinds, kinds + 1):
            for color, sign in ((SENTE, 1), (GOTE, -1)):
                friend[color][v] = 1 if v * sign > 0 else 0
                enemy_weight[color][v] = self.attack_weight[v] if v * sign < 0 else 0
        self.friend: IntTable = int_table(friend)
        self.enemy_weight: IntTable = int_table(enemy_weight)
        w, h = variant.files, variant.ranks
        self.span = max(w, h) - 1
        # king-step distance between two squares, and from a square to the nearest edge
        self.distance = int_table(
            [max(abs(a % w - b % w), abs(a // w - b // w)) for b in range(size)]
            for a in range(size)
        )
        self.from_edge = int_array(
            min(sq % w, w - 1 - sq % w, sq // w, h - 1 - sq // w) for sq in range(size)
        )
        strongest = max(
            (board_values[p.kind] for p in variant.pieces if not p.promoted and not p.royal),
            default=0,
        )
        self.mop_up_from = round(MOP_UP_SHARE * strongest)
        self.mop_up_start = round(MOP_UP_START_SHARE * strongest)
        self.mop_up_ramp = max(1, self.mop_up_from - self.mop_up_start)
        self.thin_defence = max(1, round(THIN_DEFENCE_SHARE * strongest))
        self.royal = variant.royal_kind
        # the squares of each piece's rides, one ride after another, and where the next ride
        # starts: the move generators' tables (rules.movetables), row ``v * size + sq``
        self.ride_to: IntTable = t.moves.ride_to
        self.ride_next: IntTable = t.moves.ride_next
        # by signed value: does the piece ride at all (most pieces only step)
        self.ranging: BoolArray = bool_array(any(rides) for rides in t.rides)
        self.cache: dict[int, int] = {}
        # by colour and signed value: a piece of that colour other than its king
        signed = [i if i <= kinds else i - (2 * kinds + 1) for i in range(2 * kinds + 1)]
        self.own_not_royal = bool_table(
            (
                [v > 0 and v != self.royal for v in signed],
                [v < 0 and v != -self.royal for v in signed],
            )
        )

    def _square_term(self, kind: int, value: int, gain: int, sq: int, extra_reach: float) -> int:
        """Material plus square bonuses of a sente ``kind`` on ``sq``."""
        variant = self.variant
        piece = variant.piece(kind)
        row = sq // variant.files  # 0 = the far rank, where sente promotes
        advanced = variant.ranks - 1 - row  # ranks left behind from the own back rank
        weights = self.weights
        if piece.royal:
            return round(-weights.king_advance * advanced * advanced)
        score = value + weights.square_mobility * extra_reach
        if gain:
            outside = row - variant.zone_depth + 1  # ranks still to go before the zone
            outside = max(0, outside)
            pressure = weights.zone_pressure
            if outside < len(pressure):
                score += pressure[outside] * gain
        return round(score)

    # --- the sums the search keeps -------------------------------------------------------

    def material(self, pos: Position) -> int:
        """Material and square terms of ``pos`` from sente's view (what the search updates
        move by move with :meth:`move_delta`)."""
        sv = self.square_value
        total = 0
        for sq, v in enumerate(pos.board):
            if v:
                total += sv[v][sq]
        for color in (SENTE, GOTE):
            hv = self.hand_value[color]
            for kind, n in enumerate(pos.hands[color]):
                total += hv[kind] * n
        return total

    def move_delta(self, pos: Position, move: Move) -> int:
        """How :meth:`material` changes when the side to move plays ``move`` (before it is
        played)."""
        frm, to, promote, drop = move
        sv = self.square_value
        side = pos.side
        if drop:
            v = drop if side == SENTE else -drop
            return sv[v][to] - self.hand_value[side][drop]
        board = pos.board
        v = board[frm]
        nv = pos.tables.promote[v] if promote else v
        row_to = sv[nv]
        delta = row_to[to] - sv[v][frm]
        cap = board[to]
        if cap:
            delta -= sv[cap][to]
            if self.drops:
                gained = self.capture_hand[cap]
                delta += gained if side == SENTE else -gained
        return delta

    # --- leaves --------------------------------------------------------------------------

    def king_safety(self, pos: Position, color: int) -> int:
        """Friends next to ``color``'s king, less the weight of enemies near it (more when
        the enemy holds pieces in hand to drop) and, with drops, less a share of the enemy's
        pieces in hand for each square next to the king that no friend holds."""
        ksq = pos.kings[color]
        if ksq < 0:
            return 0
        board = pos.board
        friend = self.friend[color]
        defenders = 0
        for sq in self.near1[ksq]:
            defenders += friend[board[sq]]
        enemy_weight = self.enemy_weight[color]
        attack = 0
        for sq in self.near2[ksq]:
            attack += enemy_weight[board[sq]]
        exposure = 0
        if self.drops:
            hand = pos.hands[color ^ 1]
            if attack:
                in_hand: int = sum(hand)
                attack = round(attack * (1 + min(MAX_HAND_DANGER, self.hand_danger * in_hand)))
            open_squares: int = len(self.near1[ksq]) - defenders
            if open_squares and self.open_to_drops:
                hand_worth = self.hand_worth
                worth = 0
                for kind, count in enumerate(hand):
                    worth += count * hand_worth[kind]
                exposure = round(open_squares * worth * self.open_to_drops)
        return self.defender * min(defenders, MAX_DEFENDERS) - attack - exposure

    def mop_up(self, pos: Position, strong: int) -> int:
        """The stronger side's pieces near the enemy king, that king near an edge."""
        ksq = pos.kings[strong ^ 1]
        if ksq < 0:
            return 0
        near = self.distance[ksq]
        span = self.span
        mine = self.own_not_royal[strong]
        closeness = 0  # span less the distance, summed over the pieces
        for sq, v in enumerate(pos.board):
            if mine[v]:
                closeness += span - near[sq]
        return MOP_UP_APPROACH * closeness + MOP_UP_EDGE * (span // 2 - self.from_edge[ksq])

    def defence(self, pos: Position, color: int) -> int:
        """What ``color``'s pieces other than its king are worth (their values alone)."""
        value, mine = self.piece_value, self.own_not_royal[color]
        total = 0
        for v in pos.board:
            if mine[v]:
                total += value[v]
        return total

    def ride_reach(self, pos: Position) -> int:
        """Squares sente's ranging pieces reach on the board (empty ones along their rays and
        an enemy piece ending one), less gote's."""
        board = pos.board
        ranging, ride_to, ride_next = self.ranging, self.ride_to, self.ride_next
        size = self.size
        total = 0
        for sq, v in enumerate(board):
            if not ranging[v]:
                continue
            row = v * size + sq
            squares, after = ride_to[row], ride_next[row]
            n = len(squares)
            reach = 0
            i = 0
            while i < n:
                there = board[squares[i]]
                if there:
                    if (there > 0) != (v > 0):
                        reach += 1
                    i = after[i]  # the rest of this ride is blocked
                else:
                    reach += 1
                    i += 1
            total += reach if v > 0 else -reach
        return total

    def evaluate(self, pos: Position, material: int) -> int:
        """The side to move's view of ``pos``, given its :meth:`material` (remembered by the
        position's hash, which stands for the whole position as in the transposition table)."""
        cache = self.cache
        score = cache.get(pos.hash)
        if score is None:
            if len(cache) >= EVALUATION_CACHE:
                cache.clear()
            score = cache[pos.hash] = self._evaluate(pos, material)
        return score

    def _evaluate(self, pos: Position, material: int) -> int:
        score = material + self.king_safety(pos, SENTE) - self.king_safety(pos, GOTE)
        start, ramp = self.mop_up_start, self.mop_up_ramp
        lead, weak = 0, GOTE
        if material > start:
            lead = min(material - start, ramp)
            score += self.mop_up(pos, SENTE) * lead // ramp
        elif material < -start:
            lead, weak = min(-start - material, ramp), SENTE
            score -= self.mop_up(pos, GOTE) * lead // ramp
        if self.ride_mobility:
            reach = self.ride_mobility * self.ride_reach(pos)
            if lead:  # see THIN_DEFENCE_SHARE
                thin = self.thin_defence
                missing = thin - min(self.defence(pos, weak), thin)
                reach *= 1 - lead * missing / (ramp * thin)
            score += round(reach)
        return (score if pos.side == SENTE else -score) + self.tempo

    def full(self, pos: Position) -> int:
        """:meth:`evaluate` computing the material from scratch."""
        return self.evaluate(pos, self.material(pos))
