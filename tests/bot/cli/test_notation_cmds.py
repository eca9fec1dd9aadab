"""``komabot parse``, ``record`` and ``import`` (bot/cli/notation_cmds.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main


def test_parse_prints_usi_move_by_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "P-7f", "３四歩", "Bx2b+", "同　銀", "B*5e"]) == 0
    assert capsys.readouterr().out.split() == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]


def test_parse_stops_at_the_first_bad_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "7g7f", "3c3d", "G-5h", "P-2f"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["7g7f", "3c3d", "G-5h: Which gold? G6i-5h or G4i-5h"]


def test_parse_wa_from_sfen(capsys: pytest.CaptureFixture[str]) -> None:
    sfen = "5k5/11/11/5P5/11/11/11/11/11/11/K10 b - 1"
    assert main(["parse", "--variant", "wa", "--sfen", sfen, "SP-6c+"]) == 0
    assert capsys.readouterr().out.strip() == "6d6c+"


def test_record_and_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.kif"
    code = main(["record", "--moves", "7g7f", "3c3d", "--format", "kif", "--out", str(out)])
    assert code == 0
    assert "７六歩(77)".encode("cp932") in out.read_bytes()
    assert main(["import", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        "7g7f 3c3d",
    ]


def test_record_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "--variant", "wa", "--moves", "8h8g", "--format", "usi"]) == 0
    assert capsys.readouterr().out.startswith("position sfen hmlcvkwgudo/")


def test_record_refuses_kif_for_wa(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "--variant", "wa", "--moves", "8h8g", "--format", "kif"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Standard Shogi only" in err[0]


def test_record_in_kif_replaces_what_shift_jis_cannot_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.kif"
    args = ["record", "--moves", "7g7f", "--sente", "Al🐉ice", "--format", "kif", "--out", str(out)]
    assert main(args) == 0
    assert "先手：Al?ice".encode("cp932") in out.read_bytes()
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["komabot record: KIF cannot hold 🐉; written as ? (kifu keeps them)"]


def test_record_refuses_illegal_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "--moves", "7g7e", "--format", "usi"]) == 2
    assert capsys.readouterr().err.startswith("komabot record: move 1 (7g7e): ")


def test_import_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "none.kif")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_import_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.usi"
    path.write_text("position startpos moves 7g7f 7f7d\n")
    assert main(["import", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("komabot import: line 1: move 2 (7f7d):") and "\n" not in err


def test_record_with_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["record", "--moves", "7g7f", "--format", "kifu", "--result", "resignation"]
    assert main([*argv, "--winner", "sente"]) == 0
    out = capsys.readouterr().out
    assert "   2 投了" in out and "まで1手で先手の勝ち" in out


def test_import_names_the_players_and_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.kif"
    argv = ["record", "--moves", "7g7f", "3c3d", "--sente", "Alice", "--gote", "Bob"]
    argv += ["--format", "kif", "--result", "resignation", "--winner", "gote", "--out", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["import", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        "sente: Alice",
        "gote: Bob",
        "result: resignation, gote wins",
    ]


def test_record_to_a_terminal_is_text_not_shift_jis(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """KIF files are Shift-JIS for the programs that read them; a terminal gets the same record
    as text it can show (piped or with --out, the bytes stay Shift-JIS: see above)."""
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(["record", "--moves", "7g7f", "--format", "kif"]) == 0
    assert "７六歩(77)" in capsys.readouterr().out


def test_record_a_handicap_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.kif"
    args = ["record", "--handicap", "rook", "--moves", "3c3d", "7g7f", "--format", "kif"]
    assert main([*args, "--sente", "Taker", "--gote", "Giver", "--out", str(out)]) == 0
    text = out.read_bytes().decode("cp932").split("\r\n")
    assert text[2:5] == ["手合割：飛車落ち", "下手：Taker", "上手：Giver"]
    assert main(["import", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "lnsgkgsnl/7b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 3",
        "3c3d 7g7f",
    ]


def test_record_a_handicap_by_its_japanese_name_as_csa(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "--handicap", "二枚落ち", "--format", "csa"]) == 0
    assert "\nPI82HI22KA\n-\n" in capsys.readouterr().out


def test_an_unknown_handicap_lists_the_variants_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "--handicap", "queen", "--format", "kif"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("komabot record: Standard Shogi has no handicap 'queen'")
    assert "lance, bishop, rook, rook-lance, two-piece" in err
    assert main(["record", "--variant", "wa", "--handicap", "rook", "--format", "kifu"]) == 2
    assert "Wa Shogi has no handicap 'rook' (its handicaps: none)" in capsys.readouterr().err


def test_handicap_and_sfen_are_one_or_the_other() -> None:
    with pytest.raises(SystemExit):
        main(["record", "--handicap", "rook", "--sfen", "4k4/9/9/9/9/9/9/9/4K4 b - 1"])
