"""After the game: every position evaluated, every move judged by the win chance it lost.

:func:`analyse_game` takes a game (variant, start SFEN, USI moves) and an :class:`Evaluator`
(the built-in engine, :class:`BuiltinEvaluator`, or an external USI engine,
``engine.analysis_usi.UsiEvaluator``) and evaluates each of the game's ``moves + 1`` positions
once, at the evaluator's fixed budget: the cost is linear in the game's length.  It is
synchronous and keeps no state of its own; the caller chooses the thread or process.

Definitions (docs/players.md says them in players' words):

- **Score**: centipawns from sente's view (positive: sente is better); a mate is
  ``±(MATE_SCORE - plies)``, so a nearer mate is larger.  A position whose side to move has no
  legal move has lost: ``-MATE_SCORE`` for that side.
- **Win chance** of a side: ``1 / (1 + exp(-score / WIN_SCALE))`` with the score from that
  side's view; ``WIN_SCALE`` is 600 centipawns (the scale shogi engines' evaluations are
  usually fitted to: +600 is about a 73% chance).  A mate is a 100% (or 0%) chance.
- **Loss** of a move: the mover's win chance before it (the engine's best play) less its win
  chance after it, in percentage points, never below 0; 0 when the move played is the engine's
  best move.
- **Classification** by loss: ``INACCURACY`` from 10 points, ``MISTAKE`` from 20,
  ``BLUNDER`` from 30 (see ``THRESHOLDS``).
- **Accuracy** of a player: 100 less the average loss of that player's moves (0 to 100; 100
  when every move kept the win chance the engine saw), None for a player without a move.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine.api import Engine, position_after
from engine.levels import HIGHEST
from engine.search import Limits
from rules import SENTE, Position, Variant, load_variant

MATE_SCORE = 100_000
"""A mate's score before the plies to it are taken off (``engine.api.Result.score`` too)."""
WIN_SCALE = 600.0
"""Centipawns per unit of the logistic win-chance curve."""
WORST_SHOWN = 3
BUILTIN_NAME = "Komabot"
"""The built-in engine's name in an analysis (:attr:`GameAnalysis.engine`)."""


class Judgement(Enum):
    """A move's class, from its loss of win chance."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def severity(self) -> int:
        """0 good, 1 inaccuracy, 2 mistake, 3 blunder (``render.evaluation_graph.Mark``'s)."""
        return list(Judgement).index(self)


THRESHOLDS = (
    (30.0, Judgement.BLUNDER),
    (20.0, Judgement.MISTAKE),
    (10.0, Judgement.INACCURACY),
)
"""Percentage points of win chance lost from which a move is each class, largest first."""


def win_chance(score: int) -> float:
    """The chance (0 to 1) that the side whose view ``score`` is from wins."""
    if score >= MATE_SCORE - 10_000:
        return 1.0
    if score <= -(MATE_SCORE - 10_000):
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / WIN_SCALE))


def judge(loss: float) -> Judgement:
    """The class of a move that lost ``loss`` percentage points of win chance."""
    for threshold, judgement in THRESHOLDS:
        if loss >= threshold:
            return judgement
    return Judgement.GOOD


def mate_in_plies(score: int) -> int | None:
    """Plies to the mate a score stands for (positive: sente mates), None for centipawns."""
    if abs(score) < MATE_SCORE - 10_000:
        return None
    return MATE_SCORE - score if score > 0 else -(MATE_SCORE + score)


@dataclass(frozen=True)
class Budget:
    """What each position gets: milliseconds, or nodes (repeatable: the same nodes give the
    same answers in every run)."""

    movetime_ms: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if (self.movetime_ms is None) == (self.nodes is None):
            raise ValueError("a budget is either milliseconds or nodes per position")
        value = self.movetime_ms if self.movetime_ms is not None else self.nodes
        if value is None or value < 1:
            raise ValueError("a budget per position must be at least 1")

    @property
    def key(self) -> str:
        """``ms:300`` / ``nodes:20000``: the budget as an analysis kept in a database names it."""
        if self.movetime_ms is not None:
            return f"ms:{self.movetime_ms}"
        return f"nodes:{self.nodes}"

    def describe(self) -> str:
        """``300 ms per position`` / ``20000 nodes per position``."""
        if self.movetime_ms is not None:
            return f"{self.movetime_ms} ms per position"
        return f"{self.nodes} nodes per position"


