"""The match runner's bridge and referee (bench/match.py, bench/match_players.py) with tiny
scripted engines: moves translated both ways, a crashed xboard engine started again and given
the game so far, an illegal move aborting the game, results counted and rated."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from bench.level_ratings import (
    covariance,
    elo_interval,
    ratings_table,
    results_from_logs,
    round_robin_elo,
    search_from_logs,
    search_table,
    step_interval,
)
from bench.match import (
    CRAZYWA,
    FAIRY_STOCKFISH,
    HACHU,
    GameRecord,
    PlayerSpec,
    convert_jobs,
    play_game,
    play_on_jobs,
    random_opening,
    run_job,
    summary,
)
from bench.match import main as match_main
from bench.match_log import append_game
from bench.match_players import (
    MAX_RESTARTS,
    Player,
    UsiPlayer,
    XboardPlayer,
    demoted_twins,
    xboard_fen,
)
from rules import Position, load_variant

FAKE = str(Path(__file__).parent / "data" / "fake_engines.py")


def xboard(moves: str, marker: str = "", crash_pv: str = "") -> XboardPlayer:
    extra = [marker, crash_pv] if crash_pv else [marker] if marker else []
    command = [sys.executable, FAKE, "xboard", moves, *extra]
    return XboardPlayer("fake xboard", command, "wa-shogi", (("Allow repeats", "1"),), 50)


def usi(moves: str) -> UsiPlayer:
    return UsiPlayer("fake usi", (sys.executable, FAKE, "usi", moves), (), 50)


def wa_game(a: Player, b: Player, max_plies: int) -> GameRecord:
    """A Wa game of ``a`` (sente) against ``b`` from the start, both closed after it."""
    try:
        return play_game(load_variant("wa"), a, b, True, [], max_plies=max_plies)
    finally:
        a.close()
        b.close()


def test_a_game_to_the_ply_cap_with_moves_translated_both_ways() -> None:
    a = usi("7i7h,6i6h")
    b = xboard("e9e8,c9c8")  # gote's pawns: USI 7c7d and 9c9d
    record = wa_game(a, b, max_plies=4)
    assert record.moves == ["7i7h", "7c7d", "6i6h", "9c9d"]
    assert (record.result, record.reason, record.crashes) == (0.5, "ply cap", 0)
    assert record.depths == {"a": [3, 3], "b": [7, 7]}
    assert record.nodes == {"a": [99, 99], "b": [345, 345]}


def test_a_crashed_xboard_engine_is_started_again_and_the_game_goes_on(tmp_path: Path) -> None:
    a = usi("7i7h,6i6h")
    b = xboard("e9e8,c9c8", str(tmp_path / "crashed"))
    record = wa_game(a, b, max_plies=4)
    assert record.crashes == 1
    assert record.moves == ["7i7h", "7c7d", "6i6h", "9c9d"]
    assert record.result == 0.5
    assert (record.cut_moves, record.capped_moves) == (0, 1)  # it had printed no variation


def test_a_crash_after_a_legal_variation_plays_its_first_move(tmp_path: Path) -> None:
    # as if its time had run out at the crash: its best move so far, no search again
    a = usi("7i7h,6i6h")
    b = xboard("e9e8,c9c8", str(tmp_path / "crashed"), crash_pv="a9a8")  # USI 11c11d
    record = wa_game(a, b, max_plies=4)
    assert record.moves == ["7i7h", "11c11d", "6i6h", "9c9d"]
    assert (record.crashes, record.cut_moves, record.capped_moves) == (1, 1, 0)
    assert record.depths["b"] == [3, 7]
    assert "cut short by a crash (its best move so far): 1, searched again" in summary(
        "A", "B", [record]
    )


def test_a_crash_after_an_illegal_variation_searches_again(tmp_path: Path) -> None:
    a = usi("7i7h,6i6h")
    b = xboard("e9e8,c9c8", str(tmp_path / "crashed"), crash_pv="e5e4")  # no piece on e5
    record = wa_game(a, b, max_plies=4)
    assert record.moves == ["7i7h", "7c7d", "6i6h", "9c9d"]
    assert (record.crashes, record.cut_moves, record.capped_moves) == (1, 0, 1)


def test_an_illegal_move_by_the_opponent_aborts_the_game() -> None:
    a = usi("7i7h,6i6h")
    b = xboard("e5e4")  # no piece there
    record = wa_game(a, b, max_plies=10)
    assert record.result is None
    assert "illegal move by fake xboard" in record.reason
    assert record.moves == ["7i7h"]
    assert not record.a_illegal


def test_an_engine_that_does_not_start_aborts_that_game_only() -> None:
    a = usi("7i7h")
    b = UsiPlayer("silent usi", (sys.executable, "-c", "pass"), (), 50)  # exits at once
    record = wa_game(a, b, max_plies=4)
    assert record.result is None
    assert record.reason.startswith("silent usi did not start")
    assert record.moves == []


def test_an_illegal_move_by_komabot_loses_and_is_counted() -> None:
    a = usi("7i7e")
    b = xboard("e9e8")
    record = wa_game(a, b, max_plies=10)
    assert (record.result, record.a_illegal) == (0.0, True)


def test_random_openings_are_seeded_quiet_and_legal() -> None:
    variant = load_variant("wa-drops")
    first = random_opening(variant, 7, 4)
    assert first == random_opening(variant, 7, 4)
    assert len(first) == 4
    pos = Position.start(variant)
    for move in first:
        assert not pos.board[move.to_sq]
        pos.push(move)
    assert not pos.is_check()


def test_summary_separates_the_ply_cap_and_aborted_games() -> None:
    records = [
        GameRecord(True, 1.0, "checkmate", 80),
        GameRecord(False, 0.5, "ply cap", 400),
        GameRecord(True, None, "illegal move by X: in check", 31),
        GameRecord(False, 0.0, "resignation", 120),
    ]
    table = summary("A", "B", records)
    assert "| | 4 | 1 | 1 | 1 | 1.5/3 (50%) | 1/2 (50%) | 1 | 1 |" in table
    assert "aborted: 1 x illegal move by X" in table


def test_round_robin_elo_orders_the_levels() -> None:
    results = {(1, 2): (1.0, 4), (2, 1): (3.0, 4), (2, 3): (1.0, 4), (3, 2): (3.0, 4)}
    results |= {(1, 3): (0.0, 4), (3, 1): (4.0, 4)}
    rating = round_robin_elo([1, 2, 3], results)
    assert rating[1] == 0
    assert 0 < rating[2] < rating[3] < 1000


def test_round_robin_reads_each_pair_once_and_gives_wider_intervals_for_fewer_games() -> None:
    # level 2 scores 3 of 4 against level 1: the model's rating is near the score's Elo (+191)
    # pulled a little towards 0 by the prior (one draw between neighbours)
    one_way = {(1, 2): (1.0, 4)}
    both_ways = {(1, 2): (1.0, 4), (2, 1): (3.0, 4)}
    assert round_robin_elo([1, 2], one_way) == round_robin_elo([1, 2], both_ways)
    assert 100 < round_robin_elo([1, 2], one_way)[2] < 191
    few = elo_interval(covariance([1, 2], one_way), 2, 1)
    many = elo_interval(covariance([1, 2], {(1, 2): (10.0, 40)}), 2, 1)
    assert many < few
    # the binomial's 95% interval, 1.96 * sqrt(p(1-p)/n) = 0.134 in score at p = 0.25 and
    # n = 40, times the slope of the Elo curve there (400 / (ln 10 p(1-p)) = 926 Elo per unit
    # of score): +-124 Elo; eight times fewer games, sqrt(8) times as wide
    assert 110 < many < 135 and few > 2.5 * many


def test_a_steps_profile_interval_is_the_curvatures_where_that_holds_and_not_for_a_sweep() -> None:
    # many games near an even score: the likelihood is nearly quadratic, so the profile
    # interval is about the Fisher one, +-124 Elo at 10 of 40 (see the test above)
    results = {(1, 2): (10.0, 40)}
    low, high = step_interval([1, 2], results, 1, 2)
    estimate = round_robin_elo([1, 2], results)[2]
    half = elo_interval(covariance([1, 2], results), 2, 1)
    assert low < estimate < high
    assert abs((high - low) / 2 - half) < 0.15 * half
    # an even score: the interval holds 0, the same on both sides
    low, high = step_interval([1, 2], {(1, 2): (3.0, 6)}, 1, 2)
    assert low < 0 < high and abs(low + high) < 2
    # a sweep of 6: the curvature's interval holds 0 (it is nearly flat there), the profile's
    # does not; with 2 games it still does
    sweep = {(1, 2): (0.0, 6)}
    assert round_robin_elo([1, 2], sweep)[2] - elo_interval(covariance([1, 2], sweep), 2, 1) < 0
    assert step_interval([1, 2], sweep, 1, 2)[0] > 0
    assert step_interval([1, 2], {(1, 2): (0.0, 2)}, 1, 2)[0] < 0


def test_a_steps_interval_in_a_round_robin_uses_the_games_of_every_pair() -> None:
    # 2 against 3 alone is even; against level 1 level 3 did far better than level 2
    results = {(1, 2): (3.0, 6), (2, 3): (3.0, 6), (1, 3): (0.0, 6)}
    rating = round_robin_elo([1, 2, 3], results)
    low, high = step_interval([1, 2, 3], results, 2, 3)
    assert rating[3] - rating[2] > 0
    assert low < rating[3] - rating[2] < high
    alone = step_interval([2, 3], {(2, 3): (3.0, 6)}, 2, 3)  # even: about 0 in the middle
    assert low > alone[0] and high > alone[1]


LINE = {"a_sente": True, "reason": "resigned", "moves": []}
"""What every line of a match log has besides the fields a test sets."""


def test_rate_mode_reads_the_level_games_of_match_logs(tmp_path: Path) -> None:
    games = [
        {"a": "Komabot L1", "b": "Komabot L2", "variant": "wa", "result": 0.0},
        {"a": "Komabot L1", "b": "Komabot L2", "variant": "wa", "result": 0.5},
        {"a": "Komabot L2", "b": "Komabot L3", "variant": "wa", "result": None},  # aborted
        {"a": "Komabot L8", "b": "HaChu", "variant": "wa", "result": 1.0},  # not a level game
    ]
    log = tmp_path / "levels.jsonl"
    log.write_text("".join(json.dumps(LINE | g) + "\n" for g in games), encoding="utf-8")
    variants, results = results_from_logs([log])
    assert variants == {"wa"} and results == {(1, 2): (0.5, 2)}


def test_rate_mode_rates_only_the_levels_that_played_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = [
        {"a": "Komabot L5", "b": "Komabot L6", "variant": "wa", "result": 0.0},
        {"a": "Komabot L6", "b": "Komabot L5", "variant": "wa", "result": 0.5},
        {"a": "Komabot L8", "b": "Komabot L8", "variant": "wa", "result": 1.0},  # itself
    ]
    log = tmp_path / "levels.jsonl"
    log.write_text("".join(json.dumps(LINE | g) + "\n" for g in games), encoding="utf-8")
    assert match_main(["rate", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wa: 2 games between the levels rated\n")
    rows = [line for line in out.splitlines() if line[:4] in ("| 5 ", "| 6 ")]
    assert len(rows) == 4  # levels 5 and 6 in both tables, no other level
    assert rows[0].startswith("| 5 | 0.5 | 2 | +0 ± 0 |")
    assert rows[1].startswith("| 6 | 1.5 | 2 | ")
    only_itself = tmp_path / "itself.jsonl"
    only_itself.write_text(json.dumps(LINE | games[2]) + "\n", encoding="utf-8")
    assert match_main(["rate", str(only_itself)]) == 1
    assert "no games between two of the levels 1-8" in capsys.readouterr().out


def test_rate_mode_shows_how_deep_each_level_searched(tmp_path: Path) -> None:
    games = [
        {
            "a": "Komabot L1",
            "b": "Komabot L2",
            "variant": "wa",
            "result": 0.0,
            "depths": {"a": [1, 1], "b": [2, 2]},
            "nodes": {"a": [100, 300], "b": [900, 1100]},
        },
        {
            "a": "Komabot L2",
            "b": "Komabot L3",
            "variant": "wa",
            "result": None,
            "depths": {"a": [2], "b": [3]},
            "nodes": {"a": [2000], "b": [5000]},
        },
        {
            "a": "Komabot L8",
            "b": "HaChu",
            "variant": "wa",
            "result": 1.0,
            "depths": {"a": [9], "b": [7]},
            "nodes": {"a": [1], "b": [1]},
        },
    ]
    log = tmp_path / "levels.jsonl"
    log.write_text("".join(json.dumps(LINE | g) + "\n" for g in games), encoding="utf-8")
    stats = search_from_logs([log])
    assert stats[2] == ([2, 2, 2], [900, 1100, 2000]) and stats[8] == ([9], [1])
    table = search_table([1, 2, 3, 4], stats).splitlines()
    assert table[2] == "| 1 | 2 | 1.0 | 1 | 200 |"
    assert table[3] == "| 2 | 3 | 2.0 | 2 | 1,333 |"
    assert table[5] == "| 4 | 0 | - | - | - |"


def test_ratings_table_shows_every_level_with_its_step() -> None:
    results = {(1, 2): (1.0, 4), (2, 3): (1.0, 4), (1, 3): (0.0, 4)}
    table = ratings_table([1, 2, 3], results).splitlines()
    assert table[0].startswith("| level | points | games | Elo (level 1 = 0) |")
    assert table[2].startswith("| 1 | 1 | 8 | +0 ± 0 |")
    assert table[3].startswith("| 2 | 4 | 8 | +207 ± ")
    assert table[4].startswith("| 3 | 7 | 8 | +415 ± ")


def test_xboard_fen_writes_holdings_and_the_side_to_move() -> None:
    variant = load_variant("wa-drops")
    pos = Position.start(variant)
    for text in ("7i7h", "7c7d", "7h7g", "7d7e", "7g7f", "7e7f"):
        pos.push_usi(text)
    fen = xboard_fen(pos)
    assert fen.endswith("[p] w 0 1")
    assert fen.split("[")[0] == pos.sfen().split()[0]


def test_crazywa_twins_are_written_and_read_back() -> None:
    variant = load_variant("wa-drops")
    twins = demoted_twins(variant)
    letters = {variant.piece(a).letter: variant.piece(b).letter for a, b in twins.items()}
    assert letters == {"E": "L", "F": "U", "S": "G", "X": "R", "W": "D", "V": "M"}
    # sente holds a Swallow's Wings: CrazyWa sees a Flying Goose and drops it as G
    pos = Position.from_sfen(variant, "5k5/11/11/11/11/11/11/11/11/11/5K5 b S 1")
    assert "[G]" in xboard_fen(pos, twins)
    player = XboardPlayer("fake", ("unused",), "crazywa", (), 50, by_setboard=True, hand_as=twins)
    move = player.parse(pos, "G@e5")
    assert move.drop == variant.by_letter["S"].kind


FAKE_CHECKOUT = """
import sys


