"""A search at a fixed depth gives the recorded move, score and node count (see
``fixed_depth.py``): what keeps a speed-up of the move generator, the position or the
evaluation from changing what the engine plays."""

from __future__ import annotations

import pytest

from .fixed_depth import Answer, recorded, search


@pytest.mark.parametrize(
    "answer", recorded(), ids=lambda a: f"{a.variant}-{len(a.moves)}-plies-depth-{a.depth}"
)
def test_fixed_depth_search_gives_the_recorded_answer(answer: Answer) -> None:
    assert search(answer.variant, answer.moves, answer.depth) == answer