@dataclass(frozen=True)
class Verdict:
    """An evaluator's answer for one position: its best move (USI; None when the side to
    move has none) and the score from the side to move's view (mates as ``MATE_SCORE``)."""

    best_move: str | None
    score: int


class Evaluator(Protocol):
    """Something that evaluates positions at a fixed budget."""

    @property
    def name(self) -> str:
        """The engine's name, for the reply (``Komabot``, what a USI engine calls itself)."""
        ...

    @property
    def budget(self) -> Budget: ...

    def new_game(self) -> None:
        """Forget what earlier games taught (called before each game's first position)."""
        ...

    def evaluate(self, position: Position, sfen: str, moves: Sequence[str]) -> Verdict:
        """The verdict on ``position`` (not to be changed), which is ``moves`` from ``sfen``
        (for an engine that wants the game's history)."""
        ...


class BuiltinEvaluator:
    """Komabot's own engine, in this process, at its highest level; one table for the game,
    cleared by :meth:`new_game` (which :func:`analyse_game` calls)."""

    def __init__(self, variant: Variant | str, budget: Budget, hash_mb: int = 16) -> None:
        self._engine = Engine(variant, hash_mb)
        self._budget = budget

    @property
    def name(self) -> str:
        return BUILTIN_NAME

    @property
    def budget(self) -> Budget:
        return self._budget

    def new_game(self) -> None:
        self._engine.new_game()

    def evaluate(self, position: Position, sfen: str, moves: Sequence[str]) -> Verdict:
        limits = Limits(movetime_ms=self._budget.movetime_ms, nodes=self._budget.nodes)
        result = self._engine.think(position, level=HIGHEST, limits=limits, seed=0)
        return Verdict(result.best_move, result.score)


@dataclass(frozen=True)
class MoveReview:
    """One move of the game, judged.

    ``ply``: 1 for the game's first move (the move number shown everywhere); ``side``: SENTE
    or GOTE; ``before`` / ``after``: sente's scores before and after it; ``loss``: percentage
    points of the mover's win chance lost; ``best``: the engine's move in its place."""

    ply: int
    side: int
    played: str
    best: str | None
    before: int
    after: int
    loss: float
    judgement: Judgement


@dataclass(frozen=True)
class PlayerSummary:
    """One side's figures: accuracy (None without a move), counts, worst moves (up to
    ``WORST_SHOWN``, largest loss first, only moves that lost something)."""

    side: int
    moves: int
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int
    worst: tuple[MoveReview, ...]


@dataclass(frozen=True)
class GameAnalysis:
    """The whole analysis: ``scores[i]`` is sente's score after ``i`` moves (``scores[0]``
    the start), ``best_moves[i]`` the engine's move there; ``reviews[i]`` judges move
    ``i + 1``; ``players[SENTE]``, ``players[GOTE]``."""

    variant: str
    start_sfen: str
    moves: tuple[str, ...]
    engine: str
    budget: Budget
    scores: tuple[int, ...]
    best_moves: tuple[str | None, ...]
    reviews: tuple[MoveReview, ...]
    players: tuple[PlayerSummary, PlayerSummary]


ProgressCallback = Callable[[int, int], None]
"""Called with (positions done, positions in all) after each position, and once with (0, n)
before the first; a game of ``m`` moves has ``m + 1`` positions."""


def analyse_game(
    variant_id: str,
    sfen: str,
    moves: Sequence[str],
    evaluator: Evaluator,
    *,
    on_progress: ProgressCallback | None = None,
) -> GameAnalysis:
    """Evaluate every position of the game and judge every move (see the module notes).

    Raises RulesError subclasses for a bad variant, SFEN or move (before any evaluation)."""
    variant = load_variant(variant_id)
    moves = tuple(moves)
    position_after(variant, sfen, moves)  # every move checked before the first search
    pos = Position.from_sfen(variant, sfen)
    side0 = pos.side
    evaluator.new_game()
    total = len(moves) + 1
    if on_progress is not None:
        on_progress(0, total)
    scores: list[int] = []
    best_moves: list[str | None] = []
    for ply in range(total):
        if ply:
            pos.push_usi(moves[ply - 1])
        verdict = _verdict(pos, sfen, moves[:ply], evaluator)
        scores.append(verdict.score if pos.side == SENTE else -verdict.score)
        best_moves.append(verdict.best_move)
        if on_progress is not None:
            on_progress(ply + 1, total)
    return judge_game(
        variant.id, sfen, moves, evaluator.name, evaluator.budget, scores, best_moves, side0
    )


