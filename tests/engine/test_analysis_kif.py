"""An analysis as KIF comments: the score after each move, and the class and better move of
a move that lost win chance."""

from __future__ import annotations

from engine.analysis import MATE_SCORE, Budget, BuiltinEvaluator, analyse_game
from engine.analysis_kif import kif_comments, score_words
from rules.records import GameRecord, export_file, import_record
from tests.engine.test_analysis import HANGING_ROOK, MATE_IN_ONE


def test_the_blunder_carries_its_class_and_the_better_move() -> None:
    analysis = analyse_game(
        "shogi", MATE_IN_ONE, ["9i8h"], BuiltinEvaluator("shogi", Budget(nodes=600))
    )
    comments = kif_comments(analysis)
    assert comments[0] == ["解析 Komabot (600 nodes per position)"]
    assert comments[1][0].startswith("評価値 -")
    assert comments[1][1] == "大悪手 勝率 -100.0%"
    assert comments[1][2] == "最善手 １二金打"


def test_every_move_has_its_score_and_the_file_reads_back() -> None:
    analysis = analyse_game(
        "shogi", "startpos", HANGING_ROOK, BuiltinEvaluator("shogi", Budget(nodes=400))
    )
    comments = kif_comments(analysis)
    assert sorted(comments) == list(range(len(HANGING_ROOK) + 1))
    assert comments[11][1].startswith("大悪手 勝率 -")
    record = GameRecord("shogi", "startpos", tuple(HANGING_ROOK), "A", "B")
    data = export_file(record, "kif", comments).data
    assert import_record(data, "game.kif").moves == record.moves
    assert "*大悪手".encode("cp932") in data


def test_scores_in_words() -> None:
    assert score_words(123) == "+123"
    assert score_words(-45) == "-45"
    assert score_words(0) == "+0"
    assert score_words(MATE_SCORE - 3) == "先手の3手詰"
    assert score_words(-MATE_SCORE + 1) == "後手の1手詰"
    assert score_words(MATE_SCORE) == "詰み"
