"""Move ordering: the hash move, captures that do not lose material by the static exchange
(most valuable victim, least valuable attacker), promotions, two killer moves a ply, the
captures that lose material, then quiet moves and drops by their history."""

from __future__ import annotations

from typing import Final

from engine.evaluation import Evaluator
from engine.exchange import StaticExchange
from rules import SENTE, Move, Position, Variant
from rules.arrays import IntArray, int_array

HASH_MOVE: Final = 100_000_000
CAPTURE: Final = 50_000_000
PROMOTION: Final = 40_000_000
KILLER: Final = 30_000_000
LOSING_CAPTURE: Final = 10_000_000  # above every quiet move (history stays below HISTORY_CAP)
DECLINED_PROMOTION: Final = -20_000_000  # not promoting where it would gain: rarely right
HISTORY_CAP: Final = 1_000_000


class MoveOrdering:
    """Killers and history of one searcher, and the ordering keys they give."""

    def __init__(
        self, variant: Variant, evaluator: Evaluator, exchange: StaticExchange, max_ply: int
    ) -> None:
        t = variant.tables
        self.exchange = exchange
        self.size = t.size
        self.promote = t.promote
        self.zone = t.zone
        self.value = evaluator.piece_value
        self.gain = evaluator.promotion_gain
        self.capture_hand = evaluator.capture_hand
        # by signed value of the moving (or dropped) piece and target square
        self.history: IntArray = int_array([0] * ((2 * len(variant.pieces) + 1) * t.size))
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(max_ply + 2)]

    def clear(self) -> None:
        self.history = int_array([0] * len(self.history))
        self.clear_killers()

    def clear_killers(self) -> None:
        for pair in self.killers:
            pair[0] = pair[1] = None

    def age(self) -> None:
        """Before a new search: older history counts less."""
        self.history = int_array(h // 4 for h in self.history)
        self.clear_killers()

    def keys(self, pos: Position, moves: list[Move], hash_move: Move | None, ply: int) -> list[int]:
        """A sort key for each move (larger first)."""
        board = pos.board
        value, gain_of, hand_of = self.value, self.gain, self.capture_hand
        history = self.history
        size = self.size
        promote_t = self.promote
        zone = self.zone[pos.side]
        sign = 1 if pos.side == SENTE else -1
        # the hash move and the killers as plain numbers, compared field by field (a square
        # of -2 matches no move): no comparison of tuples for every move
        h_to = k1_to = k2_to = -2
        h_frm = h_drop = k1_frm = k1_drop = k2_frm = k2_drop = 0
        h_promote = k1_promote = k2_promote = False
        if hash_move is not None:
            h_frm, h_to, h_promote, h_drop = hash_move
        k1, k2 = self.killers[ply]
        if k1 is not None:
            k1_frm, k1_to, k1_promote, k1_drop = k1
        if k2 is not None:
            k2_frm, k2_to, k2_promote, k2_drop = k2
        exchange = self.exchange
        worth = exchange.worth
        keys = []
        for move in moves:
            frm, to, promote, drop = move
            if to == h_to and frm == h_frm and drop == h_drop and promote == h_promote:
                keys.append(HASH_MOVE)
                continue
            killer = 0
            if to == k1_to and frm == k1_frm and drop == k1_drop and promote == k1_promote:
                killer = KILLER + 1
            elif to == k2_to and frm == k2_frm and drop == k2_drop and promote == k2_promote:
                killer = KILLER
            if drop:
                keys.append(killer if killer else history[drop * sign * size + to])
            else:
                v = board[frm]
                victim = board[to]
                if victim:
                    won = value[victim] + hand_of[victim] + (gain_of[v] if promote else 0)
                    if worth[v] > worth[victim] and exchange.value(pos, move) < 0:
                        keys.append(LOSING_CAPTURE + won * 64 - value[v] // 16)
                    else:
                        keys.append(CAPTURE + won * 64 - value[v] // 16)
                elif promote:
                    keys.append(PROMOTION + gain_of[v])
                elif killer:
                    keys.append(killer)
                elif promote_t[v] and gain_of[v] and (zone[frm] or zone[to]):
                    keys.append(history[v * size + to] + DECLINED_PROMOTION)
                else:
                    keys.append(history[v * size + to])
        return keys

    def reward(self, pos: Position, move: Move, depth: int, ply: int) -> None:
        """A quiet move of the side to move caused a cut-off: a killer, and history."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        frm, to, _promote, drop = move
        v = (drop if pos.side == SENTE else -drop) if drop else pos.board[frm]
        index = v * self.size + to
        self.history[index] += depth * depth
        if self.history[index] > HISTORY_CAP:
            self.history = int_array(h // 2 for h in self.history)
