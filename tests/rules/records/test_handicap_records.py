"""Handicap games (駒落ち) in records: every handicap's start, and a rook-handicap game, exported
as KIF, KIFU, CSA and USI, read back by Komabot and by cshogi and python-shogi to the same start
(gote, the giver, to move) and the same moves; KIF written as other programs write handicaps
is read; an unknown 手合割 is refused with the names Komabot knows."""

from __future__ import annotations

import cshogi
import cshogi.KIF
import pytest
import shogi.CSA
import shogi.KIF

from rules import GOTE, SENTE, Outcome, Termination, load_variant
from rules.records import GameRecord, RecordError, export_record, import_record
from tests.rules.records.endings import HANDICAP_CASES, ROOK_HANDICAP_GAME
from tests.rules.records.test_readers_agree import _legal_in_cshogi, _usi

SHOGI = load_variant("shogi")
HANDICAP_IDS = list(SHOGI.handicaps)
ROOK_RECORD = HANDICAP_CASES[0].record
ROOK_GAME = ROOK_HANDICAP_GAME


def _start_record(handicap_id: str) -> GameRecord:
    return GameRecord("shogi", SHOGI.handicaps[handicap_id].sfen, (), sente="S", gote="G")


def _key(sfen: str) -> list[str]:
    """Board, side to move and hands: a start as every reader gives it (move number aside)."""
    return sfen.split()[:3]


def test_the_rook_game_is_legal_and_long_enough() -> None:
    assert len(ROOK_GAME) >= 20
    assert ROOK_RECORD.final_position().side == GOTE
    assert ROOK_RECORD.start_position().side == GOTE


@pytest.mark.parametrize("handicap_id", HANDICAP_IDS)
def test_kif_names_the_handicap_and_its_sides(handicap_id: str) -> None:
    text = export_record(_start_record(handicap_id), "kifu").decode()
    lines = text.split("\r\n")
    assert f"手合割：{SHOGI.handicaps[handicap_id].names['ja']}" in lines
    assert "下手：S" in lines and "上手：G" in lines
    assert not any(line.startswith(("先手", "後手", "+---", "|")) for line in lines)


@pytest.mark.parametrize("handicap_id", HANDICAP_IDS)
@pytest.mark.parametrize("fmt", ["kif", "kifu", "csa", "usi"])
def test_every_handicap_start_reads_back(handicap_id: str, fmt: str) -> None:
    record = _start_record(handicap_id)
    back = import_record(export_record(record, fmt), f"game.{fmt}")
    assert _key(back.start_sfen) == _key(record.start_sfen)
    assert back.start_position().side == GOTE
    assert (back.sente, back.gote) == ("S", "G")


@pytest.mark.parametrize("handicap_id", HANDICAP_IDS)
def test_every_handicap_start_as_cshogi_and_python_shogi_read_it(handicap_id: str) -> None:
    record = _start_record(handicap_id)
    expected = _key(record.start_sfen)
    kif = export_record(record, "kif").decode("cp932")
    csa = export_record(record, "csa").decode()
    assert _key(cshogi.KIF.Parser.parse_str(kif).sfen) == expected
    parser = cshogi.Parser()
    parser.parse_csa_str(csa)
    assert _key(parser.sfen) == expected
    assert _key(shogi.KIF.Parser.parse_str(kif)[0]["sfen"]) == expected
    assert _key(shogi.CSA.Parser.parse_str(csa)[0]["sfen"]) == expected


def test_csa_writes_the_handicap_as_pi_less_the_pieces() -> None:
    lines = export_record(_start_record("two-piece"), "csa").decode().splitlines()
    at = lines.index("PI82HI22KA")
    assert lines[at + 1] == "-"
    assert not any(line.startswith("P1") for line in lines)


@pytest.mark.parametrize("fmt", ["kif", "kifu", "csa", "usi"])
def test_the_rook_game_reads_back(fmt: str) -> None:
    back = import_record(export_record(ROOK_RECORD, fmt), f"game.{fmt}")
    assert _key(back.start_sfen) == _key(ROOK_RECORD.start_sfen)
    assert back.moves == ROOK_GAME
    assert back.result == ROOK_RECORD.result
    assert (back.sente, back.gote) == ("Taker", "Giver")


def test_the_rook_game_as_cshogi_reads_it() -> None:
    kif = cshogi.KIF.Parser.parse_str(export_record(ROOK_RECORD, "kif").decode("cp932"))
    assert _key(kif.sfen) == _key(ROOK_RECORD.start_sfen)
    assert _usi(kif.moves) == list(ROOK_GAME)
    assert _legal_in_cshogi(kif.sfen, kif.moves)
    assert kif.names == ["Taker", "Giver"]
    assert kif.win == cshogi.BLACK_WIN
    csa = cshogi.Parser()
    csa.parse_csa_str(export_record(ROOK_RECORD, "csa").decode())
    assert _key(csa.sfen) == _key(ROOK_RECORD.start_sfen)
    assert _usi(csa.moves) == list(ROOK_GAME)
    assert _legal_in_cshogi(csa.sfen, csa.moves)
    assert (csa.endgame, csa.win) == ("%TORYO", cshogi.BLACK_WIN)


