"""Hostile input: bounded work, only typed errors, variant ids from the registry only.

Numbers anywhere in an SFEN, a record or a move are read by ``rules.numbers`` (ASCII digits,
length checked before conversion, value bounded); a variant id is looked up among
``available_variants()`` and never becomes a path.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    InvalidSetupError,
    Position,
    RulesError,
    VariantFileError,
    available_variants,
    load_variant,
)
from rules.notation import parse_move, read_move
from rules.notation.numerals import normalize
from rules.numbers import NumberError, read_number
from rules.records import GameRecord, RecordError, export_record, import_record
from rules.records.csa import read_csa
from rules.records.kif import read_kif
from rules.records.usi import read_usi
from rules.variant import data_dir, read_variant_file
from tests.rules.records.games import random_game

SHOGI = load_variant("shogi")
WA_DROPS = load_variant("wa-drops")
START = SHOGI.start_sfen
RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
# Characters that str.isdigit() or \d or NFKC take for digits, and worse.
STRAY_DIGITS = ["²", "➏", "₃", "٣", "①", "𝟕", "৩", "߃"]
HOSTILE = [*STRAY_DIGITS, "９", "\x00", "\ud800", "\udfff", "\u3000", "\ufeff", "\r", "|", ","]


# --- the shared number reader ------------------------------------------------------------


@pytest.mark.parametrize("text", [*STRAY_DIGITS, "９", "", "1²", " 1", "-1", "+1", "1_0"])
def test_numbers_are_ascii_digits_only(text: str) -> None:
    with pytest.raises(NumberError, match="must be written with the digits 0-9"):
        read_number(text, "the count", 1, 99)


@pytest.mark.parametrize(
    ("text", "value"), [("1", 1), ("99", 99), ("007", 7), ("0" * 100_000 + "5", 5)]
)
def test_numbers_in_range(text: str, value: int) -> None:
    assert read_number(text, "the count", 1, 99) == value


@pytest.mark.parametrize("text", ["0", "100", "9" * 5_000, "1" + "0" * 1_000_000])
def test_numbers_out_of_range_are_refused_before_conversion(text: str) -> None:
    with pytest.raises(NumberError) as info:
        read_number(text, "the count", 1, 99)
    assert info.value.message.startswith("the count must be from 1 to 99, not ")
    assert len(info.value.message) < 80  # the text is quoted cut short


def test_normalize_folds_full_width_but_keeps_stray_digits() -> None:
    assert normalize("７六歩\u3000") == "7六歩 "
    for c in STRAY_DIGITS:
        assert normalize(f"7{c}歩") == f"7{c}歩"


# --- bounded work on pathological input ---------------------------------------------------

# The probe's file: 84 bytes whose board row asks for 999,999,999 empty squares.
USI_84 = b"position sfen 999999999/9/9/9/9/9/9/9/9 b - 1 moves 7g7f\n# variant: shogi\n# sente: \n"
KIF_HEAD = "手合割：平手\n手数----指手---------消費時間--\n"


def _within_budget(work: Callable[[], object]) -> RulesError:
    """Run ``work``; it must raise a RulesError within 1 s and 1 MB of allocations."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        work()
    except RulesError as exc:
        error = exc
    else:
        raise AssertionError("expected a RulesError")
    finally:
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < 1_000_000, f"{peak} bytes allocated"
    assert elapsed < 1.0, f"{elapsed:.2f} s"
    return error


