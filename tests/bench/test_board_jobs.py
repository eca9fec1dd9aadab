"""``bench/service.py --save-boards`` and ``bench/render.py --jobs``: saved board jobs come
back as they were and are drawn again, each worker's in order, with their CPU time and, with
``--where``, the parts of it; the functions timed are given back afterwards."""

from __future__ import annotations

from pathlib import Path

from bench.board_jobs import PARTS, draw_again, load_jobs, report, save_jobs
from render import board, png
from render.board_job import board_job
from render.options import BoardOptions
from tests.render.conftest import game_positions


def _jobs() -> list[tuple[int, int, object]]:
    options = BoardOptions(sente_name="Hanako", gote_name="Алексей")
    shogi = game_positions("shogi", 14, 3)
    wa = game_positions("wa-drops", 14, 4)
    jobs = []
    for ply in (10, 11, 12):  # two games in turn, as the service draws them
        jobs.append((0, 1, board_job(shogi[ply], options)))
        jobs.append((0, 2, board_job(wa[ply], options)))
    return jobs


def test_saved_jobs_are_drawn_again_and_timed_part_by_part(tmp_path: Path) -> None:
    path = tmp_path / "jobs.pickle"
    jobs = _jobs()
    save_jobs(path, jobs)  # type: ignore[arg-type]
    assert load_jobs(path) == jobs
    originals = [getattr(holder, name) for holder, name, _ in PARTS]
    [drawn] = draw_again(load_jobs(path), where=True, warm=False)
    assert [getattr(holder, name) for holder, name, _ in PARTS] == originals
    assert board._rank_band is originals[3] and png._deflate_band is originals[-1]
    assert len(drawn.cpu) == 6 and all(c > 0 for c in drawn.cpu)
    assert drawn.first == [True, True, False, False, False, False]
    assert drawn.counts["boards"] == 6
    # the first board of each game deflates every band but those shared with an earlier one
    assert drawn.calls["encode: deflate bands"] >= 2 * 9
    assert drawn.calls["ranks from tiles"] >= 9 + 11
    assert 0 < sum(drawn.parts.values()) <= sum(drawn.cpu) * 1.05
    text = report(drawn)
    assert "a game's first board:" in text and "(2)" in text and "(4)" in text
    for _, _, label in PARTS:
        assert label in text


def test_each_worker_is_drawn_from_empty_caches(tmp_path: Path) -> None:
    jobs = _jobs()
    twice = jobs + [(1, game, job) for _, game, job in jobs]
    first, second = draw_again(twice, warm=False)  # type: ignore[arg-type]
    assert first.first == second.first
    assert first.counts == second.counts  # the same caches' work: none kept from the first
    assert second.per_board == []  # parts not timed