def main(argv):
    assert argv[:3] == ["usi", "--variant", "shogi"], argv
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "usi":
            print("usiok", flush=True)
        elif word == "isready":
            print("readyok", flush=True)
        elif word == "go":
            print("info depth 1 nodes 1", flush=True)
            print("bestmove 1g1f", flush=True)
        elif word == "quit":
            return 0
    return 0
"""


def test_ab_plays_the_other_checkouts_komabot(tmp_path: Path) -> None:
    cli = tmp_path / "bot" / "cli"
    cli.mkdir(parents=True)
    (tmp_path / "bot" / "__init__.py").write_text("", encoding="utf-8")
    (cli / "__init__.py").write_text(FAKE_CHECKOUT, encoding="utf-8")
    spec = PlayerSpec("komabot", "shogi", 50, root=str(tmp_path))
    assert spec.label == f"Komabot L8 ({tmp_path.name})"
    player = spec.make()
    try:
        player.new_game()
        reply = player.play(Position.start(load_variant("shogi")))
    finally:
        player.close()
    assert (reply.text, reply.depth) == ("1g1f", 1)  # this checkout's engine opens otherwise


def test_an_engine_crashing_on_every_try_of_one_move_aborts_the_game(tmp_path: Path) -> None:
    a = usi("7i7h,6i6h")
    # the marker cannot be created: the fake engine fails at every "go"
    b = xboard("e9e8,c9c8", str(tmp_path / "no such folder" / "crashed"))
    record = wa_game(a, b, max_plies=4)
    assert record.result is None
    assert record.reason == f"fake xboard crashed more than {MAX_RESTARTS} times"
    assert record.crashes == MAX_RESTARTS + 1
    assert record.moves == ["7i7h"]


def hachu_at_depth(depth: int, marker: str = "") -> Player:
    command = (sys.executable, FAKE, "xboard", "e9e8,c9c8", *([marker] if marker else []))
    return PlayerSpec("hachu", "wa", 50, depth=depth, command=command).make()


def test_hachu_at_a_fixed_depth_is_sent_it_with_a_clock_that_does_not_cut_it() -> None:
    # the fake engine reports depth 1 when its clock would cut an "sd" search short
    record = wa_game(usi("7i7h,6i6h"), hachu_at_depth(9), max_plies=4)
    assert record.depths["b"] == [9, 9]
    assert record.moves == ["7i7h", "7c7d", "6i6h", "9c9d"]
    timed = wa_game(usi("7i7h,6i6h"), hachu_at_depth(0), max_plies=4)
    assert timed.depths["b"] == [7, 7]  # no sd: its own depth at 50 ms a move


def test_hachu_at_a_fixed_depth_gets_it_back_after_a_crash(tmp_path: Path) -> None:
    record = wa_game(usi("7i7h,6i6h"), hachu_at_depth(9, str(tmp_path / "crashed")), 4)
    assert (record.crashes, record.capped_moves) == (1, 1)
    assert record.depths["b"] == [1, 9]  # capped below where it failed, then started afresh


def test_an_opponent_s_program_can_be_another_build_than_the_debian_package_s() -> None:
    build = ("/opt/engines/another-build",)
    for kind, variant, package in (
        ("hachu", "wa", HACHU),
        ("crazywa", "wa-drops", CRAZYWA),
        ("fairy", "shogi", FAIRY_STOCKFISH),
    ):
        player = PlayerSpec(kind, variant, 50).make()
        assert isinstance(player, UsiPlayer | XboardPlayer)
        assert tuple(player.command) == (package,)
        other = PlayerSpec(kind, variant, 50, command=build).make()
        assert isinstance(other, UsiPlayer | XboardPlayer)
        assert tuple(other.command) == build


def test_play_on_takes_the_games_komabot_resigned_from_where_it_resigned(tmp_path: Path) -> None:
    log = tmp_path / "h.jsonl"
    resigned = GameRecord(True, 0.0, "resignation", 2, ["7g7f", "3c3d"])
    as_gote = GameRecord(True, 1.0, "resignation", 2, ["2g2f", "8c8d"])  # the opponent first
    mated = GameRecord(True, 0.0, "checkmate", 2, ["7g7f", "8c8d"])
    won = GameRecord(False, 1.0, "resignation", 2, ["7g7f", "8c8d"])
    append_game(log, "Komabot L8", "Fairy", "shogi", dataclasses.asdict(resigned))
    append_game(log, "Fairy", "Komabot L8", "shogi", dataclasses.asdict(as_gote))
    append_game(log, "Komabot L8", "Fairy", "shogi", dataclasses.asdict(mated))
    append_game(log, "Komabot L8", "Fairy", "shogi", dataclasses.asdict(won))
    komabot = PlayerSpec("komabot", "shogi", 50, resign=False)
    assert isinstance(player := komabot.make(), UsiPlayer)
    assert ("AllowResign", "false") in player.options
    opponent = PlayerSpec("usi", "shogi", 50, command=(sys.executable, FAKE, "usi", "8c8d,8d8e"))
    jobs = play_on_jobs([log], komabot, opponent, 6)
    assert [(job.moves, job.a_sente) for job in jobs] == [
        (("7g7f", "3c3d"), True),
        (("2g2f", "8c8d"), False),
    ]
    # the logged moves, then the players' own from there (a scripted engine in Komabot's place)
    scripted = PlayerSpec("usi", "shogi", 50, command=(sys.executable, FAKE, "usi", "2g2f,2f2e"))
    rec = run_job(dataclasses.replace(jobs[0], a=scripted))
    assert rec.moves == ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e"]
    assert rec.reason == "ply cap"


def test_convert_takes_the_capped_games_komabot_led_from_where_it_first_did(
    tmp_path: Path,
) -> None:
    log = tmp_path / "h.jsonl"
    # sente takes the bishop at ply 3 and is a bishop and more ahead from then on: sente is
    # first to move while ahead at ply 4
    moves = ["7g7f", "3c3d", "8h2b+", "4a4b", "2b3a", "5a5b"]
    led = GameRecord(True, 0.5, "ply cap", 6, moves)
    behind = GameRecord(False, 0.5, "ply cap", 6, moves)  # Komabot was gote: never ahead
    mated = GameRecord(True, 1.0, "checkmate", 6, moves)  # not at the cap
    append_game(log, "Komabot L8", "Fairy", "shogi", dataclasses.asdict(led))
    append_game(log, "Komabot L8", "Fairy", "shogi", dataclasses.asdict(behind))
    append_game(log, "Komabot L8", "Fairy", "shogi", dataclasses.asdict(mated))
    komabot = PlayerSpec("komabot", "shogi", 50)
    opponent = PlayerSpec("usi", "shogi", 50, command=(sys.executable, FAKE, "usi", "6a6b,9c9d"))
    jobs = convert_jobs([log], komabot, opponent, 8, 1500)
    assert [(job.moves, job.a_sente, job.max_plies) for job in jobs] == [
        (tuple(moves[:4]), True, 8)
    ]
    assert convert_jobs([log], komabot, opponent, 8, 3500) == []  # never that far ahead
    # the logged moves, then the players' own from there to the cap
    scripted = PlayerSpec("usi", "shogi", 50, command=(sys.executable, FAKE, "usi", "2b3a,9g9f"))
    rec = run_job(dataclasses.replace(jobs[0], a=scripted))
    assert rec.moves == [*moves[:4], "2b3a", "6a6b", "9g9f", "9c9d"]
    assert rec.reason == "ply cap"