@pytest.mark.parametrize(
    ("name", "work", "said"),
    [
        ("the probe's 84-byte USI file", lambda: import_record(USI_84), "an empty run"),
        (
            "a 13-digit empty run",
            lambda: Position.from_sfen(SHOGI, "9999999999999/9/9/9/9/9/9/9/9 b - 1"),
            "an empty run must be from 1 to 9",
        ),
        (
            "runs that add up far past the width",
            lambda: Position.from_sfen(SHOGI, "/".join(["9" * 5000] * 9) + " b - 1"),
            "an empty run",
        ),
        (
            "a 5000-digit hand count",
            lambda: Position.from_sfen(SHOGI, f"{START.split()[0]} b {'9' * 5000}P 1"),
            "pawns in hand must be from 1 to 18",
        ),
        (
            "a 5000-digit move number",
            lambda: Position.from_sfen(SHOGI, f"{START.split()[0]} b - {'9' * 5000}"),
            "the move number must be from 1 to 999999",
        ),
        (
            "a 5000-digit KIF move number",
            lambda: import_record(f"{KIF_HEAD}{'9' * 5000} ７六歩(77)\n".encode()),
            "line 3: the move number must be from 1 to 999999",
        ),
        (
            "a 5000-digit KIF square",
            lambda: import_record(f"{KIF_HEAD}   1 {'7' * 5000}六歩\n".encode()),
            "too long for a square",
        ),
        (
            "a 5000-digit KIF hand count",
            lambda: import_record(_bod(hand="歩" + "9" * 5000)),
            "the number of pawns in hand must be from 1 to 18",
        ),
        (
            "a KIF board row 20,000 squares wide",
            lambda: import_record(
                b"#KOMABOT-VARIANT: shogi\n" + _bod(row="|" + " ・" * 20_000 + "|一")
            ),
            "a board row has more than 9 squares",
        ),
    ],
)
def test_pathological_input_costs_little(name: str, work: Callable[[], object], said: str) -> None:
    error = _within_budget(work)
    assert said in error.message, (name, error.message)


# --- typed errors that name the line ------------------------------------------------------


def _bod(
    hand: str = "なし",
    row: str = "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四",
    pawns: str = "| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七",
) -> bytes:
    rows = [
        "|v香v桂v銀v金v玉v金v銀v桂v香|一",
        "| ・v飛 ・ ・ ・ ・ ・v角 ・|二",
        "|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三",
        row,
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六",
        pawns,
        "| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八",
        "| 香 桂 銀 金 玉 金 銀 桂 香|九",
    ]
    border = "+---------------------------+"
    lines = ["後手の持駒：なし", border, *rows, border, f"先手の持駒：{hand}", "手数----指手"]
    return "\n".join(lines).encode()


@pytest.mark.parametrize("digit", STRAY_DIGITS)
def test_stray_digits_in_sfen(digit: str) -> None:
    board = START.split()[0]
    for sfen in (
        f"{board[:-2]}{digit}L b - 1",  # an empty run
        f"{board} b {digit}P 1",  # a hand count
        f"{board} b - {digit}",  # the move number
    ):
        with pytest.raises(InvalidSetupError):
            Position.from_sfen(SHOGI, sfen)


@pytest.mark.parametrize(
    ("data", "filename", "said"),
    [
        (_bod(hand="歩²"), None, "line 13: cannot read the count '²' in hand"),
        (_bod(hand="歩٣"), None, "line 13: cannot read the count '٣' in hand"),
        (_bod(hand="歩1²"), None, "line 13: the number of pawns in hand must be written"),
        (_bod(hand="歩十九"), None, "line 13: the number of pawns in hand must be from 1 to 18"),
        (_bod(hand="歩99999"), None, "line 13: the number of pawns in hand must be from 1 to 18"),
        (f"{KIF_HEAD}٣ ７六歩(77)\n".encode(), None, "line 3: cannot read"),
        (
            f"{KIF_HEAD}   1 ７六歩(7²)\n".encode(),
            None,
            "line 3: move 1 '７六歩(7²)': '7六歩(7²)': cannot read '(7²)'",
        ),
        ("V2.2\nPI²²KY\n+\n".encode(), "a.csa", "line 2: cannot read"),
        ("V2.2\nP²-KY-KE-GI-KI-OU-KI-GI-KE-KY\n+\n".encode(), "a.csa", "line 2: cannot read"),
        ("V2.2\nPI\n+\n+٧٧٧٦FU\n".encode(), "a.csa", "line 4: cannot read"),
        (
            f"V2.2\nP1{' * ' * 5}-OU{' * ' * 3}\nP+²²FU\nP9{' * ' * 5}+OU{' * ' * 3}\n+\n".encode(),
            "a.csa",
            "line 3: '²²' is not a square",
        ),
        (f"position sfen {START[:-1]}² moves\n".encode(), None, "line 1: bad SFEN"),
        (f"position sfen {START.replace(' - ', ' ٣P ')} moves\n".encode(), None, "'٣' cannot be"),
    ],
)
def test_stray_digits_in_records_name_the_line(
    data: bytes, filename: str | None, said: str
) -> None:
    with pytest.raises(RecordError) as info:
        import_record(data, filename)
    assert said in info.value.message


