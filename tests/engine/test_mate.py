"""The checks-only mate search: its checks against the rules core, the shipped mate problems
(their key move and length), its budget, and the search answering with a proven mate."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.checks import CheckTables
from engine.levels import LEVELS
from engine.mate import MateSearch
from engine.moves import StagedMoves
from engine.scores import MATE
from engine.search import Limits, Searcher
from rules import Move, Position, load_variant

from ..rules.random_games import random_positions, test_seed
from .mates import line_ends_in_mate

SEED = test_seed()
PUZZLES = Path(__file__).resolve().parents[2] / "data" / "puzzles"


def mate_search(variant_id: str) -> MateSearch:
    variant = load_variant(variant_id)
    return MateSearch(variant, CheckTables(variant), StagedMoves(variant))


def puzzles(variant_id: str, mate_in: int, count: int) -> list[dict[str, Any]]:
    lines = (PUZZLES / f"{variant_id}.jsonl").read_text(encoding="utf-8").splitlines()
    found = [json.loads(line) for line in lines]
    return [p for p in found if p["mate_in"] == mate_in][:count]


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
def test_checking_moves_are_the_legal_moves_that_check(variant_id: str) -> None:
    search = mate_search(variant_id)
    for pos in random_positions(variant_id, 80, SEED + 5):
        wanted = set()
        for move in pos.legal_moves():
            pos.make_unchecked(move)
            if pos.is_check():
                wanted.add(move)
            pos.pop()
        assert set(search.checking_moves(pos)) == wanted, (SEED, pos.sfen())


@pytest.mark.parametrize("variant_id", ["shogi", "wa", "wa-drops"])
@pytest.mark.parametrize("mate_in", [1, 3, 5])
def test_the_mate_problems_are_solved_with_their_key_move(variant_id: str, mate_in: int) -> None:
    search = mate_search(variant_id)
    variant = load_variant(variant_id)
    for puzzle in puzzles(variant_id, mate_in, 3):
        pos = Position.from_sfen(variant, puzzle["sfen"])
        before = pos.sfen()
        found = search.find(pos, mate_in, 100_000)
        assert pos.sfen() == before
        assert found is not None, puzzle["id"]
        move, plies = found
        assert plies == mate_in
        assert pos.usi(move) == puzzle["solution"][0]  # the key move is unique
        line = search.line(pos, move, plies, 100_000)
        assert pos.sfen() == before
        assert len(line) == plies and line_ends_in_mate(pos, pos_usi(pos, line))


def pos_usi(pos: Position, line: Sequence[Move]) -> tuple[str, ...]:
    probe = pos.copy()
    out = []
    for move in line:
        out.append(probe.usi(move))
        probe.push(move)
    return tuple(out)


def test_no_mate_shorter_than_the_problem_is_claimed() -> None:
    search = mate_search("shogi")
    for puzzle in puzzles("shogi", 5, 3):
        pos = Position.from_sfen(load_variant("shogi"), puzzle["sfen"])
        assert search.find(pos, 3, 100_000) is None


def test_a_spent_budget_gives_up_and_restores_the_position() -> None:
    search = mate_search("shogi")
    puzzle = puzzles("shogi", 7, 1)[0]
    pos = Position.from_sfen(load_variant("shogi"), puzzle["sfen"])
    before = (pos.sfen(), pos.hash, pos.ply)
    assert search.find(pos, 7, 10) is None
    assert (pos.sfen(), pos.hash, pos.ply) == before
    assert search.nodes == 10


def test_the_search_answers_with_the_proven_mate_and_its_line() -> None:
    variant = load_variant("shogi")
    puzzle = puzzles("shogi", 5, 1)[0]
    pos = Position.from_sfen(variant, puzzle["sfen"])
    result = Searcher(variant).search(pos, Limits(nodes=200_000), LEVELS[8])
    assert result.best is not None and pos.usi(result.best) == puzzle["solution"][0]
    assert result.score == MATE - 5 and len(result.pv) == 5
    assert line_ends_in_mate(pos, pos_usi(pos, result.pv))


def test_levels_without_a_mate_search_do_not_run_one() -> None:
    variant = load_variant("shogi")
    assert LEVELS[1].mate_plies == 0
    puzzle = puzzles("shogi", 5, 1)[0]
    pos = Position.from_sfen(variant, puzzle["sfen"])
    result = Searcher(variant).search(pos, Limits(nodes=2_000), LEVELS[1])
    assert result.iterations and result.iterations[0].depth == 1  # the main search ran


def test_a_stop_signal_ends_it_within_64_nodes() -> None:
    search = mate_search("shogi")
    puzzle = puzzles("shogi", 7, 1)[0]
    pos = Position.from_sfen(load_variant("shogi"), puzzle["sfen"])
    before = pos.sfen()
    assert search.find(pos, 7, 100_000, stopped=lambda: True) is None
    assert search.nodes == 64 and pos.sfen() == before
