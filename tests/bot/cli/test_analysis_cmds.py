"""``komabot analyse`` (bot/cli/analysis_cmds.py): a real game's record annotated, a graph
drawn, the summary printed; the annotated KIF still read by cshogi and python-shogi."""

from __future__ import annotations

import sys
from pathlib import Path

import cshogi.KIF
import pytest
import shogi.KIF
from PIL import Image

from bot.cli import main
from rules.records import GameRecord, export_record, import_record

ROOT = Path(__file__).resolve().parents[3]
# Habu Yoshiharu - Fujii Takeshi, 65th Meijin league (A class), 15 December 2006: a real,
# public game (the moves are the game's; the file is Komabot's own KIF of them).
HABU_FUJII = ROOT / "tests" / "data" / "records" / "habu_fujii_2006.kif"
MATE_IN_ONE = "8k/9/8P/9/9/9/9/9/K8 b G2r2b3g4s4n4l17p 1"
KOMABOT_USI = f"{sys.executable} -c 'import sys; from bot.cli import main; sys.exit(main())' usi"


def _opening(tmp_path: Path, plies: int) -> Path:
    """The first ``plies`` moves of the real game, as a KIF file (a short test)."""
    game = import_record(HABU_FUJII.read_bytes(), HABU_FUJII.name)
    short = GameRecord("shogi", game.start_sfen, game.moves[:plies], game.sente, game.gote)
    path = tmp_path / "habu_fujii_opening.kif"
    path.write_bytes(export_record(short, "kif"))
    return path


def test_the_whole_real_game_is_a_record_komabot_reads() -> None:
    game = import_record(HABU_FUJII.read_bytes(), HABU_FUJII.name)
    assert len(game.moves) == 181 and (game.sente, game.gote) == ("羽生善治", "藤井猛")
    assert game.result is not None and game.result.winner == 0


def test_analyse_writes_an_annotated_kif_the_readers_read_and_a_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _opening(tmp_path, 16)
    out = tmp_path / "out"
    out.mkdir()
    assert main(["analyse", str(record), "--out", str(out), "--nodes", "150"]) == 0
    captured = capsys.readouterr()
    kif = out / "habu_fujii_opening.analysed.kif"
    png = out / "habu_fujii_opening.analysis.png"
    assert f"{kif}: " in captured.out and f"{png}: " in captured.out
    assert "Analysed by Komabot at 150 nodes per position" in captured.out
    assert "羽生善治 (sente): accuracy " in captured.out
    assert "藤井猛 (gote): accuracy " in captured.out
    assert "analysing: 17 of 17 positions" in captured.err
    moves = list(import_record(record.read_bytes(), record.name).moves)
    parsed = cshogi.KIF.Parser.parse_file(str(kif))
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == moves
    assert all(c.startswith("評価値 ") for c in parsed.comments)
    assert shogi.KIF.Parser.parse_file(str(kif))[0]["moves"] == moves
    assert import_record(kif.read_bytes(), kif.name).moves == tuple(moves)
    image = Image.open(png)
    assert image.format == "PNG" and png.stat().st_size < 100_000


def test_a_missed_mate_is_reported_with_the_mate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "missed.usi"
    path.write_text(f"position sfen {MATE_IN_ONE} moves 9i8h\n", encoding="utf-8")
    assert main(["analyze", str(path), "--nodes", "300"]) == 0
    out = capsys.readouterr().out
    assert "accuracy 0.0%; inaccuracies 0, mistakes 0, blunders 1" in out
    assert "move 1: K-8h (blunder, -100.0% win chance), better G*1b" in out
    assert "sente mates in 1" in out
    assert (tmp_path / "missed.analysed.kif").exists()


def test_wa_gets_kifu(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "wa.usi"
    path.write_text("# variant: wa\nposition startpos moves 6i6h\n", encoding="utf-8")
    assert main(["analyse", str(path), "--nodes", "100"]) == 0
    kifu = tmp_path / "wa.analysed.kifu"
    assert "*評価値 ".encode() in kifu.read_bytes()
    assert import_record(kifu.read_bytes(), kifu.name).moves == ("6i6h",)
    assert "Wa Shogi, moves: 1" in capsys.readouterr().out


def test_an_external_usi_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "missed.usi"
    path.write_text(f"position sfen {MATE_IN_ONE} moves 9i8h\n", encoding="utf-8")
    assert main(["analyse", str(path), "--nodes", "300", "--engine", KOMABOT_USI]) == 0
    out = capsys.readouterr().out
    assert "Analysed by Komabot (shogi) at 300 nodes per position" in out
    assert "better G*1b" in out


def test_an_engine_that_does_not_start_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.usi"
    path.write_text("position startpos moves 7g7f\n", encoding="utf-8")
    assert main(["analyse", str(path), "--nodes", "10", "--engine", "/nonexistent/x"]) == 1
    assert "cannot start it" in capsys.readouterr().err
    assert not (tmp_path / "game.analysed.kif").exists()


@pytest.mark.parametrize(
    ("engine", "message"),
    [("  ", "give the engine's command line"), ("'unclosed", "No closing quotation")],
)
def test_a_bad_engine_command_line_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, message: str
) -> None:
    path = tmp_path / "game.usi"
    path.write_text("position startpos moves 7g7f\n", encoding="utf-8")
    assert main(["analyse", str(path), "--nodes", "10", "--engine", engine]) == 1
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.kif"], "cannot read"),
        (["bad.kif"], "line"),
        (["good.usi", "--out", "nowhere"], "is not a folder"),
    ],
)
def test_bad_input_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "bad.kif").write_text("手数----指手--\n   1 ７六歩(77)\n   2 ７六歩(77)\n", "utf-8")
    (tmp_path / "good.usi").write_text("position startpos moves 7g7f\n", encoding="utf-8")
    paths = [str(tmp_path / a) if not a.startswith("-") else a for a in args]
    assert main(["analyse", *paths]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_one_budget_at_a_time(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", "x.kif", "--nodes", "10", "--movetime", "10"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
