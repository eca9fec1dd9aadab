"""/puzzle on the console service: solve, fail, hint, reveal, the session across a restart,
moves shared with games, ratings as Glicko-2 says, refusals that change nothing."""

from __future__ import annotations

import random

import pytest

from bot import glicko2
from bot.core.puzzle_book import SEED_DEVIATION, PuzzleBook, level_of, seed_rating
from bot.core.puzzle_judge import Verdict, judge
from bot.store.models import PuzzleSession
from rules import Position, load_variant
from tests.bot.core.harness import ALICE, BOB, MAIN, Harness
from tests.bot.core.puzzle_fixtures import (
    DEFENCE,
    ESCAPING_CHECK,
    KEY,
    MATE,
    PUZZLE_ID,
    QUIET,
)
from tests.bot.core.puzzle_fixtures import the_puzzle as fixture_puzzle

ELSEWHERE = MAIN.__class__("console", "elsewhere")


def the_puzzle() -> Position:
    return Position.from_sfen(load_variant("shogi"), fixture_puzzle().sfen)


async def test_a_puzzle_is_given_with_its_task_hands_sfen_and_board(p: Harness) -> None:
    reply = await p.say(ALICE, "puzzle")
    assert f"Puzzle {PUZZLE_ID} · Standard Shogi · rated 1250" in reply.text
    assert "Sente to play and mate in 3." in reply.text
    assert "In hand: Sente: Gold General, 6 × Pawn; Gote: none" in reply.text
    assert the_puzzle().sfen() in reply.text
    assert reply.text_board is not None and "Alice" in reply.text_board
    session = await p.store.puzzle_session(ALICE.key)
    assert session is not None and session.puzzle_id == PUZZLE_ID and session.moves == ()


async def test_solved_move_by_move_with_the_defence_answering(p: Harness) -> None:
    await p.say(ALICE, "puzzle")
    reply = await p.say(ALICE, "puzzle", KEY)
    assert "G*5b: right. The defence answers Gx5b." in reply.text
    assert "Mate in 1 from here." in reply.text
    session = await p.store.puzzle_session(ALICE.key)
    assert session is not None and session.moves == (KEY, DEFENCE)
    reply = await p.say(ALICE, "move", MATE)  # no game to move in: /move goes to the puzzle
    assert "+Bx5b: checkmate!" in reply.text and "Solved." in reply.text
    after = glicko2.update(glicko2.Rating(), [(glicko2.Rating(1250.0, SEED_DEVIATION), 1.0)])
    assert f"Puzzle rating: 1500? → {glicko2.shown(after)}" in reply.text
    assert await p.store.puzzle_session(ALICE.key) is None
    mine = await p.store.puzzle_rating("console", "main", ALICE.key)
    assert mine is not None and mine.rating == pytest.approx(after.rating)
    assert mine.attempts == 1
    puzzle_after = glicko2.update(glicko2.Rating(1250.0, SEED_DEVIATION), [(glicko2.Rating(), 0.0)])
    moved = await p.store.puzzle_difficulties()
    assert moved[PUZZLE_ID][0] == pytest.approx(puzzle_after.rating)
    assert await p.store.puzzles_done(ALICE.key) == {PUZZLE_ID}


async def test_wrong_moves_say_what_is_wrong_and_count_as_failed(p: Harness) -> None:
    await p.say(ALICE, "puzzle")
    reply = await p.say(ALICE, "puzzle", QUIET)
    assert "P-5f is not a check" in reply.text
    assert "This puzzle now counts as not solved." in reply.text
    reply = await p.say(ALICE, "puzzle", ESCAPING_CHECK)
    assert "+Rx6a is check, but the king escapes: Kx6a" in reply.text
    assert "counts as not solved" not in reply.text  # said once
    assert reply.text_board is not None  # the board where the king went
    session = await p.store.puzzle_session(ALICE.key)
    assert session is not None and session.failed and session.moves == ()
    await p.say(ALICE, "puzzle", KEY)
    reply = await p.say(ALICE, "puzzle", MATE)
    assert "Solved, after a wrong move: it counts as not solved." in reply.text
    mine = await p.store.puzzle_rating("console", "main", ALICE.key)
    assert mine is not None and mine.rating < glicko2.START_RATING


