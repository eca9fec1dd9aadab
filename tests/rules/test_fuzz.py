"""Random text into the SFEN and USI readers: only typed rules errors, never anything else."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Position, RulesError, load_variant, parse_usi

VARIANTS = [load_variant(v) for v in ("shogi", "wa", "wa-drops")]

SFEN_ALPHABET = st.sampled_from(list("0123456789/+ bw-KkRrBbGgSsNnLlPpEeFfXxWwVvCcUuDdMmHhOoQq!"))
sfen_like = st.lists(SFEN_ALPHABET, max_size=120).map("".join)
usi_like = st.text(alphabet=st.sampled_from(list("0123456789abcdefghijkl+*PLNSGBRKXOz -")))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VARIANTS), st.one_of(sfen_like, st.text(max_size=80)))
def test_sfen_reader_only_raises_rules_errors(variant: object, text: str) -> None:
    try:
        pos = Position.from_sfen(variant, text)  # type: ignore[arg-type]
    except RulesError as exc:
        assert str(exc)
        return
    again = Position.from_sfen(pos.variant, pos.sfen())
    assert again.sfen() == pos.sfen()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VARIANTS), st.data())
def test_mutated_start_positions(variant: object, data: st.DataObject) -> None:
    start = variant.start_sfen  # type: ignore[attr-defined]
    i = data.draw(st.integers(0, len(start) - 1))
    ch = data.draw(SFEN_ALPHABET)
    text = start[:i] + ch + start[i + 1 :]
    with contextlib.suppress(RulesError):
        Position.from_sfen(variant, text)  # type: ignore[arg-type]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VARIANTS), st.one_of(usi_like, st.text(max_size=20)))
def test_usi_reader_only_raises_rules_errors(variant: object, text: str) -> None:
    pos = Position.start(variant)  # type: ignore[arg-type]
    before = pos.sfen()
    try:
        parse_usi(variant, text)  # type: ignore[arg-type]
        pos.push_usi(text)
    except RulesError as exc:
        assert str(exc)
        assert pos.sfen() == before
