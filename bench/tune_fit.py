"""Fitting the evaluation's weights to labelled positions (Texel's method).

The parameters are what ``engine.evaluation.Evaluator`` is built from: the value of each
piece on the board (promoted ones included) and in hand, and the weights of
``engine.weights.EvalWeights``.  A position's predicted chance is ``sigmoid(score / K)`` of
the engine's own static score (side to move's view); its target is a mix of the game's result
and the teacher's score turned into a chance the same way (the teacher's scale fitted to the
results).  The loss is the mean squared difference.  ``K`` is fitted first to the current
weights and then kept, so the tuned scores stay on the engine's scale; then coordinate
descent moves one parameter at a time by a step while that lowers the loss, halving the steps
when no parameter moves.  Everything is deterministic: the same data give the same weights.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

from bench.tune_positions import Sample
from engine.evaluation import Evaluator
from engine.values import HAND_BONUS, PieceValues, compute_values
from engine.weights import EvalWeights, weights_for
from rules import Position, Variant
from rules.variant import EVALUATION_WEIGHTS

VALUE_STEP = 16.0  # the first step of a piece value (centipawns)
MIN_VALUE = 50  # a piece is worth at least half a pawn (a fit with few captures of it may
# otherwise take it to nothing: Wa's Strutting Crow went to 1)
WEIGHT_STEP = 0.25  # the first step of a weight, as a share of its value
MIN_STEP_SHARE = 1 / 16  # the steps halve down to this share of the first


@dataclass(frozen=True)
class Parameter:
    key: str  # "piece_values.P", "hand_values.P" or "evaluation.tempo"
    low: float
    high: float
    step: float


def parameters(variant: Variant, start: dict[str, float]) -> list[Parameter]:
    out = []
    for key, value in start.items():
        table, name = key.split(".", 1)
        if table == "evaluation":
            low, high = EVALUATION_WEIGHTS[name]
            out.append(Parameter(key, low, high, max(abs(value) * WEIGHT_STEP, high / 1000)))
        else:
            out.append(Parameter(key, MIN_VALUE, 100_000, VALUE_STEP))
    return out


def current(variant: Variant, hand: bool = False) -> dict[str, float]:
    """The variant's parameters as the engine uses them now, by key; the values in hand only
    with ``hand`` (else they follow the board values, as the engine derives them)."""
    values = compute_values(variant)
    out: dict[str, float] = {}
    for piece in variant.pieces:
        if piece.royal:
            continue
        out[f"piece_values.{piece.letter}"] = values.board[piece.kind]
        if hand and variant.drops.enabled and not piece.promoted:
            out[f"hand_values.{piece.letter}"] = values.hand[piece.kind]
    weights = weights_for(variant)
    for f in fields(EvalWeights):
        out[f"evaluation.{f.name}"] = getattr(weights, f.name)
    return out


def evaluator(variant: Variant, params: dict[str, float]) -> Evaluator:
    """The evaluator with these parameters."""
    base = compute_values(variant)
    board, hand = list(base.board), list(base.hand)
    for piece in variant.pieces:
        key = f"piece_values.{piece.letter}"
        if key in params:
            board[piece.kind] = round(params[key])
        key = f"hand_values.{piece.letter}"
        if key in params:
            hand[piece.kind] = round(params[key])
        elif hand[piece.kind]:  # a drop variant's unpromoted piece: worth a little more in hand
            hand[piece.kind] = round(board[piece.kind] * (1 + HAND_BONUS))
    weights = EvalWeights(**{f.name: params[f"evaluation.{f.name}"] for f in fields(EvalWeights)})
    return Evaluator(variant, PieceValues(tuple(board), tuple(hand), base.derived), weights)


def sigmoid(x: float) -> float:
    if x < -500:
        return 0.0
    return 1 / (1 + math.exp(-x))


def golden_min(f: Callable[[float], float], low: float, high: float, steps: int = 40) -> float:
    """The minimum of a unimodal ``f`` on [low, high]."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
    return (a + b) / 2


