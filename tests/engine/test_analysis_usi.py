"""Analysis with an external USI engine (``komabot usi`` itself, in its own process), and the
reading of a USI ``score``."""

from __future__ import annotations

import sys

import pytest

from engine.analysis import MATE_SCORE, Budget, BuiltinEvaluator, Judgement, analyse_game
from engine.analysis_usi import UsiEvaluator, parse_score
from engine.usi_client import EngineSpec, UsiEngineError

ENTRY = "import sys; from bot.cli import main; sys.exit(main())"
KOMABOT = (sys.executable, "-c", ENTRY, "usi")
MATE_IN_ONE = "8k/9/8P/9/9/9/9/9/K8 b G2r2b3g4s4n4l17p 1"


def test_a_usi_engine_finds_the_missed_mate_and_names_itself() -> None:
    budget = Budget(nodes=600)
    with UsiEvaluator(EngineSpec(KOMABOT, timeout=30), budget, "shogi") as evaluator:
        analysis = analyse_game("shogi", MATE_IN_ONE, ["9i8h"], evaluator)
        assert evaluator.name == "Komabot (shogi)"
    (review,) = analysis.reviews
    assert review.best == "G*1b" and review.judgement is Judgement.BLUNDER
    assert analysis.engine == "Komabot (shogi)" and analysis.budget == budget
    # the same engine in this process scores the same positions alike
    own = analyse_game("shogi", MATE_IN_ONE, ["9i8h"], BuiltinEvaluator("shogi", budget))
    assert own.scores[0] == analysis.scores[0] == MATE_SCORE - 1


def test_an_engine_that_cannot_start_is_a_clear_error() -> None:
    spec = EngineSpec(("/nonexistent/engine",), timeout=1)
    with (
        UsiEvaluator(spec, Budget(nodes=10), "shogi") as evaluator,
        pytest.raises(UsiEngineError, match="cannot start it"),
    ):
        analyse_game("shogi", "startpos", [], evaluator)


@pytest.mark.parametrize(
    ("info", "score"),
    [
        ("info depth 5 score cp 123 nodes 10 pv 7g7f", 123),
        ("info depth 5 score cp -45 pv 3c3d", -45),
        ("info depth 3 score mate 3 pv G*1b", MATE_SCORE - 3),
        ("info depth 3 score mate -2 pv 9i8h", -MATE_SCORE + 2),
        ("info score mate + pv G*1b", MATE_SCORE - 1),
        ("info score mate - pv 9i8h", -MATE_SCORE + 1),
        ("info depth 3 nodes 10", None),
        ("info depth 3 score cp abc", None),
        ("", None),
    ],
)
def test_usi_scores_are_read_from_the_side_to_move(info: str, score: int | None) -> None:
    assert parse_score(info) == score
