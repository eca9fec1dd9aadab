"""cshogi and python-shogi read every Komabot KIF and CSA to the same moves and the same result.

python-shogi's parsers are lenient (they drop 不成, skip what they cannot read), cshogi's KIF
parser skips unknown lines silently and its CSA parser takes moves unchecked: so the moves are
compared in full, one by one, and the result word and winner are compared for every ending.
cshogi's KIF parser knows no board diagrams, so it reads only the games from the usual start.
(The JavaScript readers tsshogi and json-kifu-format are checked by bench/record_readers.py.)
"""

from __future__ import annotations

import cshogi
import cshogi.KIF
import pytest
import shogi
import shogi.CSA
import shogi.KIF

from rules.records import export_record, import_record
from tests.rules.records.endings import CASES, GAME, Case, move_kinds

B, W, DRAW = cshogi.BLACK_WIN, cshogi.WHITE_WIN, cshogi.DRAW

# What each reader says, per case: cshogi KIF (endgame, win), cshogi CSA (endgame, win),
# python-shogi KIF win, python-shogi CSA win. Where a reader has no word for an ending it says
# nothing, or (cshogi CSA) 0, which it also uses for a draw: never a wrong winner.
EXPECTED: dict[str, tuple[tuple[str | None, int | None], tuple[str, int], str | None, str]] = {
    "checkmate": (("%TORYO", W), ("%TORYO", W), "w", "w"),
    "no_legal_moves": ((None, None), ("%TORYO", B), "b", "b"),
    "repetition": (("%SENNICHITE", DRAW), ("%SENNICHITE", DRAW), "-", "-"),
    "perpetual_check": ((None, None), ("%+ILLEGAL_ACTION", W), "w", "w"),
    "impasse_win": ((None, None), ("%KACHI", B), "b", "-"),  # python-shogi: no %KACHI
    "impasse_draw": (("%SENNICHITE", DRAW), ("%JISHOGI", DRAW), "-", "-"),  # cshogi's word
    "resignation": (("%TORYO", B), ("%TORYO", B), "b", "b"),
    "resignation_out_of_turn": (("%TORYO", W), ("%CHUDAN", 0), "w", "-"),
    "timeout": (("%TORYO", W), ("%TIME_UP", W), "w", "w"),
    "timeout_out_of_turn": (("%TORYO", B), ("%CHUDAN", 0), "b", "-"),
    "agreed_draw": ((None, None), ("%HIKIWAKE", DRAW), None, "-"),
    "aborted": (("%CHUDAN", None), ("%CHUDAN", 0), "-", "-"),
    "illegal_move_by_mover": (("%ILLEGAL_MOVE", B), ("%ILLEGAL_MOVE", B), "b", "b"),
    "illegal_move_by_last_mover": (("%+ILLEGAL_ACTION", B), ("%-ILLEGAL_ACTION", B), "b", "b"),
    "unfinished": ((None, None), ("", 0), None, "-"),
}
IDS = [case.name for case in CASES]


def test_every_case_has_expectations_and_every_termination_is_covered() -> None:
    assert set(EXPECTED) == set(IDS)
    results = {case.record.result.termination for case in CASES if case.record.result}
    from rules import Termination

    assert results == set(Termination)


def test_the_long_game_holds_every_kind_of_move() -> None:
    game = next(case for case in CASES if case.record.moves == GAME)
    assert move_kinds(game.record) == {
        "drop",
        "promote",
        "decline",
        "capture",
        "same",
        "ambiguous",
    }


def test_the_endings_are_what_the_rules_say() -> None:
    for case in CASES:
        outcome = case.final().outcome()
        if outcome is not None:
            assert outcome == case.record.result, case.name


def _usi(moves: list[int]) -> list[str]:
    return [cshogi.move_to_usi(m) for m in moves]