async def test_hints_name_the_piece_then_the_square_and_halve_the_score(p: Harness) -> None:
    await p.say(ALICE, "puzzle")
    reply = await p.say(ALICE, "puzzle", "hint")
    assert "Hint: drop a Gold General from the hand." in reply.text
    reply = await p.say(ALICE, "puzzle", "hint")
    assert "Hint: drop a Gold General on 5b." in reply.text
    await p.say(ALICE, "puzzle", KEY)
    reply = await p.say(ALICE, "puzzle", "hint")  # the board's piece, after the defence
    assert "Hint: move the Horse on 5c." in reply.text
    reply = await p.say(ALICE, "puzzle", MATE)
    assert "Solved, with a hint: it counts as half solved." in reply.text
    after = glicko2.update(glicko2.Rating(), [(glicko2.Rating(1250.0, SEED_DEVIATION), 0.5)])
    mine = await p.store.puzzle_rating("console", "main", ALICE.key)
    assert mine is not None and mine.rating == pytest.approx(after.rating)


async def test_the_solution_is_revealed_and_counts_as_failed(p: Harness) -> None:
    await p.say(ALICE, "puzzle")
    reply = await p.say(ALICE, "puzzle", "solution")
    assert "Solution: 1. G*5b 2. Gx5b 3. +Bx5b" in reply.text
    assert "Puzzle rating: 1500? →" in reply.text and "(-" in reply.text
    assert await p.store.puzzle_session(ALICE.key) is None
    reply = await p.say(ALICE, "puzzle", "solution")
    assert reply.ephemeral and "no puzzle in progress" in reply.text


async def test_the_session_survives_a_restart(p: Harness) -> None:
    await p.say(ALICE, "puzzle")
    await p.say(ALICE, "puzzle", KEY)
    await p.restart()
    reply = await p.say(ALICE, "puzzle")
    assert "Your puzzle in progress:" in reply.text
    assert "Played so far: 1. G*5b 2. Gx5b" in reply.text
    reply = await p.say(ALICE, "puzzle", MATE)
    assert "Solved." in reply.text


async def test_a_game_here_takes_move_and_the_puzzle_takes_it_elsewhere(p: Harness) -> None:
    await p.start_game(ALICE, BOB)
    await p.say(ALICE, "puzzle")
    reply = await p.say(ALICE, "move", "7g7f")  # the game in this chat
    assert "7f" in reply.text and "right" not in reply.text
    game = await p.store.active_game(MAIN, ALICE.key)
    assert game is not None and game.moves == ("7g7f",)
    reply = await p.say(ALICE, "move", KEY, chat=ELSEWHERE)  # no game there: the puzzle
    assert "right" in reply.text
    reply = await p.say(ALICE, "puzzle", MATE)  # /puzzle always means the puzzle
    assert "Solved." in reply.text
    game = await p.store.active_game(MAIN, ALICE.key)
    assert game is not None and game.moves == ("7g7f",)


async def test_refusals_change_nothing(p: Harness) -> None:
    reply = await p.say(ALICE, "puzzle", "hint")
    assert reply.ephemeral and "no puzzle in progress" in reply.text
    reply = await p.say(ALICE, "puzzle", "banana")
    assert reply.ephemeral and "banana is neither a variant" in reply.text
    await p.say(ALICE, "puzzle")
    for bad in ("banana", "5a5b", "G*9z", "x" * 5000):
        reply = await p.say(ALICE, "puzzle", bad)
        assert reply.ephemeral, (bad, reply.text)
    reply = await p.say(ALICE, "puzzle", "wa")
    assert reply.ephemeral and f"You are solving puzzle {PUZZLE_ID}" in reply.text
    session = await p.store.puzzle_session(ALICE.key)
    assert session is not None and session.moves == () and not session.failed
    reply = await p.say(ALICE, "puzzle", "move")
    assert reply.ephemeral and "Which move?" in reply.text
    reply = await p.say(BOB, "puzzle", "wa-drops")  # another player, another variant: no file
    assert reply.ephemeral and "There are no puzzles for Wa Shogi with drops yet." in reply.text


async def test_every_language_speaks_the_puzzle(p: Harness) -> None:
    for lang, task in (("ru", "мат в 3 хода"), ("ja", "3手詰め"), ("pl", "mat w 3 posunięciach")):
        await p.say(ALICE, "settings", "language", lang)
        reply = await p.say(ALICE, "puzzle")
        assert task in reply.text, reply.text
    reply = await p.say(ALICE, "puzzle", QUIET)
    assert "nie szach" in reply.text


async def test_help_explains_which_move_goes_where(p: Harness) -> None:
    reply = await p.say(ALICE, "help", "puzzle")
    assert "/puzzle" in reply.text and "a game in progress here always takes /move" in reply.text


