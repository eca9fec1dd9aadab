"""Repetition (sennichite): draws are scored as draws, and perpetual check is not walked into
where the variant file says it loses."""

from __future__ import annotations

from pathlib import Path

from engine import Engine, Limits
from rules import Position, Termination, Variant, load_variant
from rules.variant import data_dir, read_variant_file

# Sente's dragon checks gote's cornered king from 3a and 3b in turn; gote is a bishop ahead.
CHECKS_START = "rbsn4k/gg1s2+R2/9/9/9/9/9/GS7/KG7 b - 1"
CHECKS_CYCLE = ["3b3a", "1a1b", "3a3b", "1b1a"]
# The kings step aside and back; nobody gives check.
KINGS_CYCLE = ["5i4i", "5a4a", "4i5i", "4a5a"]


def twice_round_and_half_again(variant: Variant, sfen: str, cycle: list[str]) -> Position:
    """The cycle played twice and half again: sente's next cycle move makes a position that
    has already occurred twice, and gote's answer the fourth occurrence of the start."""
    pos = Position.from_sfen(variant, sfen)
    for text in cycle * 2 + cycle[:2]:
        pos.push_usi(text)
    return pos


def without_perpetual_rule(tmp_path: Path) -> Variant:
    text = (data_dir() / "variants" / "shogi.toml").read_text(encoding="utf-8")
    lax = text.replace("perpetual_check_loses = true", "perpetual_check_loses = false")
    assert lax != text
    (tmp_path / "shogi.toml").write_text(lax, encoding="utf-8")
    return read_variant_file(tmp_path / "shogi.toml")


def test_the_engine_does_not_walk_into_a_lost_perpetual_check() -> None:
    shogi = load_variant("shogi")
    pos = twice_round_and_half_again(shogi, CHECKS_START, CHECKS_CYCLE)
    # the rules core agrees: going on with the checks loses for sente
    probe = pos.copy()
    probe.push_usi(CHECKS_CYCLE[2])
    probe.push_usi(CHECKS_CYCLE[3])
    outcome = probe.outcome()
    assert outcome is not None and outcome.termination is Termination.PERPETUAL_CHECK
    assert outcome.winner == 1
    result = Engine(shogi).think(pos, limits=Limits(nodes=20_000))
    assert result.best_move != CHECKS_CYCLE[2]
    assert result.best_move in {pos.usi(m) for m in pos.legal_moves()}
    assert result.score_cp is not None and result.score_cp < 0  # it knows it is behind


def test_without_that_rule_the_side_ahead_steps_out_of_the_drawing_repetition(
    tmp_path: Path,
) -> None:
    lax = without_perpetual_rule(tmp_path)
    pos = twice_round_and_half_again(lax, CHECKS_START, CHECKS_CYCLE)
    pos.push_usi(CHECKS_CYCLE[2])
    probe = pos.copy()
    probe.push_usi(CHECKS_CYCLE[3])
    outcome = probe.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    # gote, a bishop ahead, would draw by going back into the cycle: it steps out instead
    result = Engine(lax).think(pos, limits=Limits(nodes=20_000))
    assert result.best_move != CHECKS_CYCLE[3]
    assert result.score_cp is not None and result.score_cp > 0


def test_a_repetition_met_only_in_the_game_before_the_root_is_not_the_end() -> None:
    # three moves of the kings' cycle: gote stepping back repeats the start position, a
    # second occurrence, not a draw yet; gote, a rook and bishop behind, is still lost
    shogi = load_variant("shogi")
    pos = Position.from_sfen(shogi, "4k4/9/9/9/9/9/9/9/RB2K4 b - 1")
    for text in KINGS_CYCLE[:3]:
        pos.push_usi(text)
    result = Engine(shogi).think(pos, limits=Limits(nodes=5_000))
    assert result.score_cp is not None and result.score_cp < -500


def test_the_side_checked_perpetually_is_glad_to_repeat() -> None:
    # gote to move after sente's checking move: stepping back into the cycle wins by rule
    shogi = load_variant("shogi")
    pos = twice_round_and_half_again(shogi, CHECKS_START, CHECKS_CYCLE)
    pos.push_usi(CHECKS_CYCLE[2])
    result = Engine(shogi).think(pos, limits=Limits(nodes=20_000))
    assert result.best_move == CHECKS_CYCLE[3]
    assert result.score_cp is not None and result.score_cp > 10_000


def test_a_losing_side_repeats_and_a_winning_side_does_not() -> None:
    # gote, a rook and bishop behind, completes the fourth occurrence of the start: a draw
    shogi = load_variant("shogi")
    winning_start = "4k4/9/9/9/9/9/9/9/RB2K4 b - 1"
    losing = twice_round_and_half_again(shogi, winning_start, KINGS_CYCLE)
    losing.push_usi(KINGS_CYCLE[2])
    result = Engine(shogi).think(losing, limits=Limits(nodes=20_000))
    assert result.best_move == KINGS_CYCLE[3]
    assert result.score_cp == 0
    winning = twice_round_and_half_again(shogi, winning_start, KINGS_CYCLE)
    result = Engine(shogi).think(winning, limits=Limits(nodes=20_000))
    assert result.best_move != KINGS_CYCLE[2]
    assert result.score_cp is not None and result.score_cp > 500


def test_repetition_is_judged_in_wa_too() -> None:
    # sente has a Cloud Eagle more; the kings step aside and back, gote completes the fourth
    # occurrence of the start
    wa = load_variant("wa")
    start = "1k9/11/11/11/11/11/11/11/11/11/E8K1 b - 1"
    cycle = ["2k3k", "10a9a", "3k2k", "9a10a"]
    losing = twice_round_and_half_again(wa, start, cycle)
    losing.push_usi(cycle[2])
    result = Engine(wa).think(losing, limits=Limits(nodes=20_000))
    assert result.best_move == cycle[3] and result.score_cp == 0
