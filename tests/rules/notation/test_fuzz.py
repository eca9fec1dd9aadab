"""Fuzzing every move reader: any text gives a legal move or a typed rules error, never a crash."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Position, RulesError, load_variant
from rules.notation import parse_move, read_move

ALPHABET = (
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "０１２３４５６７８９ＰＳ一二三四五六七八九十〇"
    "歩香桂銀金角飛玉王と杏圭全馬龍竜成萑鳥牛車隠狐走兎燕羽雲鷲靏"
    "同打不生右左直上引寄行▲△"
    "+-=*x'(), 　\t|・"
)


def _positions() -> list[Position]:
    shogi = load_variant("shogi")
    mid = Position.start(shogi)
    for usi in ("7g7f", "3c3d", "8h2b+"):
        mid.push_usi(usi)
    wa = Position.start(load_variant("wa"))
    wa.push_usi("8h8g")
    drops = Position.from_sfen(
        load_variant("wa-drops"), "5k5/11/11/5P5/11/11/11/11/11/11/K10 b 2Pr 1"
    )
    return [Position.start(shogi), mid, wa, drops]


POSITIONS = _positions()
texts = st.one_of(st.text(alphabet=ALPHABET, max_size=14), st.text(max_size=14))


def _check(pos: Position, text: str) -> None:
    try:
        move = parse_move(pos, text)
    except RulesError:
        return
    assert move in pos.legal_moves(), (pos.sfen(), text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(POSITIONS) - 1), text=texts)
def test_parse_move_only_raises_rules_errors(index: int, text: str) -> None:
    _check(POSITIONS[index], text)


@settings(max_examples=200, deadline=None)
@given(index=st.integers(0, len(POSITIONS) - 1), text=texts)
def test_read_move_only_raises_rules_errors(index: int, text: str) -> None:
    with contextlib.suppress(RulesError):
        read_move(POSITIONS[index], text)


@settings(max_examples=200, deadline=None)
@given(
    index=st.integers(0, len(POSITIONS) - 1),
    head=st.sampled_from(["P-", "S", "+R", "SP", "７六", "同", "5e", "7g", "11k", "G6i-", "B*"]),
    tail=st.text(alphabet=ALPHABET, max_size=8),
)
def test_near_misses_only_raise_rules_errors(index: int, head: str, tail: str) -> None:
    _check(POSITIONS[index], head + tail)
