"""The shipped collections in data/puzzles: well formed, a random sample proven again at
every run, and every solution confirmed by programs that share no code with the prover:
cshogi for Standard Shogi, the naive move generator of tests/rules for Wa."""

from __future__ import annotations

import random

import cshogi
import pytest

from puzzles.collection import check, collection_path, load
from puzzles.prover import DEFAULT_NODE_LIMIT, Prover
from puzzles.puzzle import Puzzle, position_key, puzzle_id
from rules import Position, load_variant
from tests.rules.naive import naive_in_check, naive_legal_moves

# what data/puzzles holds at least
SHIPPED = {"shogi": 300, "wa-drops": 300, "wa": 100}
SAMPLE = 3  # puzzles of each variant proven again per run, chosen at random


def shipped(variant: str) -> list[Puzzle]:
    return load(collection_path(variant))


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_the_collection_is_well_formed(variant: str) -> None:
    puzzles = shipped(variant)
    assert len(puzzles) >= SHIPPED[variant]
    assert len({position_key(p.sfen) for p in puzzles}) == len(puzzles)
    order = [(p.mate_in, p.difficulty, p.id) for p in puzzles]
    assert order == sorted(order)
    lengths = set()
    for p in puzzles:
        assert p.variant == variant
        assert p.id == puzzle_id(variant, p.sfen)
        pos = Position.from_sfen(load_variant(variant), p.sfen)
        assert p.side == ("sente" if pos.side == 0 else "gote")
        assert p.mate_in % 2 == 1 and len(p.solution) == p.mate_in
        assert p.mate_in <= p.difficulty <= p.mate_in + 1
        lengths.add(p.mate_in)
    assert {1, 3, 5} <= lengths  # graded: more than one length


@pytest.mark.parametrize("variant", sorted(SHIPPED))
def test_a_random_sample_is_proven_again(variant: str) -> None:
    sample = random.sample(shipped(variant), SAMPLE)
    for puzzle in sample:
        assert check(puzzle) == [], puzzle.id


def _cshogi_mates_in_one(board: cshogi.Board) -> list[str]:
    """Every move that mates at once, by trying each (``mate_move_in_1ply`` is a fast
    pattern test that misses some, a dragon's retreat for one)."""
    found = []
    for move in board.legal_moves:
        board.push(move)
        if board.is_check() and board.is_game_over():
            found.append(cshogi.move_to_usi(move))
        board.pop()
    return found


def _cshogi_mate_within(board: cshogi.Board, plies: int) -> bool:
    if plies == 1:
        return bool(_cshogi_mates_in_one(board))
    return bool(board.mate_move(plies) != 0)


def test_cshogi_confirms_every_shogi_puzzle() -> None:
    for puzzle in shipped("shogi"):
        plies = puzzle.mate_in
        board = cshogi.Board(puzzle.sfen)
        # the line: legal, a check at every attacking move, mate at the end
        for i, text in enumerate(puzzle.solution):
            move = board.move_from_usi(text)
            assert board.is_legal(move), (puzzle.id, text)
            board.push(move)
            assert i % 2 == 1 or board.is_check(), (puzzle.id, text)
        assert board.is_check() and board.is_game_over(), puzzle.id
        # no shorter mate; the mate in ``plies`` exists
        board = cshogi.Board(puzzle.sfen)
        assert _cshogi_mate_within(board, plies), puzzle.id
        if plies >= 3:
            assert not _cshogi_mate_within(board, plies - 2), puzzle.id
        # the key move is the only first move that mates in ``plies``
        if plies == 1:
            mating = _cshogi_mates_in_one(board)
        else:
            mating = []
            for move in board.legal_moves:
                board.push(move)
                if (
                    board.is_check()
                    and cshogi.DfPn(plies - 1, 2_000_000).search_andnode(board)
                    and not _only_with_useless_interpositions(puzzle, board, move, plies)
                ):
                    mating.append(cshogi.move_to_usi(move))
                board.pop()
        assert mating == [puzzle.solution[0]], (puzzle.id, mating)


def _only_with_useless_interpositions(
    puzzle: Puzzle, board: cshogi.Board, move: int, plies: int
) -> bool:
    """cshogi's mate search, as composed tsume do, does not count an interposition the
    attacker just captures; the collection counts every ply as played.  A second first move
    cshogi finds is no counterexample when (a) the line cshogi gives for it is longer than
    ``plies`` counted ply by ply (or cshogi finds none within them after some reply: an
    interposition it does not count, after which the mate takes longer), and (b) the rules
    core's prover, with ten times the collection's node budget, finds no mate in ``plies``
    after it either."""
    usi = cshogi.move_to_usi(move)
    if usi == puzzle.solution[0]:
        return False
    search = cshogi.DfPn(plies - 1, 2_000_000)
    longest = 0
    for reply in list(board.legal_moves):  # the line against every reply, counted ply by ply
        board.push(reply)
        # no mate within the plies left after this reply: the line is longer than ``plies``
        line = 2 + len(search.get_pv(board)) if search.search(board) else plies + 1
        longest = max(longest, line)
        board.pop()
    if longest <= plies:
        return False
    pos = Position.from_sfen(load_variant("shogi"), puzzle.sfen)
    pos.make_unchecked(pos.parse_usi(usi))
    return not Prover(10 * DEFAULT_NODE_LIMIT).defence_fails(pos, plies - 1)


@pytest.mark.parametrize("variant", ["wa", "wa-drops"])
def test_the_naive_generator_confirms_every_wa_line(variant: str) -> None:
    wa = load_variant(variant)
    for puzzle in shipped(variant):
        pos = Position.from_sfen(wa, puzzle.sfen)
        for i, text in enumerate(puzzle.solution):
            move = pos.parse_usi(text)
            assert move in naive_legal_moves(pos), (puzzle.id, text)
            pos.make_unchecked(move)
            assert i % 2 == 1 or naive_in_check(pos), (puzzle.id, text)
        assert naive_in_check(pos) and not naive_legal_moves(pos), puzzle.id


@pytest.mark.parametrize("variant", ["wa", "wa-drops"])
def test_the_naive_generator_finds_one_key_in_sampled_wa_mates_in_one(variant: str) -> None:
    wa = load_variant(variant)
    ones = [p for p in shipped(variant) if p.mate_in == 1]
    for puzzle in random.sample(ones, min(SAMPLE, len(ones))):
        pos = Position.from_sfen(wa, puzzle.sfen)
        mating = []
        for move in naive_legal_moves(pos):
            pos.make_unchecked(move)
            if naive_in_check(pos) and not naive_legal_moves(pos):
                mating.append(pos.usi(move))
            pos.undo()
        assert mating == list(puzzle.solution), puzzle.id
