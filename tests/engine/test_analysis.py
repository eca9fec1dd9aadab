"""Game analysis: known blunders are found and classed, with the right better move; figures
stay in range; node budgets make it repeatable; progress is reported position by position."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.analysis import (
    MATE_SCORE,
    Budget,
    BuiltinEvaluator,
    Judgement,
    Verdict,
    analyse_game,
    judge,
    win_chance,
)
from rules import GOTE, SENTE, IllegalMoveError, Position

# Sente to move can mate at once with G*1b (gote's king on 1a, sente's pawn on 1c guarding
# the drop); gote holds everything else, so any other move loses.
MATE_IN_ONE = "8k/9/8P/9/9/9/9/9/K8 b G2r2b3g4s4n4l17p 1"
# A pawn exchange on file 2 and on file 8, then sente's rook steps to 3d, where gote's 3c
# pawn takes it for nothing.
HANGING_ROOK = [
    "2g2f",
    "8c8d",
    "2f2e",
    "8d8e",
    "2e2d",
    "2c2d",
    "2h2d",
    "8e8f",
    "8g8f",
    "8b8f",
    "2d3d",
    "3c3d",
]
NODES = Budget(nodes=600)


def test_missed_mate_in_one_is_a_blunder_and_the_mate_is_the_better_move() -> None:
    evaluator = BuiltinEvaluator("shogi", NODES)
    analysis = analyse_game("shogi", MATE_IN_ONE, ["9i8h"], evaluator)
    (review,) = analysis.reviews
    assert review.judgement is Judgement.BLUNDER
    assert review.best == "G*1b"
    assert review.before == MATE_SCORE - 1  # sente mates in one ply
    assert review.after < 0  # then gote, with everything in hand, is winning
    assert analysis.players[SENTE].blunders == 1
    assert analysis.players[SENTE].worst == (review,)
    assert analysis.players[GOTE].accuracy is None  # gote made no move


def test_playing_the_mate_loses_nothing_and_ends_with_the_mated_side_lost() -> None:
    analysis = analyse_game("shogi", MATE_IN_ONE, ["G*1b"], BuiltinEvaluator("shogi", NODES))
    (review,) = analysis.reviews
    assert review.judgement is Judgement.GOOD and review.loss == 0
    assert analysis.scores[-1] == MATE_SCORE  # gote to move has no legal move
    assert analysis.best_moves[-1] is None
    assert analysis.players[SENTE].accuracy == 100.0


def test_hanging_rook_is_a_blunder_and_the_better_move_keeps_the_rook() -> None:
    analysis = analyse_game("shogi", "startpos", HANGING_ROOK, BuiltinEvaluator("shogi", NODES))
    blunder = analysis.reviews[10]
    assert (blunder.ply, blunder.side, blunder.played) == (11, SENTE, "2d3d")
    assert blunder.judgement is Judgement.BLUNDER
    assert blunder.best is not None and blunder.best != "2d3d"
    assert analysis.scores[12] < -500  # the rook is gone
    sente = analysis.players[SENTE]
    assert sente.worst[0] == blunder
    assert sente.blunders >= 1
    for player in analysis.players:
        assert player.accuracy is not None and 0 <= player.accuracy <= 100
        assert player.moves == 6
        assert len(player.worst) <= 3
        assert list(player.worst) == sorted(player.worst, key=lambda r: -r.loss)
    assert len(analysis.scores) == len(HANGING_ROOK) + 1
    assert analysis.engine == "Komabot" and analysis.budget == NODES


def test_node_budgets_give_the_same_analysis_every_time() -> None:
    first = analyse_game("shogi", "startpos", HANGING_ROOK, BuiltinEvaluator("shogi", NODES))
    again = analyse_game("shogi", "startpos", HANGING_ROOK, BuiltinEvaluator("shogi", NODES))
    assert first == again


def test_progress_counts_every_position() -> None:
    seen: list[tuple[int, int]] = []
    analyse_game(
        "shogi",
        "startpos",
        HANGING_ROOK[:3],
        BuiltinEvaluator("shogi", NODES),
        on_progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_wa_shogi_is_analysed_too() -> None:
    analysis = analyse_game(
        "wa", "startpos", [], BuiltinEvaluator("wa", Budget(nodes=300)), on_progress=None
    )
    assert len(analysis.scores) == 1 and analysis.best_moves[0] is not None
    assert analysis.players[SENTE].accuracy is None


class Refusing:
    """An evaluator that fails the test if it is asked anything."""

    name = "none"
    budget = NODES

    def new_game(self) -> None:
        pass

    def evaluate(self, position: Position, sfen: str, moves: Sequence[str]) -> Verdict:
        raise AssertionError(f"searched {sfen} {moves}")


def test_an_illegal_move_is_refused_before_any_search() -> None:
    with pytest.raises(IllegalMoveError):
        analyse_game("shogi", "startpos", ["7g7f", "7g7f"], Refusing())


def test_win_chance_and_classes() -> None:
    assert win_chance(0) == 0.5
    assert win_chance(MATE_SCORE - 3) == 1.0 and win_chance(-MATE_SCORE + 3) == 0.0
    assert 0.72 < win_chance(600) < 0.74
    assert win_chance(300) + win_chance(-300) == pytest.approx(1.0)
    assert judge(9.99) is Judgement.GOOD
    assert judge(10) is Judgement.INACCURACY
    assert judge(20) is Judgement.MISTAKE
    assert judge(30) is Judgement.BLUNDER


@pytest.mark.parametrize("budget", [{}, {"movetime_ms": 10, "nodes": 10}, {"nodes": 0}])
def test_a_budget_is_one_positive_figure(budget: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="budget"):
        Budget(**budget)


def test_budget_describes_itself() -> None:
    assert Budget(movetime_ms=300).describe() == "300 ms per position"
    assert Budget(nodes=5000).describe() == "5000 nodes per position"