def judge_game(
    variant_id: str,
    sfen: str,
    moves: Sequence[str],
    engine: str,
    budget: Budget,
    scores: Sequence[int],
    best_moves: Sequence[str | None],
    first_side: int | None = None,
) -> GameAnalysis:
    """The analysis from its evaluations (``scores`` and ``best_moves`` of the game's
    ``len(moves) + 1`` positions, as :func:`analyse_game` finds them and a database keeps
    them): every move judged, the players summed up.  ``first_side``: the side to move at the
    start (read from ``sfen`` when not given).  ValueError when the lengths do not match."""
    moves = tuple(moves)
    if not len(scores) == len(best_moves) == len(moves) + 1:
        raise ValueError(f"{len(moves)} moves need {len(moves) + 1} scores and best moves")
    if first_side is None:
        first_side = Position.from_sfen(load_variant(variant_id), sfen).side
    reviews = tuple(
        _review(ply, first_side if ply % 2 else first_side ^ 1, moves, scores, best_moves)
        for ply in range(1, len(moves) + 1)
    )
    players = (_summary(SENTE, reviews), _summary(SENTE ^ 1, reviews))
    return GameAnalysis(
        variant=variant_id,
        start_sfen=sfen,
        moves=moves,
        engine=engine,
        budget=budget,
        scores=tuple(scores),
        best_moves=tuple(best_moves),
        reviews=reviews,
        players=players,
    )


_KEPT: dict[str, BuiltinEvaluator] = {}  # in a worker process: the game it evaluates now


def evaluate_position(
    variant_id: str,
    sfen: str,
    moves: Sequence[str],
    *,
    game: str,
    movetime_ms: int | None = None,
    nodes: int | None = None,
) -> Verdict:
    """One position of an analysis, in an engine worker process: the built-in engine's
    verdict on the position after ``moves`` from ``sfen`` at the budget given.

    The worker keeps one :class:`BuiltinEvaluator` for the analysis named ``game`` (a new
    name starts a new table), so the positions of one game evaluated in order by one worker
    are judged as :func:`analyse_game` judges them in one process.  Picklable in and out."""
    evaluator = _KEPT.get(game)
    budget = Budget(movetime_ms=movetime_ms, nodes=nodes)
    if evaluator is None or evaluator.budget != budget:
        _KEPT.clear()
        evaluator = _KEPT[game] = BuiltinEvaluator(variant_id, budget)
        evaluator.new_game()
    position = position_after(load_variant(variant_id), sfen, moves)
    return _verdict(position, sfen, moves, evaluator)


def _verdict(pos: Position, sfen: str, moves: Sequence[str], evaluator: Evaluator) -> Verdict:
    if not pos.legal_moves():
        return Verdict(None, -MATE_SCORE)  # no legal move: the side to move has lost
    return evaluator.evaluate(pos, sfen, moves)


def _review(
    ply: int,
    side: int,
    moves: Sequence[str],
    scores: Sequence[int],
    best_moves: Sequence[str | None],
) -> MoveReview:
    before, after = scores[ply - 1], scores[ply]
    sign = 1 if side == SENTE else -1
    played, best = moves[ply - 1], best_moves[ply - 1]
    if played == best:
        loss = 0.0
    else:
        loss = max(0.0, 100.0 * (win_chance(sign * before) - win_chance(sign * after)))
    return MoveReview(ply, side, played, best, before, after, loss, judge(loss))


def _summary(side: int, reviews: Sequence[MoveReview]) -> PlayerSummary:
    own = [r for r in reviews if r.side == side]
    accuracy = 100.0 - sum(r.loss for r in own) / len(own) if own else None
    worst = sorted((r for r in own if r.loss > 0), key=lambda r: (-r.loss, r.ply))
    return PlayerSummary(
        side=side,
        moves=len(own),
        accuracy=accuracy,
        inaccuracies=sum(r.judgement is Judgement.INACCURACY for r in own),
        mistakes=sum(r.judgement is Judgement.MISTAKE for r in own),
        blunders=sum(r.judgement is Judgement.BLUNDER for r in own),
        worst=tuple(worst[:WORST_SHOWN]),
    )
