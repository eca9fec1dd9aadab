"""The Wa conversion bench (bench/wa_conversion.py): the shipped positions are quiet won
positions; picking from a log finds the first such position of a game; a position is played
out by real ``komabot usi`` processes (against itself, or against an xboard defender) and
counted from the leading side's view."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench.match import GameRecord, PlayerSpec
from bench.match_log import read_games
from bench.match_players import UsiPlayer
from bench.wa_conversion import (
    DATA,
    LEAD_CP,
    QUIET_PLIES,
    PlayJob,
    first_lead,
    main,
    pick,
    pick_capped,
    play_out,
    player_for,
    read_starts,
    tally,
)
from bench.wa_suite import material_line
from engine.evaluation import Evaluator
from rules import GOTE, SENTE, Position, load_variant


def _replay(moves: tuple[str, ...]) -> tuple[Position, list[int]]:
    pos = Position.start(load_variant("wa"))
    for text in moves:
        pos.push_usi(text)
    return pos, material_line(pos.variant, moves)


def test_the_shipped_positions_are_quiet_leads_of_the_named_side() -> None:
    starts = read_starts(DATA)
    assert len(starts) >= 10
    for start in starts:
        pos, history = _replay(start.moves)
        sign = 1 if start.leader == "sente" else -1
        assert sign * history[-1] == start.lead >= LEAD_CP
        assert len(set(history[-QUIET_PLIES - 1 :])) == 1  # no exchange in progress
        assert not pos.is_check()
        assert pos.outcome() is None


def test_picking_takes_the_first_quiet_lead_of_a_game(tmp_path: Path) -> None:
    start = read_starts(DATA)[0]
    log = tmp_path / "games.jsonl"
    players = {"a": "Komabot L8", "b": "HaChu", "a_sente": True, "result": 0.5}
    shogi = {"variant": "shogi", "moves": ["7g7f"], "reason": "resignation"}
    wa = {"variant": "wa", "moves": list(start.moves), "reason": "ply cap"}
    lines = (json.dumps(players | game) + "\n" for game in (shogi, wa))
    log.write_text("".join(lines), encoding="utf-8")
    games = read_games([log])
    assert [game.source for game in games] == ["games.jsonl:1", "games.jsonl:2"]
    picked = pick(games + games, 5, LEAD_CP)  # from the Wa game only
    assert len(picked) == 1  # the same position is not picked twice
    assert picked[0].moves == start.moves and picked[0].leader == start.leader
    found = first_lead(start.moves)
    assert found is not None
    ply, lead = found
    assert ply <= len(start.moves)
    _, history = _replay(start.moves[:ply])
    assert history[-1] == lead and abs(lead) >= LEAD_CP
    # a lead the material of the opening does not reach is not found
    assert first_lead(start.moves[:10]) is None


def test_the_tally_is_from_the_leaders_view() -> None:
    start = read_starts(DATA)[0]
    won = GameRecord(False, 1.0, "checkmate", len(start.moves) + 30)
    capped = GameRecord(False, 0.5, "ply cap", 210, moves=list(start.moves))
    repeated = GameRecord(False, 0.5, "repetition", 60)
    lost = GameRecord(False, 0.0, "resignation", 80)
    result = tally([won, capped, repeated, lost], [start] * 4)
    assert (result.converted, result.capped, result.drawn, result.lost) == (1, 1, 1, 1)
    assert result.mates == 1
    assert result.capped_far_ahead == 0  # the start's lead is less than two Flying Falcons
    assert result.plies_to_convert == (30,)


def test_the_players_resign_only_when_asked() -> None:
    start = read_starts(DATA)[0]
    spec = PlayerSpec("komabot", "wa", 0, nodes=10)
    mate_only = player_for(PlayJob(spec, start, 2))
    may_resign = player_for(PlayJob(spec, start, 2, resign=True))
    assert isinstance(mate_only, UsiPlayer) and isinstance(may_resign, UsiPlayer)
    assert ("AllowResign", "false") in mate_only.options
    assert ("AllowResign", "false") not in may_resign.options


def test_a_position_is_played_out_by_komabot_against_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "one.jsonl"
    data.write_text(DATA.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert main(["play", "--data", str(data), "--nodes", "40", "--plies", "2"]) == 0
    out = capsys.readouterr().out
    assert "after 2 plies (ply cap; material lead at the end " in out
    assert "| Komabot L8 | 1 | 0 (0%; 0) | 1; 0 | 0 | 0 | 0 | -, - |" in out


def test_an_xboard_defender_plays_the_defending_side() -> None:
    # the scripted xboard engine of the match tests stands in for HaChu: whatever the ply,
    # it answers a move from a square where the defender has nothing, which aborts the game
    # (the opponent's illegal move) on the defender's first turn
    fake = Path(__file__).parent.parent / "engine" / "data" / "fake_engines.py"
    start = read_starts(DATA)[0]
    command = (sys.executable, str(fake), "xboard", ",".join(["a1a2"] * 400))
    defender = PlayerSpec("hachu", "wa", 0, depth=3, command=command)
    leader = PlayerSpec("komabot", "wa", 0, nodes=40)
    record = play_out(PlayJob(leader, start, 4, defender=defender))
    assert record.result is None
    assert record.reason.startswith("illegal move by HaChu")
    pos, _ = _replay(start.moves)
    defender_first = pos.side != (SENTE if start.leader == "sente" else GOTE)
    assert record.plies == len(start.moves) + (0 if defender_first else 1)
    assert tally([record], [start]).aborted == 1


def test_capped_picking_takes_komabot_s_first_unconverted_lead() -> None:
    # from each capped game, the first position from ply 100 on where Komabot, to move and
    # not in check, leads by 1,500 by its own values; all of them in the shipped set
    hachu = DATA.parent / "hachu"
    logs = sorted(hachu.glob("2026-11-30/*.jsonl"))
    games = read_games(logs)
    starts = pick_capped(games, 1500, 100)
    assert starts
    evaluator = Evaluator(load_variant("wa"))
    by_source = {game.source: game for game in games}
    for start in starts:
        source, ply = start.source.rsplit(":", 1)
        game = by_source[source]
        assert game.reason == "ply cap" and game.moves[: int(ply)] == start.moves
        assert int(ply) >= 100 and start.leader == ("sente" if game.komabot_sente() else "gote")
        pos, _ = _replay(start.moves)
        assert pos.side == (SENTE if start.leader == "sente" else GOTE) and not pos.is_check()
        ahead = evaluator.material(pos) * (1 if pos.side == SENTE else -1)
        assert ahead == start.lead >= 1500
    shipped = read_starts(DATA.parent / "wa_conversion_capped.jsonl")
    assert {s.moves for s in starts} <= {s.moves for s in shipped}
