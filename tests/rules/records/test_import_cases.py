"""Records from elsewhere that Komabot used to refuse or misread."""

from __future__ import annotations

import pytest

from rules import GOTE, SENTE, Outcome, Position, Termination, load_variant
from rules.records import RecordError, import_record
from rules.records.bod import write_bod
from rules.records.csa import read_csa
from rules.records.kif import read_kif
from tests.rules.records.endings import GAME

HEAD = "手合割：平手\n先手：佐藤天彦\n後手：羽生善治\n手数----指手---------消費時間--\n"
OPENING = (
    "   1 ７六歩(77)   ( 0:01/00:00:01)\n"
    "   2 ３四歩(33)   ( 0:02/00:00:02)\n"
    "   3 ２六歩(27)   ( 0:03/00:00:04)\n"
)
OPENING_USI = ("7g7f", "3c3d", "2g2f")


def _kif(tail: str, head: str = HEAD) -> bytes:
    return (head + OPENING + tail).encode("cp932")


# --- sealed moves, tsume, fouls --------------------------------------------------------------


def test_a_sealed_move_is_an_adjourned_game_with_every_move() -> None:
    head = "開始日時：2018/04/11 09:00\n棋戦：第76期名人戦七番勝負 第1局\n" + HEAD
    record = import_record(_kif("   4 封じ手\n", head), "meijin.kif")
    assert record.moves == OPENING_USI
    assert record.result is None
    assert record.event == "第76期名人戦七番勝負 第1局"


def test_a_sealed_move_in_ki2_is_not_a_resignation() -> None:
    text = "手合割：平手\n先手：A\n後手：B\n▲７六歩　△３四歩　▲２六歩\nまで3手で封じ手\n"
    record = import_record(text.encode(), "game.ki2")
    assert record.moves == OPENING_USI
    assert record.result is None


def _tsume_record(summary: str) -> bytes:
    """The last seven moves of a real mate, from a diagram, as a tsume record writes them."""
    pos = Position.start(load_variant("shogi"))
    for usi in GAME[:47]:
        pos.push_usi(usi)
    lines = ["作品名：七手詰", *write_bod(pos), "手数----指手---------消費時間--"]
    from rules.notation.printing import Printer
    from rules.records.kif import kif_move

    for ply, usi in enumerate(GAME[47:], start=1):
        move = pos.parse_usi(usi)
        lines.append(f"{ply:>4} {kif_move(Printer(pos), move)}")
        pos.push(move)
    return "\n".join([*lines, summary, ""]).encode("cp932")


@pytest.mark.parametrize("summary", ["まで7手詰", "まで7手で詰み", "7手詰"])
def test_a_tsume_record_ends_in_mate(summary: str) -> None:
    record = import_record(_tsume_record(summary), "tsume.kif")
    assert record.moves == GAME[47:]
    assert record.result == Outcome(Termination.CHECKMATE, GOTE)


def test_a_tsume_hand_of_all_the_rest() -> None:
    text = (
        "後手の持駒：残り全部\n"
        "  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n" + "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
        "| ・ ・ ・ ・ ・ ・ ・ ・ 歩|三\n" + "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n" * 6 + ""
        "+---------------------------+\n先手の持駒：金\n"
        "手数----指手---------消費時間--\n   1 １二金打\nまで1手詰\n"
    )
    record = import_record(text.encode("cp932"), "tsume.kif")
    assert record.start_sfen == "8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
    assert record.result == Outcome(Termination.CHECKMATE, SENTE)


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        ("   4 反則負け\nまで3手で後手の反則負け\n", Outcome(Termination.ILLEGAL_MOVE, SENTE)),
        ("   4 反則勝ち\nまで3手で後手の反則勝ち\n", Outcome(Termination.ILLEGAL_MOVE, GOTE)),
        ("   4 反則負け\n", Outcome(Termination.ILLEGAL_MOVE, SENTE)),
        (
            "   4 反則勝ち\n*連続王手の千日手\nまで3手で後手の反則勝ち\n",
            Outcome(Termination.PERPETUAL_CHECK, GOTE),
        ),
        ("   4 反則負け\nまで3手で連続王手の千日手により後手の反則負け\n", None),
    ],
)
def test_kif_fouls_are_illegal_moves_unless_the_record_says_perpetual_check(
    tail: str, expected: Outcome | None
) -> None:
    record = read_kif(_kif(tail).decode("cp932"))  # the words as read (import checks them)
    if expected is None:
        expected = Outcome(Termination.PERPETUAL_CHECK, SENTE)
    assert record.result == expected


