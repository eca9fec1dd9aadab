"""The evaluation tuner (bench/tune_eval.py): positions labelled by a real USI engine, the
same bytes every run; the fit lowers its loss; the tables it prints, read back from a variant
file, give the evaluator it fitted."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from bench.match import HACHU, KOMABOT_MAIN
from bench.tune_eval import main, read_samples
from bench.tune_fit import Problem, current, descend, evaluator, teacher_scale, toml_sections
from bench.tune_positions import Sample
from engine.evaluation import Evaluator
from rules import Position, load_variant
from rules.variant import data_dir, read_variant_file

DATA = data_dir() / "tuning" / "shogi.tsv"
# the bot's own engine as the teacher: a real USI engine, offline and quick at tiny budgets
KOMABOT = shlex.join([sys.executable, "-c", KOMABOT_MAIN, "usi"])


def _positions(out: Path) -> str:
    args = ["positions", "--teacher", KOMABOT, "--games", "1", "--seed", "3"]
    args += ["--play-nodes", "30", "--depth", "1", "--skip", "4", "--every", "2"]
    args += ["--max-plies", "24", "--out", str(out)]
    assert main(args) == 0
    return out.read_text(encoding="utf-8")


def _quiet_positions(path: Path, variant_id: str) -> list[tuple[Position, Sample]]:
    """The file's samples with their positions; there are some, none in check."""
    variant = load_variant(variant_id)
    out = [(Position.from_sfen(variant, s.sfen), s) for s in read_samples(path)]
    assert out
    assert not any(pos.is_check() for pos, _ in out)
    return out


def test_positions_are_labelled_quiet_and_the_same_every_run(tmp_path: Path) -> None:
    text = _positions(tmp_path / "a.tsv")
    again = _positions(tmp_path / "b.tsv").replace("b.tsv", "a.tsv")  # the command's --out
    assert again == text
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert header[0].startswith("# teacher: Komabot")
    for _, sample in _quiet_positions(tmp_path / "a.tsv", "shogi"):
        assert sample.result in (0.0, 0.5, 1.0)
        assert sample.game == 0
        assert int(sample.sfen.split()[-1]) > 4  # the move number: from ply 4 on


@pytest.mark.skipif(shutil.which(HACHU) is None, reason="HaChu is not installed")
def test_wa_positions_of_a_logged_game_are_labelled_by_hachu(tmp_path: Path) -> None:
    log = data_dir() / "bench" / "hachu" / "2026-11-26-morning-1.jsonl"
    logged = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    games = tmp_path / "games.jsonl"
    aborted = logged | {"result": None}
    won = logged | {"result": 1.0, "a_sente": False, "moves": logged["moves"][:30]}
    games.write_text(json.dumps(aborted) + "\n" + json.dumps(won) + "\n", encoding="utf-8")

    def positions(out: Path) -> str:
        args = ["positions", "--variant", "wa", "--games-from", str(games), "--depth", "2"]
        args += ["--skip", "10", "--every", "4", "--out", str(out)]
        assert main(args) == 0
        return out.read_text(encoding="utf-8")

    text = positions(tmp_path / "a.tsv")
    assert positions(tmp_path / "b.tsv").replace("b.tsv", "a.tsv") == text
    assert text.startswith("# teacher: HaChu")
    for pos, sample in _quiet_positions(tmp_path / "a.tsv", "wa"):
        assert sample.game == 0  # the aborted game is left out, the won one is the first
        # a_sente false and a won: gote won, so the result follows the side to move
        assert sample.result == (0.0 if pos.side == 0 else 1.0)


def test_the_fit_lowers_the_loss_on_a_small_sample() -> None:
    samples = read_samples(DATA)[:100]
    variant = load_variant("shogi")
    problem = Problem.build(variant, samples, 0.25, teacher_scale(samples))
    start = current(variant)
    k = problem.fit_scale(start)
    weights = [key for key in start if key.startswith("evaluation.")]
    tuned = descend(problem, start, k, passes=1, keep=weights)  # the piece values only
    assert tuned != start
    assert all(tuned[key] == start[key] for key in weights)
    assert problem.loss(tuned, k) < problem.loss(start, k)
    again = descend(problem, start, k, passes=1, keep=weights)
    assert again == tuned  # deterministic


def test_the_printed_tables_read_back_give_the_fitted_evaluator(tmp_path: Path) -> None:
    variant = load_variant("shogi")
    params = current(variant)
    params["piece_values.+P"] = 640
    params["hand_values.S"] = 610
    params["evaluation.tempo"] = 31.5
    params["evaluation.zone_pressure_1"] = 0.07
    text = (data_dir() / "variants" / "shogi.toml").read_text(encoding="utf-8")
    start, end = text.index("[engine.piece_values]"), text.index("[pieces.K]")
    path = tmp_path / "shogi.toml"
    path.write_text(text[:start] + toml_sections(variant, params) + text[end:], encoding="utf-8")
    read_back = read_variant_file(path)
    fitted = evaluator(variant, params)
    from_file = Evaluator(read_back)
    assert from_file.values == fitted.values
    assert from_file.weights == fitted.weights
    for sample in read_samples(DATA)[:50]:
        assert from_file.full(Position.from_sfen(read_back, sample.sfen)) == fitted.full(
            Position.from_sfen(variant, sample.sfen)
        )


def test_the_teacher_scale_gives_the_engine_the_teachers_k(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = (data_dir() / "tuning" / "wa.tsv").read_text(encoding="utf-8").splitlines()
    data = tmp_path / "wa.tsv"
    games_1_2 = [line for line in lines if line.endswith(("\t1", "\t2"))]  # none held out
    data.write_text("\n".join(lines[:3] + games_1_2) + "\n", encoding="utf-8")
    args = ["fit", "--variant", "wa", "--data", str(data), "--passes", "0"]
    assert main([*args, "--teacher-scale"]) == 0
    out = capsys.readouterr().out
    teacher_k = out.split("teacher's scale K=")[1].split()[0]
    assert f"engine's scale K={teacher_k} (the teacher's)" in out
    assert main(args) == 0
    fitted = capsys.readouterr().out.split("engine's scale K=")[1].split()[0]
    assert fitted != teacher_k  # Komabot's starting values are far from HaChu's scale
