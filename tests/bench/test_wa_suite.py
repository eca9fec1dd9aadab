"""The Wa tactics suite (bench/wa_suite.py): losses of material found in a game's moves, a
lost piece from a real game judged by a real search and kept, and a real ``komabot usi``
asked for its moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.wa_suite import (
    Answers,
    BuildSettings,
    SuitePosition,
    losing_plies,
    main,
    material_line,
    read_suite,
)
from rules import Position, load_variant


def test_losing_plies_finds_a_lasting_loss_only() -> None:
    # sente's material by ply: an exchange half done at plies 3-4 (back at 5), then a
    # piece lost for good from ply 9
    line = [0, 0, 0, -300, 0, 0, 0, 0, 0, -400, -400, -400, -400, -400, -400, -400, -400]
    runs = list(losing_plies(line, sente=True, window=6, drop=250, behind=300))
    # sente's moves at plies 4, 6 and 8 all see the loss of ply 9 within 6-7 plies
    assert runs == [[(4, 400), (6, 400), (8, 400)]]
    # gote's side of the same line gains: nothing
    assert list(losing_plies(line, sente=False, window=6, drop=250, behind=300)) == []
    # already far behind: not looked at
    behind = [v - 1000 for v in line]
    assert list(losing_plies(behind, sente=True, window=6, drop=250, behind=300)) == []


def test_material_line_counts_a_capture() -> None:
    variant = load_variant("wa")
    pos = Position.start(variant)
    # play until a capture is legal, from the first legal moves (the same every run)
    moves: list[str] = []
    for _ in range(40):
        captures = [m for m in pos.legal_moves() if pos.board[m.to_sq]]
        move = captures[0] if captures else pos.legal_moves()[0]
        moves.append(pos.usi(move))
        pos.make_unchecked(move)
        if captures:
            break
    line = material_line(variant, moves)
    assert len(line) == len(moves) + 1
    assert line[0] == 0
    captured = line[-1] - line[-2]
    assert captured != 0
    # the side that captured gained: sente when the capture was an odd ply count
    assert (captured > 0) == (len(moves) % 2 == 1)


def test_a_suite_line_reads_back() -> None:
    entry = SuitePosition("x.jsonl#1 ply 5", ("2j1j",), "sfen", "a", "b", -300, 20, 400)
    assert SuitePosition.parse(entry.line()) == entry


def test_a_resignation_is_not_a_solution() -> None:
    entry = SuitePosition("x#1 ply 1", (), "sfen", "1a1b", "2a2b", -300, 20, 400)
    answered = Answers("K", ["resign"], 0, 0.0)
    assert answered.solved([entry]) == [False]
    assert Answers("K", ["1a1b"], 0, 0.0).solved([entry]) == [False]
    assert Answers("K", ["3a3b"], 0, 0.0).solved([entry]) == [True]


LOG = Path(__file__).resolve().parents[2] / "data" / "bench" / "hachu"
# the afternoon's fifth game: Komabot (sente) plays 7j7i at ply 147 and loses a piece (with
# Wa's fitted values the deep search no longer faults the third game's 9k10j at ply 39: it
# finds nothing better there)
LOST_AT = 146  # its index in the game's moves


def _game_until_the_loss() -> list[str]:
    text = (LOG / "2026-11-26-afternoon.jsonl").read_text(encoding="utf-8").splitlines()[4]
    game = json.loads(text)
    assert game["a"].startswith("Komabot") and game["a_sente"]
    return [str(m) for m in game["moves"][: LOST_AT + 10]]


def test_build_keeps_the_losing_move_and_run_asks_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # at 30,000 nodes engine (l) finds 7j7i no worse than its best move (it faults 11j10i two
    # plies later instead); at 60,000 it sees the loss
    deep_nodes = 60_000
    moves = _game_until_the_loss()
    hung = LOST_AT
    log = tmp_path / "games.jsonl"
    game = {"a": "Komabot L8", "b": "HaChu", "variant": "wa", "a_sente": True, "moves": moves}
    game |= {"result": 0.0, "reason": "resigned"}
    log.write_text(json.dumps(game) + "\n", encoding="utf-8")
    suite = tmp_path / "suite.jsonl"
    args = ["build", str(log), "--out", str(suite), "--deep-nodes", str(deep_nodes)]
    assert main(args) == 0
    found = read_suite(suite)
    assert [p.avoid for p in found] == [moves[hung]]
    entry = found[0]
    assert entry.moves == tuple(moves[:hung])
    assert entry.best != entry.avoid
    assert entry.best_cp - entry.avoid_cp >= BuildSettings().margin
    # the engine asked for its moves
    capsys.readouterr()
    args = ["run", "--suite", str(suite), "--nodes", "300", "--judge-nodes", "3000"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"avoid {entry.avoid} {entry.avoid_cp}, deep {entry.best} {entry.best_cp}: " in out
    summary = out.splitlines()[-1]
    assert summary.startswith("Komabot L8: solved ") and f" of {len(found)} (" in summary
    assert ", the balance kept in " in summary
