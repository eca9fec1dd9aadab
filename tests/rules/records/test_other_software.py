"""Records exchanged with independent shogi libraries (python-shogi, cshogi; test-only)."""

from __future__ import annotations

import random
from pathlib import Path

import cshogi
import cshogi.CSA
import cshogi.KI2
import cshogi.KIF
import pytest
import shogi
import shogi.KIF

from rules import GOTE, SENTE, Outcome, Position, Termination, load_variant
from rules.notation import parse_move
from rules.records import GameRecord, export_record, import_record
from tests.rules.records.games import random_game

SEEDS = range(50)


def _final_sfen(moves: list[str], sfen: str | None = None) -> str:
    variant = load_variant("shogi")
    pos = Position.from_sfen(variant, sfen) if sfen else Position.start(variant)
    for usi in moves:
        pos.push_usi(usi)
    return pos.sfen(with_move_number=False)


def _cshogi_game(seed: int) -> tuple[cshogi.Board, list[int]]:
    rng = random.Random(seed)
    board = cshogi.Board()
    moves = []
    for _ in range(rng.randint(20, 160)):
        legal = list(board.legal_moves)
        if not legal or board.is_draw() != cshogi.NOT_REPETITION:
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return board, moves


@pytest.mark.parametrize("seed", SEEDS)
def test_python_shogi_reads_komabot_kif(seed: int) -> None:
    moves = random_game("shogi", seed)
    record = GameRecord(
        "shogi",
        load_variant("shogi").start_sfen,
        tuple(moves),
        "Alice",
        "Bob",
        Outcome(Termination.RESIGNATION, GOTE if len(moves) % 2 else SENTE),
    )
    text = export_record(record, "kif").decode("cp932")
    summary = shogi.KIF.Parser.parse_str(text)[0]
    assert summary["moves"] == moves, f"seed {seed}"
    assert summary["names"] == ["Alice", "Bob"]
    board = shogi.Board(summary["sfen"])
    for usi in summary["moves"]:
        board.push_usi(usi)
    assert board.sfen().rsplit(" ", 1)[0] == _final_sfen(moves), f"seed {seed}"


@pytest.mark.parametrize("seed", range(10))
def test_python_shogi_reads_komabot_board_diagram(seed: int) -> None:
    start = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"  # 二枚落ち
    moves = random_game("shogi", seed, sfen=start)
    text = export_record(GameRecord("shogi", start, tuple(moves)), "kif").decode("cp932")
    summary = shogi.KIF.Parser.parse_str(text)[0]
    # python-shogi takes the side to move of a diagram after counting the moves, so only the
    # board and the moves are compared (the side is checked by Komabot's own reader).
    assert summary["sfen"].split()[0] == start.split()[0]
    assert summary["moves"] == moves


@pytest.mark.parametrize("seed", SEEDS)
def test_komabot_reads_cshogi_kif(seed: int, tmp_path: Path) -> None:
    board, moves = _cshogi_game(seed)
    path = tmp_path / "game.kif"
    kif = cshogi.KIF.Exporter(str(path))
    kif.header(["先手さん", "後手さん"])
    for move in moves:
        kif.move(move)
    kif.end("resign")
    kif.close()
    record = import_record(path.read_bytes(), path.name)
    assert list(record.moves) == [cshogi.move_to_usi(m) for m in moves], f"seed {seed}"
    assert record.final_position().sfen(with_move_number=False) == board.sfen().rsplit(" ", 1)[0]
    assert record.sente == "先手さん"
    assert record.result is not None and record.result.termination is Termination.RESIGNATION


@pytest.mark.parametrize("seed", SEEDS)
def test_komabot_reads_cshogi_csa(seed: int, tmp_path: Path) -> None:
    board, moves = _cshogi_game(seed)
    path = tmp_path / "game.csa"
    csa = cshogi.CSA.Exporter(str(path))
    csa.info(init_board=cshogi.STARTING_SFEN, names=["Alice", "Bob"])
    for move in moves:
        csa.move(move, time=1)
    csa.endgame("%TORYO")
    csa.close()
    record = import_record(path.read_bytes(), path.name)
    assert list(record.moves) == [cshogi.move_to_usi(m) for m in moves], f"seed {seed}"
    assert record.final_position().sfen(with_move_number=False) == board.sfen().rsplit(" ", 1)[0]
    loser = len(moves) % 2  # the side to move resigned
    assert record.result == Outcome(Termination.RESIGNATION, loser ^ 1)


@pytest.mark.parametrize("seed", range(20))
def test_komabot_reads_python_shogi_kif(seed: int) -> None:
    moves = random_game("shogi", seed + 1000)
    text = shogi.KIF.Exporter.kif(
        {"names": ["A", "B"], "sfen": shogi.STARTING_SFEN, "moves": moves, "win": "-"}
    )
    record = import_record(text.encode("cp932"), "game.kif")
    assert list(record.moves) == moves, f"seed {seed}"


@pytest.mark.parametrize("seed", range(20))
def test_cshogi_reads_komabot_csa(seed: int) -> None:
    moves = random_game("shogi", seed + 2000)
    record = GameRecord("shogi", load_variant("shogi").start_sfen, tuple(moves), "A", "B")
    parser = cshogi.Parser()
    parser.parse_csa_str(export_record(record, "csa").decode())
    assert [cshogi.move_to_usi(m) for m in parser.moves] == moves, f"seed {seed}"


def test_cshogi_reads_komabot_csa_from_a_set_position() -> None:
    start = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    moves = random_game("shogi", 7, sfen=start)
    parser = cshogi.Parser()
    parser.parse_csa_str(export_record(GameRecord("shogi", start, tuple(moves)), "csa").decode())
    assert parser.sfen.split()[:3] == start.split()[:3]
    assert [cshogi.move_to_usi(m) for m in parser.moves] == moves


@pytest.mark.parametrize("seed", range(30))
def test_komabot_reads_cshogi_ki2(seed: int, tmp_path: Path) -> None:
    board, moves = _cshogi_game(seed + 500)
    path = tmp_path / "game.ki2"
    ki2 = cshogi.KI2.Exporter(str(path))
    ki2.header(["A", "B"])
    for move in moves:
        ki2.move(move)
    ki2.end("resign")
    ki2.close()
    record = import_record(path.read_bytes(), path.name)
    assert list(record.moves) == [cshogi.move_to_usi(m) for m in moves], f"seed {seed}"
    assert record.final_position().sfen(with_move_number=False) == board.sfen().rsplit(" ", 1)[0]


@pytest.mark.parametrize("seed", range(8))
def test_parse_move_reads_every_cshogi_ki2_text(seed: int) -> None:
    """Relative words (右 左 直 上 引 寄), 同, 打 and 不成 as another writer puts them."""
    rng = random.Random(seed)
    board = cshogi.Board()
    pos = Position.start(load_variant("shogi"))
    for _ in range(rng.randint(30, 120)):
        legal = list(board.legal_moves)
        if not legal:
            break
        for move in legal:
            text = cshogi.KI2.move_to_ki2(move, board)
            assert pos.usi(parse_move(pos, text)) == cshogi.move_to_usi(move), (pos.sfen(), text)
        move = rng.choice(legal)
        board.push(move)
        pos.push_usi(cshogi.move_to_usi(move))
