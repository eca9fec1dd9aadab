"""Printing moves: the shortest unambiguous text, and every printed move reads back."""

from __future__ import annotations

import random
import zlib

import pytest

from rules import Position, load_variant
from rules.notation import format_move, legal_move_texts, parse_move

STYLES = ("usi", "western", "japanese")


def _pos(variant: str = "shogi", sfen: str | None = None, *setup: str) -> Position:
    v = load_variant(variant)
    pos = Position.from_sfen(v, sfen) if sfen else Position.start(v)
    for usi in setup:
        pos.push_usi(usi)
    return pos


def _printed(pos: Position, usi: str) -> tuple[str, str, str]:
    move = pos.parse_usi(usi)
    return tuple(format_move(pos, move, s) for s in STYLES)  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("setup", "usi", "western", "japanese"),
    [
        ((), "7g7f", "P-7f", "７六歩"),
        ((), "6i5h", "G6i-5h", "５八金左"),
        ((), "4i5h", "G4i-5h", "５八金右"),
        (("7g7f", "3c3d"), "8h2b+", "Bx2b+", "２二角成"),
        (("7g7f", "3c3d"), "8h2b", "Bx2b=", "２二角不成"),
        (("7g7f", "3c3d", "8h2b+"), "3a2b", "Sx2b", "同　銀"),
        (("7g7f", "3c3d", "8h2b+", "3a2b"), "B*5e", "B*5e", "５五角"),
    ],
)
def test_standard_forms(setup: tuple[str, ...], usi: str, western: str, japanese: str) -> None:
    assert _printed(_pos("shogi", None, *setup), usi) == (usi, western, japanese)


def test_drop_written_without_da_when_no_board_piece_could_go() -> None:
    pos = _pos("shogi", "4k4/9/9/9/9/9/9/9/4K4 b B 1")
    assert format_move(pos, pos.parse_usi("B*5e"), "japanese") == "５五角"


def test_drop_written_with_da_when_a_board_piece_could_go() -> None:
    pos = _pos("shogi", "4k4/9/9/9/9/9/9/1B7/4K4 b B 1")
    assert format_move(pos, pos.parse_usi("B*5e"), "japanese") == "５五角打"
    assert format_move(pos, pos.parse_usi("8h5e"), "japanese") == "５五角"


def test_relative_words() -> None:
    pos = _pos("shogi", "4k4/9/9/9/9/9/9/9/K3GG3 b - 1")
    assert format_move(pos, pos.parse_usi("5i5h"), "japanese") == "５八金直"
    assert format_move(pos, pos.parse_usi("4i5h"), "japanese") == "５八金右"
    pos = _pos("shogi", "4k4/9/9/9/9/9/9/3G5/K4G3 b - 1")
    assert format_move(pos, pos.parse_usi("6h5h"), "japanese") == "５八金寄"
    assert format_move(pos, pos.parse_usi("4i5h"), "japanese") == "５八金上"


def test_wa_names_and_squares() -> None:
    pos = _pos("wa")
    assert _printed(pos, "8i6g") == ("8i6g", "TF-6g", "６七隠狐")
    assert _printed(pos, "11k11j") == ("11k11j", "OC-11j", "１１十牛車")
    pos = _pos("wa", "5k5/11/11/11/11/5+R5/11/11/11/11/K10 b - 1")
    assert _printed(pos, "6f6e") == ("6f6e", "+RR-6e", "６五成走兎")


def test_legal_move_texts_sorted_by_piece_then_square() -> None:
    texts = legal_move_texts(_pos(), "western")
    assert texts[:3] == ["K-4h", "K-5h", "K-6h"]
    assert texts[-1] == "P-9f"
    assert len(texts) == 30


def _random_positions(variant: str, seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = _pos(variant)
        for _ in range(rng.randint(10, 120)):
            legal = pos.legal_moves()
            if not legal:
                break
            lively = [m for m in legal if m.drop or m.promote or pos.board[m.to_sq]]
            pos.push(rng.choice(lively if lively and rng.random() < 0.5 else legal))
        if pos.legal_moves():
            out.append(pos)
    return out


@pytest.mark.parametrize("variant", ["shogi", "wa", "wa-drops"])
@pytest.mark.parametrize("style", STYLES)
def test_every_legal_move_text_is_unique_and_reads_back(variant: str, style: str) -> None:
    for pos in _random_positions(variant, seed=zlib.crc32(f"{variant}/{style}".encode()), count=10):
        texts = legal_move_texts(pos, style)
        assert len(set(texts)) == len(texts), pos.sfen()
        legal = pos.legal_moves()
        assert len(texts) == len(legal)
        read = {parse_move(pos, text) for text in texts}
        assert read == set(legal), pos.sfen()