@pytest.mark.parametrize("text", ["7²7f", "P-7²", "76歩(7²)", "٣٣", "P-٣d"])
def test_stray_digits_in_moves_are_not_read_as_digits(text: str) -> None:
    pos = Position.start(SHOGI)
    with pytest.raises(RulesError) as info:
        parse_move(pos, text)
    assert info.value.code in ("malformed_move", "bad_square")


def test_full_width_and_kanji_numbers_still_read() -> None:
    pos = Position.start(SHOGI)
    assert pos.usi(parse_move(pos, "７六歩")) == "7g7f"
    assert pos.usi(parse_move(pos, "七六歩")) == "7g7f"
    record = import_record(_bod(hand="歩２", pawns="| 歩 歩 歩 歩 歩 歩 歩 ・ ・|七"))
    assert record.start_position().hands[0][SHOGI.by_letter["P"].kind] == 2


# --- variant ids: the registry only -------------------------------------------------------


@pytest.fixture
def outside_file(tmp_path: Path) -> Path:
    """A TOML file outside the data folder, its path without the suffix."""
    path = tmp_path / "secret.toml"
    path.write_text("[private_section]\nkey = 1\n", encoding="utf-8")
    return path.with_suffix("")


def _ids_to_refuse(outside_file: Path) -> list[str]:
    relative = os.path.relpath(outside_file, data_dir() / "variants")
    return [relative, str(outside_file), "../../../../../x", "wa\x00", "\ud800", "WA", "wa "]


def test_load_variant_takes_known_ids_only(outside_file: Path) -> None:
    for text in _ids_to_refuse(outside_file):
        with pytest.raises(VariantFileError) as info:
            load_variant(text)
        assert info.value.code == "unknown_variant", text
        assert "(known: shogi, wa, wa-drops)" in info.value.message
        assert "private_section" not in info.value.message
    assert [load_variant(v).id for v in available_variants()] == ["shogi", "wa", "wa-drops"]


def test_records_name_known_variants_only(outside_file: Path) -> None:
    relative = os.path.relpath(outside_file, data_dir() / "variants")
    for data in (
        f"#KOMABOT-VARIANT: {relative}\n{KIF_HEAD}".encode(),
        f"#KOMABOT-VARIANT: {outside_file}\n{KIF_HEAD}".encode(),
        "#KOMABOT-VARIANT: wa\x00\n手数----指手\n".encode(),
        f"position startpos moves 7g7f\n# variant: {relative}\n".encode(),
        b"position startpos moves 7g7f\n# variant: wa\x00\n",
    ):
        with pytest.raises(RecordError) as info:
            import_record(data)
        assert info.value.message.startswith(("line 1: ", "line 2: "))
        assert "unknown variant" in info.value.message
        assert "known: shogi, wa, wa-drops" in info.value.message
        assert "private_section" not in info.value.message
        assert info.value.code == "unknown_variant"


def test_inherits_names_a_variant_of_the_same_folder(tmp_path: Path) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    for name in ("shogi", "wa", "wa-drops"):
        text = (data_dir() / "variants" / f"{name}.toml").read_text(encoding="utf-8")
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    (tmp_path / "outside.toml").write_text("[private_section]\n", encoding="utf-8")
    path = folder / "wa-drops.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('inherits = "wa"', 'inherits = "../outside"'), encoding="utf-8")
    with pytest.raises(VariantFileError) as info:
        read_variant_file(path)
    assert info.value.code == "unknown_variant"
    assert "private_section" not in info.value.message
    assert read_variant_file(folder / "wa.toml").id == "wa"  # by path: the explicit way


# --- no Unicode digit tests in the rules core ---------------------------------------------

_UNICODE_DIGIT_CHECKS = re.compile(r"\\d|\.isdigit\(|\.isdecimal\(|\.isnumeric\(")


