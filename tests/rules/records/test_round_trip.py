"""Komabot's own records read back to the same game, result, players and dates."""

from __future__ import annotations

from datetime import datetime

import pytest

from rules import GOTE, SENTE, Outcome, Position, Termination, load_variant
from rules.records import GameRecord, RecordError, export_record, import_record
from rules.records.record import DECIDED_BY_POSITION
from tests.rules.records.games import random_game

FORMATS = {
    "shogi": ("kif", "kifu", "csa", "usi"),
    "wa": ("kifu", "usi"),
    "wa-drops": ("kifu", "usi"),
}
RESULTS = [
    Outcome(Termination.RESIGNATION, SENTE),
    Outcome(Termination.RESIGNATION, GOTE),
    Outcome(Termination.TIMEOUT, SENTE),
    Outcome(Termination.TIMEOUT, GOTE),
    Outcome(Termination.REPETITION, None),
    Outcome(Termination.PERPETUAL_CHECK, SENTE),
    Outcome(Termination.PERPETUAL_CHECK, GOTE),
    Outcome(Termination.AGREED_DRAW, None),
    Outcome(Termination.ABORTED, None),
    Outcome(Termination.IMPASSE, SENTE),
    Outcome(Termination.IMPASSE, None),
    Outcome(Termination.ILLEGAL_MOVE, SENTE),
    Outcome(Termination.ILLEGAL_MOVE, GOTE),
    None,
]


# Results only the final position can give: a game that did not end so cannot have them (the
# import says so and leaves them out), so they are tested on games that end so.
DECIDED = {r for r in RESULTS if r is not None and r.termination in DECIDED_BY_POSITION}
SHUFFLE = ("5i4h", "5a4b", "4h5i", "4b5a")  # back to the start every four plies
# A rook checks along a rank, the king steps to the next rank, the rook follows, and back: the
# position after the first check is there for the fourth time at move 13.
CHECKS_BY_SENTE = ("9b9a", "5a5b", "9a9b", "5b5a")
CHECKS_BY_GOTE = ("9h9i", "5i5h", "9i9h", "5h5i")
ENDED_SO = {
    Outcome(Termination.REPETITION, None): (None, SHUFFLE * 3),
    Outcome(Termination.PERPETUAL_CHECK, GOTE): (
        "4k4/9/9/9/9/9/9/9/R3K4 b - 1",
        ("9i9a", "5a5b", "9a9b", "5b5a", *CHECKS_BY_SENTE * 2, "9b9a"),
    ),
    Outcome(Termination.PERPETUAL_CHECK, SENTE): (
        "r3k4/9/9/9/9/9/9/9/4K4 w - 1",
        ("9a9i", "5i5h", "9i9h", "5h5i", *CHECKS_BY_GOTE * 2, "9h9i"),
    ),
}


def _record(variant_id: str, seed: int, result: Outcome | None) -> GameRecord:
    moves = random_game(variant_id, seed)
    pos = Position.start(load_variant(variant_id))
    for usi in moves:
        pos.push_usi(usi)
    return GameRecord(
        variant=variant_id,
        start_sfen=load_variant(variant_id).start_sfen,
        moves=tuple(moves),
        sente="Sente Player",
        gote="後手さん",
        result=pos.outcome() or (None if result in DECIDED else result),
        started=datetime(2026, 11, 1, 9, 30, 0),
        ended=datetime(2026, 11, 20, 21, 5, 7),
        event="Komabot test",
        site="Discord #shogi",
    )


@pytest.mark.parametrize("variant_id", list(FORMATS))
@pytest.mark.parametrize("seed", range(6))
def test_round_trip(variant_id: str, seed: int) -> None:
    record = _record(variant_id, seed, RESULTS[seed * 2 % len(RESULTS)])
    for fmt in FORMATS[variant_id]:
        back = import_record(export_record(record, fmt), f"game.{fmt}")
        assert back.moves == record.moves, (variant_id, seed, fmt)
        assert back.variant == record.variant
        assert back.result == record.result, (variant_id, seed, fmt)
        assert back.sente == record.sente and back.gote == record.gote
        if fmt != "usi":
            assert back.started == record.started and back.ended == record.ended
            assert back.event == record.event and back.site == record.site


