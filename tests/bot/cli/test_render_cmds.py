"""``komabot render``, ``piece``, ``cheatsheet`` and ``replay``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from tests.render.helpers import record_replay_headers


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_render_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.png"
    code, stdout, _ = run(
        capsys,
        "render", "--variant", "wa", "--moves", "8h8g", "--perspective", "gote",
        "--style", "international", "--highlight", "6f", "1a", "--size", "500", "--out", str(out),
    )  # fmt: skip
    assert code == 0
    assert str(out) in stdout
    img = Image.open(out)
    assert img.format == "PNG" and img.width == 500


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--variant", "shogi", "--moves", "7g7f", "7g7f"], "move 2 (7g7f)"),
        (["--variant", "shogi", "--highlight", "0z"], "'0z' is not a square"),
        (["--variant", "chess"], "unknown variant"),
        (["--variant", "shogi", "--sfen", "nonsense"], "komabot render:"),
    ],
)
def test_render_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    out = tmp_path / "b.png"
    code, _, err = run(capsys, "render", *argv, "--out", str(out))
    assert code == 2
    assert message in err
    assert not out.exists()


def test_render_bad_size_is_an_argument_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["render", "--size", "5", "--out", str(tmp_path / "x.png")])


def test_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "cheatsheet", "--out", str(tmp_path / "no" / "such" / "x.png"))
    assert code == 1
    assert "cannot write" in err


def test_piece_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.png"
    code, _, err = run(capsys, "piece", "P", "--variant", "wa", "--out", str(out))
    assert code == 0 and err == ""
    assert Image.open(out).format == "PNG"
    code, _, err = run(capsys, "piece", "hiyo", "--out", str(out))
    assert code == 0
    assert "also:" in err  # the promoted crow is also a Flying Falcon


def test_unknown_piece_suggests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "piece", "wooden falcon", "--out", str(tmp_path / "p.png"))
    assert code == 2
    assert "Did you mean" in err and "Flying Falcon" in err


def test_cheatsheet_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "c.png"
    assert run(capsys, "cheatsheet", "--variant", "shogi", "--out", str(sheet))[0] == 0
    assert Image.open(sheet).format == "PNG"
    gif = tmp_path / "r.gif"
    code, _, _ = run(
        capsys,
        "replay", "--variant", "shogi", "--moves", "7g7f", "3c3d", "--size", "300",
        "--out", str(gif),
    )  # fmt: skip
    assert code == 0
    img = Image.open(io.BytesIO(gif.read_bytes()))
    assert img.format == "GIF" and img.n_frames == 3


@pytest.mark.parametrize(
    ("name", "fmt"), [("b.jpg", "JPEG"), ("b.JPEG", "JPEG"), ("b.webp", "WEBP")]
)
def test_the_file_name_picks_the_image_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, fmt: str
) -> None:
    out = tmp_path / name
    code, _, _ = run(capsys, "render", "--variant", "shogi", "--out", str(out))
    assert code == 0
    assert Image.open(out).format == fmt


@pytest.mark.parametrize("command", [["render"], ["cheatsheet"], ["piece", "gold"]])
def test_an_unknown_image_ending_is_refused_before_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    out = tmp_path / "b.txt"
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--out", str(out)])
    assert exit_.value.code == 2
    assert "name a .png file (or .jpg, .jpeg, .webp), not .txt" in capsys.readouterr().err
    assert not out.exists()


def test_a_replay_must_be_a_gif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.png"
    with pytest.raises(SystemExit):
        main(["replay", "--moves", "7g7f", "--out", str(out)])
    assert "a replay is an animated GIF: name a .gif file" in capsys.readouterr().err
    assert not out.exists()


def test_render_and_replay_a_handicap_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from render.board import render_board
    from render.options import BoardOptions
    from rules import Position, load_variant

    png = tmp_path / "h.png"
    assert run(capsys, "render", "--handicap", "rook", "--size", "300", "--out", str(png))[0] == 0
    variant = load_variant("shogi")
    want = render_board(Position.from_sfen(variant, variant.handicaps["rook"].sfen),
                        BoardOptions(size=300))  # fmt: skip
    assert png.read_bytes() == want
    gif = tmp_path / "h.gif"
    code, _, err = run(
        capsys,
        "replay", "--handicap", "rook", "--moves", "3c3d", "7g7f", "--size", "300",
        "--out", str(gif),
    )  # fmt: skip
    assert code == 0, err  # 3c3d first: gote, the giver, moves first
    assert Image.open(io.BytesIO(gif.read_bytes())).n_frames == 3


def test_replay_frames_name_the_moves_in_the_notation_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = record_replay_headers(monkeypatch)
    gif = tmp_path / "r.gif"
    moves = ["--moves", "7g7f", "3c3d", "--size", "300", "--out", str(gif)]
    assert run(capsys, "replay", "--notation", "japanese", *moves)[0] == 0
    assert run(capsys, "replay", *moves)[0] == 0  # western unless asked
    assert drawn == ["", "1. ☗７六歩", "2. ☖３四歩", "", "1. ☗P-7f", "2. ☖P-3d"]
    with pytest.raises(SystemExit) as refused:
        main(["replay", "--notation", "kanji", *moves])
    assert refused.value.code == 2 and "--notation" in capsys.readouterr().err
