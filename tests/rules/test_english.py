"""English grammar in the rules core's messages: "an oxcart", never "a oxcart"."""

from __future__ import annotations

import pytest

from rules import IllegalMoveError, Position, load_variant
from rules.english import indefinite_article, with_article


@pytest.mark.parametrize(
    ("noun", "expected"),
    [
        ("oxcart", "an oxcart"),
        ("Oxcart", "an Oxcart"),
        ("eagle", "an eagle"),
        ("rook", "a rook"),
        ("sparrow pawn", "a sparrow pawn"),
        ("unicorn", "a unicorn"),
        ("hour", "an hour"),
        ("Wa Shogi", "a Wa Shogi"),
    ],
)
def test_with_article(noun: str, expected: str) -> None:
    assert with_article(noun) == expected


def test_every_piece_name_gets_an_article() -> None:
    for vid in ("shogi", "wa"):
        for piece in load_variant(vid).pieces:
            name = piece.name.lower()
            assert indefinite_article(name) == ("an" if name[0] in "aeiou" else "a"), name


ONE_OXCART = "1k9/11/11/11/11/11/11/11/11/O10/10K b - 1"


@pytest.mark.parametrize(
    ("usi", "message"),
    [
        ("11j10i", "an oxcart cannot move from 11j to 10i"),
        ("11j11a", "an oxcart on 11a could never move again, so it must promote there (add +)"),
    ],
)
def test_illegal_oxcart_moves_say_an_oxcart(usi: str, message: str) -> None:
    pos = Position.from_sfen(load_variant("wa"), ONE_OXCART)
    with pytest.raises(IllegalMoveError) as info:
        pos.check_legal(pos.parse_usi(usi))
    assert info.value.message == message
