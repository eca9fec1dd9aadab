"""The service benchmark's games stand each in a position of their own (issue 26): no board
of a run can be another game's."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench.service_games import OWN_PLIES, SHARED_PLIES, plan, pure_reference
from rules import Position, load_variant
from rules.notation import parse_move


def test_no_two_games_reach_the_same_position_and_every_move_is_legal() -> None:
    games = plan(60, 4, seed=7)
    assert Counter(game.variant for game in games) == {"shogi": 30, "wa": 30}
    seen: set[tuple[str, str]] = set()
    styles: Counter[str] = Counter()
    for game in games:
        low, high = SHARED_PLIES
        assert low + OWN_PLIES <= len(game.history) <= high + OWN_PLIES
        pos = Position.start(load_variant(game.variant))
        for usi in game.history:
            pos.push(pos.parse_usi(usi))  # checked: the stored history is legal
        for typed, usi in zip(game.typed, game.usis, strict=True):
            move = parse_move(pos, typed)  # as the service reads it
            assert pos.usi(move) == usi
            styles["usi" if typed == usi else "japanese" if not typed.isascii() else "western"] += 1
            pos.push(move)
            assert pos.outcome() is None
            reached = (game.variant, pos.sfen(with_move_number=False))
            assert reached not in seen
            seen.add(reached)
    assert len(seen) == 60 * 4
    assert all(styles[s] > 20 for s in ("usi", "western", "japanese")), styles


def test_the_plan_is_the_same_from_run_to_run() -> None:
    assert plan(6, 2, seed=3) == plan(6, 2, seed=3)


def test_the_pure_python_reference_plays_the_moves_in_a_process_of_its_own(tmp_path: Path) -> None:
    """The reference issue 26's targets were set against: the same moves, pure Python (the
    process asserts it runs no compiled module), wall and CPU seconds."""
    wall, cpu = pure_reference(plan(4, 2, seed=5), 2, tmp_path)
    assert wall > 0 and cpu > 0