def teacher_scale(samples: Sequence[Sample]) -> float:
    """The ``K`` for which ``sigmoid(teacher_cp / K)`` best predicts the games' results."""

    def loss(k: float) -> float:
        return sum((sigmoid(s.teacher_cp / k) - s.result) ** 2 for s in samples) / len(samples)

    return golden_min(loss, 20, 5000)


@dataclass
class Problem:
    """The positions and their targets."""

    variant: Variant
    positions: list[Position]
    targets: list[float]

    @classmethod
    def build(
        cls, variant: Variant, samples: Sequence[Sample], result_share: float, scale: float
    ) -> Problem:
        positions = [Position.from_sfen(variant, s.sfen) for s in samples]
        targets = [
            result_share * s.result + (1 - result_share) * sigmoid(s.teacher_cp / scale)
            for s in samples
        ]
        return cls(variant, positions, targets)

    def scores(self, params: dict[str, float]) -> list[int]:
        ev = evaluator(self.variant, params)
        return [ev.full(pos) for pos in self.positions]

    def loss(self, params: dict[str, float], k: float) -> float:
        pairs = zip(self.scores(params), self.targets, strict=True)
        return sum((sigmoid(s / k) - t) ** 2 for s, t in pairs) / len(self.targets)

    def fit_scale(self, params: dict[str, float]) -> float:
        scores = self.scores(params)

        def loss(k: float) -> float:
            pairs = zip(scores, self.targets, strict=True)
            return sum((sigmoid(s / k) - t) ** 2 for s, t in pairs) / len(scores)

        return golden_min(loss, 20, 5000)


def descend(
    problem: Problem,
    start: dict[str, float],
    k: float,
    passes: int,
    report: Callable[[str], None] = lambda _: None,
    prior: float = 0.0,
    keep: Sequence[str] = (),
) -> dict[str, float]:
    """Coordinate descent from ``start``: at most ``passes`` passes over the parameters.

    ``prior`` adds to the loss that much times the mean square of each parameter's distance
    from ``start`` in first steps (a pull towards the engine's values: a few thousand
    positions do not tell every weight apart).  The parameters named in ``keep`` stay as
    they are."""
    params = dict(start)
    specs = [p for p in parameters(problem.variant, start) if p.key not in keep]
    first = {p.key: p.step for p in specs}
    steps = dict(first)

    def penalty(trial: dict[str, float]) -> float:
        far = sum(((trial[key] - start[key]) / first[key]) ** 2 for key in first)
        return prior * far / len(first)

    def total(trial: dict[str, float]) -> float:
        return problem.loss(trial, k) + (penalty(trial) if prior else 0.0)

    best = total(params)
    report(f"start: loss {best:.6f}")
    for n in range(passes):
        moved = 0
        for spec in specs:
            for direction in (1, -1):
                improved = False
                while True:
                    trial = dict(params)
                    value = params[spec.key] + direction * steps[spec.key]
                    trial[spec.key] = min(spec.high, max(spec.low, value))
                    if trial[spec.key] == params[spec.key]:
                        break
                    loss = total(trial)
                    if loss >= best:
                        break
                    params, best, improved = trial, loss, True
                    moved += 1
                if improved:
                    break
        report(f"pass {n + 1}: loss {best:.6f}, {moved} steps")
        if not moved:
            if all(steps[s.key] <= s.step * MIN_STEP_SHARE for s in specs):
                break
            steps = {key: step / 2 for key, step in steps.items()}
    return params


def toml_sections(variant: Variant, params: dict[str, float]) -> str:
    """The parameters as the ``[engine.*]`` tables of a variant file."""
    lines = []
    for table in ("piece_values", "hand_values", "evaluation"):
        keys = [k for k in params if k.startswith(f"{table}.")]
        if not keys:
            continue
        lines.append(f"[engine.{table}]")
        for key in keys:
            name = key.split(".", 1)[1]
            quoted = f'"{name}"' if not name.isidentifier() else name
            value = params[key]
            short = f"{value:.6g}"  # a weight exactly as fitted, in as few digits as it takes
            exact = short if float(short) == value else repr(value)
            text = str(round(value)) if table != "evaluation" else exact
            lines.append(f"{quoted} = {text}")
        lines.append("")
    return "\n".join(lines)
