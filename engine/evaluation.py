"""Static evaluation for any variant: material, hands, square terms and king safety.

Scores are centipawns.  Material and square terms live in one table per signed board value
(``square_value[v][sq]``, sente's view: a gote piece counts negative), so the search keeps their
sum up to date by adding :meth:`Evaluator.move_delta` for each move instead of scanning the
board.  King safety (friends next to the king, enemies within two squares of it, enemy pieces
in hand) is counted when a leaf is evaluated, and so are the won-endgame terms of
:mod:`engine.conversion` when one side is far ahead; the score of a leaf is remembered by the
position's hash (a third of the leaves of a search are met again).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from engine.conversion import Conversion
from engine.values import PAWN, PieceValues, compute_values
from rules import GOTE, SENTE, Move, Position, Variant

TEMPO = 10  # the side to move is a little better off
# Promotion-zone pressure: a piece that may promote is worth this share of what promoting
# adds, by how many ranks it stands outside the zone (0: inside, it may promote next move).
ZONE_PRESSURE = (0.10, 0.04, 0.015)
# Without drops nothing comes back into play, and two camps facing each other would shuffle
# until the ply limit unless something urges them on: each rank a piece stands further
# forward (up to the promotion zone) is worth SPACE, a pawn's PAWN_SPACE (a piece worth at
# most PAWN_LIKE pawns).  With drops, pushing pawns only opens the camp to drops: off.
SPACE = 2
PAWN_SPACE = 6
PAWN_LIKE = 1.5
SQUARE_MOBILITY = 2.0  # centipawns per weighted square above the piece's average reach
KING_ADVANCE = 12  # per rank the king has left its own back rank, squared growth
DEFENDER = 14  # per friendly piece next to the king, up to MAX_DEFENDERS
MAX_DEFENDERS = 5
ATTACKER_SHARE = 1 / 22  # an enemy piece within two squares of a king weighs its value / 22
# Without drops, each enemy piece near a king also adds 1 << ATTACKER_BITS to the sum of
# weights, so that one C-level sum counts them too; the weights are multiplied by
# ATTACK_GROWTH (percent) by that count: a lone attacker is half as dangerous as its weight,
# several together more than theirs.  (With drops a lone attacker is not harmless: a dropped
# piece joins it at once; measured there, the count did not win: off.)
ATTACKER_BITS = 12
ATTACK_GROWTH = (0, 50, 100, 140, 175, 200)
HAND_DANGER = 0.08  # each enemy piece in hand makes the attackers this much more dangerous
MAX_HAND_DANGER = 1.0
EVALUATION_CACHE = 1 << 15  # scores remembered (by position hash) before starting afresh


def _near(variant: Variant, radius: int) -> tuple[tuple[int, ...], ...]:
    """For each square, the other squares at most ``radius`` king steps away."""
    w, h = variant.files, variant.ranks
    out = []
    for sq in range(w * h):
        col, row = sq % w, sq // w
        out.append(
            tuple(
                r * w + c
                for r in range(max(0, row - radius), min(h, row + radius + 1))
                for c in range(max(0, col - radius), min(w, col + radius + 1))
                if (r, c) != (row, col)
            )
        )
    return tuple(out)


def _values_at(squares: tuple[int, ...]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function giving the board's values on ``squares`` (a tuple even of one or none)."""
    if len(squares) >= 2:
        return itemgetter(*squares)
    return lambda board: tuple(board[sq] for sq in squares)


def _square_reach(variant: Variant, kind: int, sq: int) -> int:
    """Squares a sente ``kind`` reaches from ``sq`` on an empty board."""
    t = variant.tables
    return len(t.leaps[kind][sq]) + sum(len(ray) for ray in t.rides[kind][sq])