CSA_GAME = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n"


@pytest.mark.parametrize(
    ("end", "expected"),
    [
        ("%ILLEGAL_MOVE", Outcome(Termination.ILLEGAL_MOVE, SENTE)),
        ("%+ILLEGAL_ACTION", Outcome(Termination.ILLEGAL_MOVE, GOTE)),
        ("%-ILLEGAL_ACTION", Outcome(Termination.ILLEGAL_MOVE, SENTE)),
        ("%-ILLEGAL_ACTION\n'連続王手の千日手", Outcome(Termination.PERPETUAL_CHECK, SENTE)),
        ("'summary:oute_sennichite:gote lose\n%-ILLEGAL_ACTION", None),
        ("%TSUMI", Outcome(Termination.CHECKMATE, SENTE)),
        ("%TORYO", Outcome(Termination.RESIGNATION, SENTE)),
    ],
)
def test_csa_fouls_are_illegal_moves_unless_the_record_says_perpetual_check(
    end: str, expected: Outcome | None
) -> None:
    record = read_csa(CSA_GAME + end + "\n")  # the words as read (import checks them)
    assert record.moves == OPENING_USI
    assert record.result == (expected or Outcome(Termination.PERPETUAL_CHECK, SENTE))


# --- encodings -------------------------------------------------------------------------------

EUC_CSA = "V2.2\nN+佐藤天彦\nN-羽生善治\n$SITE:渡辺明 広瀬章人\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"


def test_euc_jp_csa_that_also_decodes_as_shift_jis_is_read_as_euc_jp() -> None:
    data = EUC_CSA.encode("euc_jp")
    data.decode("cp932")  # it decodes as Shift-JIS too, into half-width katakana
    record = import_record(data, "game.csa")
    assert (record.sente, record.gote, record.site) == ("佐藤天彦", "羽生善治", "渡辺明 広瀬章人")
    assert record.result == Outcome(Termination.RESIGNATION, GOTE)


@pytest.mark.parametrize(
    ("declaration", "codec"),
    [
        ("'CSA encoding=EUC-JP\n", "euc_jp"),
        ("'encoding=Shift_JIS\n", "cp932"),
        ("'CSA encoding=UTF-8\n", "utf-8"),
    ],
)
def test_a_declared_csa_encoding_is_honoured(declaration: str, codec: str) -> None:
    record = import_record((declaration + EUC_CSA).encode(codec), "game.csa")
    assert record.sente == "佐藤天彦"


def test_a_declared_kif_encoding_is_honoured() -> None:
    data = ("#KIF version=2.0 encoding=EUC-JP\n" + HEAD + OPENING).encode("euc_jp")
    assert import_record(data, "game.kif").gote == "羽生善治"


def test_encoding_errors_say_what_is_wrong() -> None:
    with pytest.raises(RecordError, match="declares the encoding 'klingon'"):
        import_record(b"'CSA encoding=klingon\nV2.2\nPI\n+\n", "game.csa")
    with pytest.raises(RecordError, match=r"^line 2: the file declares UTF-8 but byte"):
        import_record(b"#KIF version=2.0 encoding=UTF-8\n\xff\xfe\n", "game.kif")
    with pytest.raises(RecordError) as info:
        import_record(b"\x82\xa0abc\x81", "game.kif")
    assert info.value.code == "bad_record_encoding"
    assert "UTF-8, Shift-JIS or EUC-JP" in info.value.message