def _legal_in_cshogi(sfen: str, moves: list[int]) -> bool:
    board = cshogi.Board(sfen)
    for move in moves:
        if not board.is_legal(move):
            return False
        board.push(move)
    return True


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_cshogi_reads_komabot_kif(case: Case) -> None:
    if not case.from_usual_start:
        pytest.skip("cshogi's KIF parser reads no board diagrams")
    text = export_record(case.record, "kif").decode("cp932")
    parsed = cshogi.KIF.Parser.parse_str(text)
    assert _usi(parsed.moves) == list(case.record.moves)
    assert _legal_in_cshogi(parsed.sfen, parsed.moves)
    assert parsed.names == [case.record.sente, case.record.gote]
    assert (parsed.endgame, parsed.win) == EXPECTED[case.name][0]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_cshogi_reads_komabot_csa(case: Case) -> None:
    parser = cshogi.Parser()
    parser.parse_csa_str(export_record(case.record, "csa").decode())
    assert parser.sfen.split()[:3] == case.record.start_sfen.split()[:3]
    assert _usi(parser.moves) == list(case.record.moves)
    assert _legal_in_cshogi(parser.sfen, parser.moves)
    assert (parser.endgame, parser.win) == EXPECTED[case.name][1]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_python_shogi_reads_komabot_kif(case: Case) -> None:
    summary = shogi.KIF.Parser.parse_str(export_record(case.record, "kif").decode("cp932"))[0]
    # python-shogi sets a diagram's side to move after counting the moves: board and hands only
    board, _, hands = summary["sfen"].split()[:3]
    assert [board, hands] == [case.record.start_sfen.split()[i] for i in (0, 2)]
    assert summary["moves"] == list(case.record.moves)
    assert summary["win"] == EXPECTED[case.name][2]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_python_shogi_reads_komabot_csa(case: Case) -> None:
    summary = shogi.CSA.Parser.parse_str(export_record(case.record, "csa").decode())[0]
    assert summary["moves"] == list(case.record.moves)
    assert summary["win"] == EXPECTED[case.name][3]


def test_kif_move_lines_never_say_funari() -> None:
    text = export_record(CASES[0].record, "kifu").decode()
    assert "不成" not in text
    assert "(" in text and "成(" in text  # promotions still say 成


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("fmt", ["kif", "kifu", "csa", "usi"])
def test_komabot_reads_its_own_records_back(case: Case, fmt: str) -> None:
    back = import_record(export_record(case.record, fmt), f"game.{fmt}")
    assert back.moves == case.record.moves
    assert back.result == case.record.result
    assert (back.sente, back.gote) == (case.record.sente, case.record.gote)


IN_WORDS = [c for c in CASES if "out_of_turn" not in c.name]


@pytest.mark.parametrize("case", IN_WORDS, ids=[c.name for c in IN_WORDS])
@pytest.mark.parametrize("fmt", ["kifu", "csa"])
def test_the_closing_words_alone_say_the_result(case: Case, fmt: str) -> None:
    """Without Komabot's KOMABOT-RESULT comment, the usual words give the same result."""
    text = export_record(case.record, fmt).decode()
    lines = [line for line in text.splitlines() if "KOMABOT-RESULT" not in line]
    assert len(lines) == len(text.splitlines()) - (case.record.result is not None)
    back = import_record("\n".join(lines).encode(), f"game.{fmt}")
    assert back.result == case.record.result


OUT_OF_TURN = [c for c in CASES if "out_of_turn" in c.name]


@pytest.mark.parametrize("case", OUT_OF_TURN, ids=[c.name for c in OUT_OF_TURN])
@pytest.mark.parametrize("fmt", ["kifu", "csa"])
def test_out_of_turn_endings_name_the_winner_without_the_tag(case: Case, fmt: str) -> None:
    """Without the tag, a resignation on the opponent's turn still reads as the loser's."""
    text = export_record(case.record, fmt).decode()
    lines = [line for line in text.splitlines() if "KOMABOT-RESULT" not in line]
    back = import_record("\n".join(lines).encode(), f"game.{fmt}")
    assert back.result is not None
    if fmt == "kifu":
        assert back.result == case.record.result
    else:  # CSA has no word for it: an interrupted game, the result in a comment
        assert back.result.winner is None