@pytest.mark.parametrize("result", RESULTS, ids=str)
@pytest.mark.parametrize("fmt", ["kifu", "csa", "usi"])
def test_every_result_survives(result: Outcome | None, fmt: str) -> None:
    start, moves = ENDED_SO.get(result, (None, ("7g7f", "3c3d")))  # type: ignore[arg-type]
    sfen = start or load_variant("shogi").start_sfen
    record = GameRecord("shogi", sfen, moves, result=result)
    back = import_record(export_record(record, fmt))
    assert (back.result, back.moves, back.notes) == (result, moves, ())


def test_checkmate_and_handicap_start() -> None:
    sfen = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"  # 香落ち
    moves = ("3c3d", "7g7f", "2b7g+")
    record = GameRecord("shogi", sfen, moves, result=Outcome(Termination.RESIGNATION, GOTE))
    kif = export_record(record, "kifu").decode()
    # named as KIF programs name a handicap: no diagram, the sides 下手 and 上手
    assert "手合割：香落ち" in kif and "後手番" not in kif and "+---" not in kif
    assert "下手：" in kif and "上手：" in kif and "先手：" not in kif
    assert "まで3手で上手の勝ち" in kif
    for fmt in ("kif", "kifu", "csa", "usi"):
        back = import_record(export_record(record, fmt), f"x.{fmt}")
        assert back.start_sfen.split()[:3] == sfen.split()[:3]
        assert back.moves == moves


def test_checkmate_survives() -> None:
    sfen = "4k4/4G4/4P4/9/9/9/9/9/K8 w - 1"  # gote is mated: gold on 5b protected by pawn
    assert Position.from_sfen(load_variant("shogi"), sfen).outcome() == Outcome(
        Termination.CHECKMATE, SENTE
    )
    record = GameRecord("shogi", sfen, (), result=Outcome(Termination.CHECKMATE, SENTE))
    for fmt in ("kifu", "csa", "usi"):
        assert import_record(export_record(record, fmt)).result == record.result


def test_board_diagram_start_for_wa_drops_with_hands() -> None:
    sfen = "5k5/11/11/11/11/5+R5/11/11/11/11/K10 b 2Pr 1"
    record = GameRecord("wa-drops", sfen, ("6f6e", "R*1a", "P*5e"), "a", "b")
    data = export_record(record, "kifu")
    text = data.decode()
    assert "#KOMABOT-VARIANT: wa-drops" in text and "成走兎" in text
    back = import_record(data, "wa.kifu")
    assert back.start_sfen.split()[:3] == sfen.split()[:3]
    assert back.moves == record.moves


def test_wa_kifu_names_the_variant_and_uses_wa_names() -> None:
    record = GameRecord("wa", load_variant("wa").start_sfen, ("8h8g", "4d4e", "8g8f"))
    text = export_record(record, "kifu").decode()
    assert "#KOMABOT-VARIANT: wa" in text.splitlines()[1]
    assert "手合割：和将棋" in text
    assert "   1 ８七萑歩(0808)" in text
    assert import_record(text.encode()).variant == "wa"


def test_kif_is_shift_jis_and_kifu_utf8() -> None:
    record = GameRecord("shogi", load_variant("shogi").start_sfen, ("7g7f",), "羽生", "藤井")
    sjis = export_record(record, "kif")
    assert "７六歩(77)".encode("cp932") in sjis
    utf8 = export_record(record, "kifu")
    assert "７六歩(77)".encode() in utf8
    assert import_record(sjis, "g.kif").sente == "羽生"
    assert import_record(utf8, "g.kifu").gote == "藤井"


@pytest.mark.parametrize("fmt", ["kif", "csa"])
def test_standard_only_formats_refuse_wa(fmt: str) -> None:
    record = GameRecord("wa", load_variant("wa").start_sfen, ())
    with pytest.raises(RecordError) as info:
        export_record(record, fmt)
    assert info.value.code == "format_not_for_variant"
    assert "kifu" in info.value.message


def test_export_refuses_illegal_move() -> None:
    record = GameRecord("shogi", load_variant("shogi").start_sfen, ("7g7f", "7f7e"))
    with pytest.raises(RecordError, match=r"move 2 \(7f7e\)"):
        export_record(record, "kifu")


def test_unknown_format() -> None:
    record = GameRecord("shogi", load_variant("shogi").start_sfen, ())
    with pytest.raises(RecordError) as info:
        export_record(record, "pgn")
    assert info.value.code == "unknown_format"