# --- layout ----------------------------------------------------------------------------------

V3_ROWS = [
    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    "P2 * -HI * * * * * -KA *",
    "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    "P4*********",
    "P5 *  *  *  *  *  *  *  *  * ",
    "P6 * * * * * * * * *",
    "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    "P8 * +KA * * * * * +HI *",
    "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY",
]


def test_csa_v3_rows_with_any_spacing() -> None:
    text = "\n".join(["'CSA encoding=UTF-8", "V3.0", "N+A", "N-B", *V3_ROWS, "+", "+7776FU"])
    record = import_record(text.encode(), "game.csa")
    assert record.start_sfen == load_variant("shogi").start_sfen
    assert record.moves == ("7g7f",)


def test_a_csa_row_with_too_few_cells_names_the_line() -> None:
    rows = [*V3_ROWS]
    rows[5] = "P6 * * * * * * * *"
    text = "\n".join(["V3.0", *rows, "+"])
    with pytest.raises(RecordError, match=r"^line 7: the board row P6 has 8 cells; expected 9"):
        import_record(text.encode(), "game.csa")


def test_ascii_colons_in_headers_and_times_in_moves() -> None:
    head = "手合割:平手\n先手:Alice\n後手 : Bob\n手数----指手---------消費時間--\n"
    record = import_record(_kif("   4 投了\nまで3手で先手の勝ち\n", head), "game.kif")
    assert (record.sente, record.gote) == ("Alice", "Bob")
    assert record.moves == OPENING_USI
    assert record.result == Outcome(Termination.RESIGNATION, SENTE)


@pytest.mark.parametrize("marks", ["▲△", "▼▽", "☗☖"])
def test_ki2_with_half_width_digits_and_other_marks(marks: str) -> None:
    black, white = marks
    text = f"手合割：平手\n先手：A\n後手：B\n\n{black}76歩 {white}34歩\n{black}２六歩\n"
    record = import_record((text + "まで3手で先手の勝ち\n").encode(), "game.ki2")
    assert record.moves == OPENING_USI
    assert record.result == Outcome(Termination.RESIGNATION, SENTE)


@pytest.mark.parametrize(
    "data",
    [b"", b"\n\n", b"# only a note\n", "* コメントだけ\n#KIF version=2.0\n".encode(), b"'CSA\n"],
)
def test_a_file_of_comments_only(data: bytes) -> None:
    with pytest.raises(RecordError) as info:
        import_record(data, "game.kif")
    assert info.value.code == "empty_record"
    assert "a record needs a position or moves" in info.value.message


def test_an_unreadable_ending_names_the_line() -> None:
    with pytest.raises(RecordError, match=r"^line 8: cannot read the ending 'まで..手で勝負なし'"):
        import_record(_kif("まで3手で勝負なし\n"), "game.kif")


# --- Komabot's earlier KIF -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        (
            "   4 中断\n*合意による引き分け\nまで3手で引き分け\n",
            Outcome(Termination.AGREED_DRAW, None),
        ),
        ("   4 入玉勝ち\nまで3手で後手の入玉勝ち\n", Outcome(Termination.IMPASSE, GOTE)),
        ("   4 切れ負け\nまで3手で時間切れにより先手の勝ち\n", Outcome(Termination.TIMEOUT, SENTE)),
        ("   4 中断\nまで3手で中断\n", Outcome(Termination.ABORTED, None)),
    ],
)
def test_earlier_komabot_endings_still_read(tail: str, expected: Outcome) -> None:
    assert import_record(_kif(tail), "game.kif").result == expected


def test_funari_in_kif_move_lines_still_reads() -> None:
    text = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n"
    assert import_record(text.encode(), "game.kif").moves[-1] == "8h2b"