def test_any_mate_as_fast_is_right_and_the_judge_tells_wrong_moves_apart() -> None:
    pos = the_puzzle()
    assert judge(pos, pos.parse_usi(KEY), 3).verdict is Verdict.RIGHT
    assert judge(pos, pos.parse_usi(QUIET), 3).verdict is Verdict.NOT_CHECK
    escaping = judge(pos, pos.parse_usi(ESCAPING_CHECK), 3)
    assert escaping.verdict is Verdict.ESCAPES and escaping.reply is not None
    pos.push_usi(KEY)
    pos.push_usi(DEFENCE)
    assert judge(pos, pos.parse_usi(MATE), 1).verdict is Verdict.SOLVED


def test_pick_offers_unseen_puzzles_near_the_level() -> None:
    book = PuzzleBook()
    every = book.of_variant("shogi")
    assert len(every) >= 300
    rng = random.Random(1)
    level = level_of(glicko2.START_RATING, glicko2.MAX_DEVIATION)
    chosen = book.pick("shogi", level, frozenset(), {}, rng)
    assert chosen is not None
    nearest = sorted(abs(seed_rating(q)[0] - level) for q in every)[4]
    assert abs(seed_rating(chosen)[0] - level) <= nearest
    done = frozenset(q.id for q in every if q.id != every[0].id)
    assert book.pick("shogi", level, done, {}, rng) == every[0]  # the only one not seen
    moved = {every[0].id: (level, 50.0)}
    far = book.pick("shogi", level, frozenset(), moved, rng)
    assert far is not None
    assert book.pick("wa", 3000.0, frozenset(), {}, rng) is not None


async def test_the_puzzle_leaderboard_lists_settled_puzzle_ratings(p: Harness) -> None:
    reply = await p.say(ALICE, "leaderboard", "puzzles")
    assert "No one here has a settled puzzle rating yet" in reply.text
    assert "You have not finished a puzzle here yet" in reply.text
    finished = 0
    while True:  # solved and given up in turn: the rating settles near the puzzle's
        await p.say(ALICE, "puzzle")
        if finished % 2:
            await p.say(ALICE, "puzzle", "solution")
        else:
            await p.say(ALICE, "puzzle", KEY)
            assert "Solved." in (await p.say(ALICE, "puzzle", MATE)).text
        finished += 1
        mine = await p.store.puzzle_rating("console", "main", ALICE.key)
        assert mine is not None and finished < 30
        if mine.deviation <= glicko2.PROVISIONAL_DEVIATION:
            break
        reply = await p.say(ALICE, "leaderboard", "puzzles")
        assert "is still provisional" in reply.text
    await p.say(BOB, "puzzle")
    await p.say(BOB, "puzzle", "solution")
    reply = await p.say(ALICE, "leaderboard", "puzzles")
    shown = glicko2.shown(glicko2.Rating(mine.rating, mine.deviation))
    assert "🏆 Puzzle ratings, this chat (page 1 of 1)" in reply.text, reply.text
    assert f"1. Alice {shown} ±{round(mine.deviation)} · puzzles: {finished} ◀" in reply.text
    assert "Bob" not in reply.text  # provisional after one puzzle
    assert f"Your place: 1 of 1 ({shown})." in reply.text
    reply = await p.say(ALICE, "leaderboard", "puzzles", "2")
    assert reply.ephemeral
    reply = await p.say(ALICE, "leaderboard", "wa")  # the games' board is as it was
    assert "No one here has a settled Wa Shogi rating yet" in reply.text


async def test_a_puzzle_gone_from_the_collection_is_put_aside_unrated(p: Harness) -> None:
    gone = PuzzleSession(
        ALICE.key, "console", "main", "main", "shogi-0000000000", (), False, 0, -1, 1.0, 1.0
    )
    assert await p.store.start_puzzle(gone)
    reply = await p.say(ALICE, "puzzle")
    assert reply.ephemeral and "no longer in the collection" in reply.text
    reply = await p.say(ALICE, "puzzle", KEY)
    assert reply.ephemeral and "/puzzle solution ends it" in reply.text
    reply = await p.say(ALICE, "puzzle", "solution")
    assert "it is put aside, unrated" in reply.text
    assert await p.store.puzzle_rating("console", "main", ALICE.key) is None
    assert PUZZLE_ID in (await p.say(ALICE, "puzzle")).text
