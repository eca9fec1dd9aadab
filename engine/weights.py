"""The weights of the evaluation's terms (centipawns or shares), by variant.

Defaults are the engine's own; a variant file may set any of them in ``[engine.evaluation]``
(checked by the rules' loader against ``rules.variant.EVALUATION_WEIGHTS``), for example the
weights ``bench/tune_eval.py`` fitted to positions scored by another engine.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from rules import Variant


@dataclass(frozen=True)
class EvalWeights:
    tempo: float = 10  # the side to move is a little better off
    square_mobility: float = 2.0  # per weighted square above the piece's average reach
    # Per square a ranging piece reaches on the real board (empty squares along its rays and
    # the enemy piece that ends one): a ranging piece walled in, or deep in the enemy camp
    # with no way back, counts less.  Off by default; Wa's file sets it.
    ride_mobility: float = 0.0
    king_advance: float = 12  # per rank the king has left its own back rank, squared
    defender: float = 14  # per friendly piece next to the king (up to five)
    attacker_share: float = 1 / 22  # an enemy piece within two squares of a king: its value x
    hand_danger: float = 0.08  # each enemy piece in hand makes the attackers this much worse
    # With drops: per square next to the king that no friend holds (empty, or an enemy's),
    # this share of what the enemy holds in hand (its values in hand): where drops land.
    # Off by default; Standard Shogi's file sets it (measured there only).
    open_to_drops: float = 0.0
    # Promotion-zone pressure: a piece that may promote is worth this share of what promoting
    # adds, by how many ranks it stands outside the zone (0: inside, it may promote next move).
    zone_pressure_0: float = 0.10
    zone_pressure_1: float = 0.04
    zone_pressure_2: float = 0.015

    @property
    def zone_pressure(self) -> tuple[float, float, float]:
        return (self.zone_pressure_0, self.zone_pressure_1, self.zone_pressure_2)


WEIGHT_NAMES = tuple(f.name for f in fields(EvalWeights))


def weights_for(variant: Variant) -> EvalWeights:
    """The default weights with those the variant file sets."""
    return replace(EvalWeights(), **variant.evaluation_weights)