def test_the_rook_game_as_python_shogi_reads_it() -> None:
    kif = shogi.KIF.Parser.parse_str(export_record(ROOK_RECORD, "kif").decode("cp932"))[0]
    assert _key(kif["sfen"]) == _key(ROOK_RECORD.start_sfen)
    assert kif["moves"] == list(ROOK_GAME)
    assert kif["names"] == ["Taker", "Giver"]
    assert kif["win"] == "b"
    csa = shogi.CSA.Parser.parse_str(export_record(ROOK_RECORD, "csa").decode())[0]
    assert _key(csa["sfen"]) == _key(ROOK_RECORD.start_sfen)
    assert csa["moves"] == list(ROOK_GAME)
    assert csa["win"] == "b"


def test_the_usi_record_is_the_handicap_sfen() -> None:
    text = export_record(ROOK_RECORD, "usi").decode()
    assert text.startswith(
        "position sfen lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d "
    )


# A two-piece handicap game as Kifu for Windows writes one: full-width padding after the name,
# 上手 before 下手, times on the move lines, the summary naming 上手.
OTHERS_TWO_PIECE = """\
# ---- 柿木将棋 棋譜ファイル ----
開始日時：2024/01/02 10:00:00
手合割：二枚落ち{PAD}
上手：先生
下手：生徒
手数----指手---------消費時間--
   1 ６二銀(71)   ( 0:05/00:00:05)
   2 ７六歩(77)   ( 0:03/00:00:03)
   3 ５四歩(53)   ( 0:04/00:00:09)
   4 投了         ( 0:10/00:00:13)
まで3手で上手の勝ち
""".replace("{PAD}", "\u3000\u3000")


def test_a_two_piece_kif_as_other_programs_write_it() -> None:
    record = import_record(OTHERS_TWO_PIECE.encode("cp932"), "game.kif")
    assert record.start_sfen == SHOGI.handicaps["two-piece"].sfen
    assert record.moves == ("7a6b", "7g7f", "5c5d")
    assert (record.sente, record.gote) == ("生徒", "先生")
    assert record.result == Outcome(Termination.RESIGNATION, GOTE)


def test_a_handicap_ki2_starts_with_the_givers_move() -> None:
    text = "手合割：角落ち\n上手：A\n下手：B\n△３四歩　▲７六歩　△４四歩\nまで3手で上手の勝ち\n"
    record = import_record(text.encode(), "game.ki2")
    assert record.start_sfen == SHOGI.handicaps["bishop"].sfen
    assert record.moves == ("3c3d", "7g7f", "4c4d")
    with pytest.raises(RecordError, match="marked as 先手's, but it is 後手's turn"):
        import_record("手合割：角落ち\n▲７六歩\n".encode(), "game.ki2")


@pytest.mark.parametrize("handicap_id", HANDICAP_IDS)
def test_every_handicap_name_and_hirate_read(handicap_id: str) -> None:
    handicap = SHOGI.handicaps[handicap_id]
    text = f"手合割：{handicap.names['ja']}\n手数----指手--\n"
    assert import_record(text.encode(), "game.kif").start_sfen == handicap.sfen
    even = import_record("手合割：平手\n   1 ７六歩(77)\n".encode(), "game.kif")
    assert even.start_sfen == SHOGI.start_sfen and even.moves == ("7g7f",)


def test_an_unknown_handicap_names_what_it_read_and_what_is_known() -> None:
    text = "手合割：九枚落ち\n上手：A\n下手：B\n   1 ６二銀(71)\n"
    with pytest.raises(RecordError) as caught:
        import_record(text.encode(), "game.kif")
    message = caught.value.message
    assert message.startswith("line 1: unknown 手合割 '九枚落ち'")
    for name in ("平手", *(h.names["ja"] for h in SHOGI.handicaps.values()), "その他"):
        assert name in message
    assert caught.value.code == "bad_record" and caught.value.params["line"] == 1


def test_a_csa_pi_removing_a_piece_that_is_not_there_is_refused() -> None:
    with pytest.raises(RecordError, match="'PI82KA' removes KA from 82, which holds HI"):
        import_record(b"V2.2\nPI82KA\n-\n", "game.csa")
    with pytest.raises(RecordError, match="removes FU from 55, which holds no piece"):
        import_record(b"V2.2\nPI55FU\n-\n", "game.csa")


ENDINGS = [
    Outcome(Termination.RESIGNATION, SENTE),  # 上手 resigns on its turn
    Outcome(Termination.RESIGNATION, GOTE),  # 下手 resigns on 上手's turn
    Outcome(Termination.TIMEOUT, SENTE),
    Outcome(Termination.ILLEGAL_MOVE, GOTE),
    Outcome(Termination.ABORTED, None),
]


@pytest.mark.parametrize("result", ENDINGS, ids=lambda r: f"{r.termination.value}-{r.winner}")
def test_handicap_endings_name_uwate_and_shitate_and_read_without_the_tag(result: Outcome) -> None:
    record = GameRecord("shogi", ROOK_RECORD.start_sfen, ROOK_GAME, result=result)
    text = export_record(record, "kifu").decode()
    assert "先手" not in text and "後手" not in text
    if result.winner is not None:
        assert f"で{('下手', '上手')[result.winner]}の" in text
    lines = [line for line in text.splitlines() if "KOMABOT-RESULT" not in line]
    assert import_record("\n".join(lines).encode(), "game.kifu").result == result
    parsed = cshogi.KIF.Parser.parse_str(export_record(record, "kif").decode("cp932"))
    winners = {SENTE: cshogi.BLACK_WIN, GOTE: cshogi.WHITE_WIN, None: None}
    assert parsed.win == winners[result.winner]
