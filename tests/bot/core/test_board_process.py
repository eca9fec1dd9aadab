"""Boards drawn in worker processes: the same bytes as drawn here; a worker that dies or hangs
is replaced and the board still comes; closing does not wait for a worker."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import os
import signal
import time

import pytest

from bot.core import board_process
from bot.core.board_process import BoardProcesses, DrawerLost
from bot.core.pictures import Pictures
from bot.store.models import ChatSettings
from render import BoardOptions, render_board
from render.board_job import BoardJob, board_job, draw_board_job
from rules import Position, load_variant
from tests.render.conftest import game_positions

NAMES = ("Hanako", "Алексей")


@functools.cache
def _boards() -> list[tuple[Position, BoardOptions]]:
    """Positions of every variant (pieces in hand, checks, promotions) with various looks."""
    looks = [
        BoardOptions(sente_name="Hanako", gote_name="Алексей"),
        BoardOptions(perspective="gote", style="international", coordinates="japanese"),
        BoardOptions(sente_name="B", highlight=(3, 14, 40), result="Hanako wins"),
    ]
    out = []
    for variant_id in ("shogi", "wa", "wa-drops"):
        positions = game_positions(variant_id, 60, 5)
        for k, ply in enumerate((0, 17, 31, len(positions) - 1)):
            out.append((positions[ply], looks[k % len(looks)]))
    return out


async def _started(processes: BoardProcesses) -> list[int]:
    processes.start()
    assert await processes.wait_ready(60)
    return processes.pids


async def test_a_board_from_a_worker_is_the_board_drawn_here() -> None:
    processes = BoardProcesses(2, warm=False)
    try:
        assert len(await _started(processes)) == 2
        processes.journal = journal = []
        jobs = []
        for game, (pos, options) in enumerate(_boards()):
            jobs.append(board_job(pos, options))
            png = await processes.draw(game, jobs[-1])
            assert png == render_board(pos, options)  # the position with all its history
        # the jobs sent, in order, each with its worker and game (for bench/service.py)
        assert journal == [(processes.worker_of(g), g, job) for g, job in enumerate(jobs)]
        stats = await processes.stats()
        assert sum(s["boards"] for s in stats) == len(_boards())
        assert all(s["cpu"] > 0 for s in stats)
    finally:
        processes.close()
    assert processes.pids == []


async def test_a_failed_drawing_fails_that_board_only() -> None:
    pos, options = _boards()[0]
    processes = BoardProcesses(1, warm=False)
    try:
        [pid] = await _started(processes)
        bad = BoardJob("no-such-variant", (), ((), ()), 0, 1, options)
        with pytest.raises(DrawerLost, match="no-such-variant"):
            await processes.draw(0, bad)
        assert await processes.draw(0, board_job(pos, options)) == render_board(pos, options)
        assert processes.pids == [pid]  # the same worker
    finally:
        processes.close()


def _pictures_job(pos: Position) -> BoardJob | None:
    """The job ``Pictures`` makes of ``pos`` for a chat with default settings."""
    return Pictures()._job(pos, ChatSettings(), NAMES, (), "")


async def test_a_killed_worker_is_started_again_and_the_boards_still_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(board_process, "RESTART_SECONDS", 0.0)
    positions = [pos for pos, _ in _boards()]
    pictures = Pictures()
    pictures.start(warm=False)
    processes = pictures.processes
    assert processes is not None
    try:
        [victim] = await _started(processes)
        # killed while it draws: the board is drawn here instead
        drawing = asyncio.ensure_future(
            pictures.board_attachment(positions[1], ChatSettings(), NAMES)
        )
        await asyncio.sleep(0)
        os.kill(victim, signal.SIGKILL)
        board = await drawing
        job = _pictures_job(positions[1])
        assert job is not None and board is not None and board.data == draw_board_job(job)
        # until a new worker is ready, boards are drawn here; then by the new worker
        async with asyncio.timeout(60):
            while processes.pids in ([], [victim]) or not await processes.wait_ready(0.1):
                board = await pictures.board_attachment(positions[2], ChatSettings(), NAMES)
                assert board is not None
                await asyncio.sleep(0.05)
        assert processes.starts == 2 and processes.pids != [victim]
        before = (await processes.stats())[0]["boards"]
        board = await pictures.board_attachment(positions[3], ChatSettings(), NAMES)
        job = _pictures_job(positions[3])
        assert job is not None and board is not None and board.data == draw_board_job(job)
        assert (await processes.stats())[0]["boards"] == before + 1  # drawn by the worker
    finally:
        pictures.close()
    assert processes.pids == []


async def test_a_hung_worker_is_killed_and_closing_does_not_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(board_process, "DRAW_TIMEOUT", 0.5)
    monkeypatch.setattr(board_process, "RESTART_SECONDS", 0.0)
    pos, _ = _boards()[5]
    pictures = Pictures()
    pictures.start(warm=False)
    processes = pictures.processes
    assert processes is not None
    try:
        [pid] = await _started(processes)
        os.kill(pid, signal.SIGSTOP)  # it hangs
        board = await pictures.board_attachment(pos, ChatSettings(), NAMES)
        job = _pictures_job(pos)
        assert job is not None and board is not None and board.data == draw_board_job(job)
        assert pid not in processes.pids  # killed
        await _started(processes)
        [pid] = processes.pids
        os.kill(pid, signal.SIGSTOP)
        drawing = asyncio.ensure_future(pictures.board_attachment(pos, ChatSettings(), NAMES))
        await asyncio.sleep(0.05)
        began = time.monotonic()
        pictures.close()  # with a board under way: it does not wait for it
        assert time.monotonic() - began < 2
        await asyncio.wait_for(drawing, 2)  # and that board's answer comes (without it)
    finally:
        pictures.close()
    assert processes.pids == []


def test_a_job_leaves_out_the_history_and_keeps_the_last_move() -> None:
    pos = Position.start(load_variant("wa-drops"))
    for usi in ("8h8g", "2c2d", "8g8f"):
        pos.push_usi(usi)
    job = board_job(pos, BoardOptions())
    assert job.options.last_move == pos.last_move and job.move_number == 4
    pos.push_usi("2d2e")  # the job was taken before: it does not change
    assert job.options.last_move != pos.last_move and job.move_number == 4
    hidden = board_job(pos, BoardOptions(show_last_move=False))
    assert hidden.options.last_move is None
    shown = dataclasses.replace(BoardOptions(), last_move=pos.move_stack[0])
    assert board_job(pos, shown).options.last_move == pos.move_stack[0]  # the caller's kept


def test_a_worker_gets_ready_with_the_collector_off_and_what_it_made_frozen() -> None:
    try:
        board_process.get_ready(warm=False)
        assert not gc.isenabled()  # drawing makes no cycles: no collection mid-board
        assert gc.get_freeze_count() > 0
        assert gc.get_count()[0] < 50  # everything before it is frozen
    finally:
        gc.unfreeze()
        gc.enable()


@pytest.mark.skipif(board_process._memory_giver() is None, reason="the C library is not glibc")
async def test_an_idle_worker_gives_freed_memory_back_once_after_drawing() -> None:
    """The C allocator keeps what drawing freed: a worker gives it back when no board has
    been asked for by the time a trim is due, once after each spell of drawing (not while
    it waits with nothing drawn since)."""
    processes = BoardProcesses(1, warm=False, trim_seconds=0.05)
    try:
        await _started(processes)
        await asyncio.sleep(0.3)
        assert (await processes.stats())[0]["trims"] == 0  # nothing drawn yet
        pos, options = _boards()[0]
        assert await processes.draw(0, board_job(pos, options)) == render_board(pos, options)
        await asyncio.sleep(0.3)
        assert (await processes.stats())[0]["trims"] == 1
        await asyncio.sleep(0.3)
        assert (await processes.stats())[0]["trims"] == 1  # idle since: nothing to give back
    finally:
        processes.close()
