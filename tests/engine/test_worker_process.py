"""``think`` in a worker process: picklable in and out, stoppable from the caller."""

from __future__ import annotations

import multiprocessing
import pickle
import time
from concurrent.futures import ProcessPoolExecutor

from engine import Result, think
from rules import Position, load_variant


def test_result_pickles() -> None:
    result = think("wa", nodes=300)
    copy = pickle.loads(pickle.dumps(result))
    assert isinstance(copy, Result) and copy == result


def test_think_in_a_process_pool_and_stop_it() -> None:
    context = multiprocessing.get_context("spawn")  # what a long-lived bot must use with threads
    with multiprocessing.Manager() as manager, ProcessPoolExecutor(1, mp_context=context) as pool:
        quick = pool.submit(think, "shogi", "startpos", ["7g7f"], nodes=500, seed=1)
        result = quick.result(timeout=60)
        pos = Position.start(load_variant("shogi"))
        pos.push_usi("7g7f")
        assert result.best_move in {pos.usi(m) for m in pos.legal_moves()}

        stop = manager.Event()
        long = pool.submit(think, "wa-drops", movetime_ms=120_000, stop=stop)
        time.sleep(1.0)
        asked = time.perf_counter()
        stop.set()
        stopped = long.result(timeout=30)
        assert time.perf_counter() - asked < 5
        assert stopped.best_move is not None and stopped.time_ms < 60_000