class Evaluator:
    """Evaluation tables of one variant."""

    def __init__(self, variant: Variant, values: PieceValues | None = None) -> None:
        self.variant = variant
        self.values = values if values is not None else compute_values(variant)
        t = variant.tables
        self.size = size = t.size
        kinds = len(variant.pieces)
        self.drops = variant.drops.enabled
        board_values = self.values.board
        # absolute value of a piece by signed board value, for ordering and pruning
        self.piece_value: list[int] = [0] * (2 * kinds + 1)
        # sente's view of one piece of each signed value on each square
        self.square_value: list[list[int]] = [[0] * size for _ in range(2 * kinds + 1)]
        # sente's view of one piece of each kind in each colour's hand
        self.hand_value: list[list[int]] = [[0] * (kinds + 1), [0] * (kinds + 1)]
        # what a capture of a signed value puts in the captor's hand (absolute)
        self.capture_hand: list[int] = [0] * (2 * kinds + 1)
        # promotion gain by signed value (absolute centipawns, 0 when it cannot promote)
        self.promotion_gain: list[int] = [0] * (2 * kinds + 1)
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
                self.piece_value[v] = value
                self.capture_hand[v] = self.values.hand[piece.base] if self.drops else 0
                self.promotion_gain[v] = gain
                self.attack_weight[v] = 0 if piece.royal else round(value * ATTACKER_SHARE)
                row_values = self.square_value[v]
                for sq in range(size):
                    # mirror gote's squares so that both colours share one geometry
                    own_sq = sq if color == SENTE else size - 1 - sq
                    row_values[sq] = sign * self._square_term(
                        k, value, gain, own_sq, reach[own_sq] - mean_reach
                    )
                self.hand_value[color][k] = sign * self.values.hand[k]
        self.near1 = _near(variant, 1)
        self.near2 = _near(variant, 2)
        # getters of the values on those squares, and what each value counts for a king of
        # each colour: 1 for a friend (next to it), an enemy's attack weight (near it)
        self.ring1 = [_values_at(near) for near in self.near1]
        self.ring2 = [_values_at(near) for near in self.near2]
        self.friend: list[list[int]] = [[0] * (2 * kinds + 1), [0] * (2 * kinds + 1)]
        self.enemy_weight: list[list[int]] = [[0] * (2 * kinds + 1), [0] * (2 * kinds + 1)]
        for v in range(-kinds, kinds + 1):
            for color, sign in ((SENTE, 1), (GOTE, -1)):
                self.friend[color][v] = 1 if v * sign > 0 else 0
                if v * sign < 0 and self.attack_weight[v]:
                    counted = 0 if self.drops else 1 << ATTACKER_BITS
                    self.enemy_weight[color][v] = self.attack_weight[v] + counted
        strongest = max(
            (board_values[p.kind] for p in variant.pieces if not p.promoted and not p.royal),
            default=0,
        )
        # the won-endgame terms (engine/conversion.py)
        self.conversion = Conversion(variant, self.piece_value, strongest)
        self.cache: dict[int, int] = {}

    def _square_term(self, kind: int, value: int, gain: int, sq: int, extra_reach: float) -> int:
        """Material plus square bonuses of a sente ``kind`` on ``sq``."""
        variant = self.variant
        piece = variant.piece(kind)
        row = sq // variant.files  # 0 = the far rank, where sente promotes
        advanced = variant.ranks - 1 - row  # ranks left behind from the own back rank
        if piece.royal:
            return -KING_ADVANCE * advanced * advanced
        score = value + SQUARE_MOBILITY * extra_reach
        if not self.drops:
            ranks = min(advanced, variant.ranks - variant.zone_depth)
            score += (PAWN_SPACE if value <= PAWN_LIKE * PAWN else SPACE) * ranks
        if gain:
            outside = row - variant.zone_depth + 1  # ranks still to go before the zone
            outside = max(0, outside)
            if outside < len(ZONE_PRESSURE):
                score += ZONE_PRESSURE[outside] * gain
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
        """Friends next to ``color``'s king, less the weight of enemies near it (without drops
        growing with how many there are; with drops more when the enemy holds pieces in hand)."""
        ksq = pos.kings[color]
        if ksq < 0:
            return 0
        board = pos.board
        # the pieces around the king, read in one C-level call per ring
        defenders = sum(map(self.friend[color].__getitem__, self.ring1[ksq](board)))
        attack = sum(map(self.enemy_weight[color].__getitem__, self.ring2[ksq](board)))
        if attack and not self.drops:
            growth = ATTACK_GROWTH[min(attack >> ATTACKER_BITS, len(ATTACK_GROWTH) - 1)]
            attack = (attack & ((1 << ATTACKER_BITS) - 1)) * growth // 100
        if attack and self.drops:
            in_hand = sum(pos.hands[color ^ 1])
            attack = round(attack * (1 + min(MAX_HAND_DANGER, HAND_DANGER * in_hand)))
        return DEFENDER * min(defenders, MAX_DEFENDERS) - attack

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
        score += self.conversion.bonus(material, pos)
        return (score if pos.side == SENTE else -score) + TEMPO

    def full(self, pos: Position) -> int:
        """:meth:`evaluate` computing the material from scratch."""
        return self.evaluate(pos, self.material(pos))