def test_rules_core_reads_digits_in_one_place() -> None:
    """``\\d``, ``str.isdigit``, ``isdecimal`` and ``isnumeric`` take ² or ٣ for digits: the
    rules core tests digits with ``rules.numbers`` only."""
    offenders = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        if path.name == "numbers.py":
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if _UNICODE_DIGIT_CHECKS.search(code):
                offenders.append(f"{path.relative_to(RULES_DIR.parent)}:{no}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


# --- fuzzing every reader -----------------------------------------------------------------


def _samples() -> dict[str, list[str]]:
    """Record texts of every format to mutate: from the start and from a diagram."""
    shogi_moves = tuple(random_game("shogi", 7, max_plies=40))
    middle = Position.start(SHOGI)
    for usi in shogi_moves[:12]:
        middle.push_usi(usi)
    wa_moves = tuple(random_game("wa-drops", 3, max_plies=40))
    records = [
        GameRecord("shogi", START, shogi_moves, "先手さん", "gote"),
        GameRecord("shogi", middle.sfen(), shogi_moves[12:20]),
        GameRecord("wa-drops", WA_DROPS.start_sfen, wa_moves),
    ]
    out: dict[str, list[str]] = {"kif": [], "csa": [], "usi": []}
    for record in records:
        out["kif"].append(export_record(record, "kifu").decode("utf-8"))
        out["usi"].append(export_record(record, "usi").decode("utf-8"))
        if record.variant == "shogi":
            out["csa"].append(export_record(record, "csa").decode("utf-8"))
    out["kif"].append(f"手合割：平手\n先手の持駒：なし\n▲７六歩　△３四歩　▲２六歩\n{KIF_HEAD}")
    return out


SAMPLES = _samples()
READERS: dict[str, Callable[[str], GameRecord]] = {
    "kif": read_kif,
    "csa": read_csa,
    "usi": read_usi,
}
hostile_piece = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(2, 6000).map(lambda n: "9" * n),
    st.text(min_size=1, max_size=3),
)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few characters replaced by, or followed by, hostile ones; digits are
    picked often, as that is where numbers are read."""
    digits = [i for i, c in enumerate(text) if c.isascii() and c.isdigit()]
    for _ in range(draw(st.integers(1, 3))):
        if digits and draw(st.booleans()):
            i = draw(st.sampled_from(digits))
        else:
            i = draw(st.integers(0, len(text) - 1))
        piece = draw(hostile_piece)
        keep = draw(st.booleans())
        text = text[: i + keep] + piece + text[i + 1 :]
    return text


@st.composite
def mutated_record(draw: st.DrawFn) -> tuple[str, str]:
    fmt = draw(st.sampled_from(sorted(SAMPLES)))
    return fmt, draw(mutated(draw(st.sampled_from(SAMPLES[fmt]))))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_record())
def test_record_readers_parse_or_raise_rules_errors(case: tuple[str, str]) -> None:
    fmt, text = case
    for read in (READERS[fmt], lambda t: import_record(t.encode("utf-8", "surrogatepass"))):
        try:
            record = read(text)
        except RulesError as exc:
            assert exc.message
            continue
        record.final_position()


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([load_variant(v) for v in available_variants()]).flatmap(
        lambda v: st.tuples(st.just(v), mutated(v.start_sfen + " "))
    )
)
def test_sfen_reader_parses_or_raises_rules_errors(case: tuple[object, str]) -> None:
    variant, text = case
    try:
        pos = Position.from_sfen(variant, text)  # type: ignore[arg-type]
    except RulesError:
        return
    assert Position.from_sfen(pos.variant, pos.sfen()).sfen() == pos.sfen()


MOVE_TEXTS = ["7g7f", "P*5e", "P-7f", "N7g-6e=", "７六歩", "同　歩", "76歩(77)", "８八角成"]
POSITIONS = [Position.start(SHOGI), Position.start(load_variant("wa"))]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(POSITIONS) - 1), st.sampled_from(MOVE_TEXTS).flatmap(mutated))
def test_move_readers_parse_or_raise_rules_errors(index: int, text: str) -> None:
    pos = POSITIONS[index].copy()
    with contextlib.suppress(RulesError):
        read_move(pos, text)
    with contextlib.suppress(RulesError):
        assert parse_move(pos, text) in pos.legal_moves()
    with contextlib.suppress(RulesError):
        pos.push_usi(text)
