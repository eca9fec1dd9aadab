"""Handicap games (駒落ち): every handicap of Standard Shogi starts from the position shogi
players know, gote (the giver) to move; cshogi, an independent rules implementation, finds the
same moves there; a handicap entry that cannot be built names its key."""

from __future__ import annotations

from pathlib import Path

import cshogi
import pytest

from rules import GOTE, VariantFileError, load_variant
from rules.handicaps import handicap_position
from rules.perft import perft
from rules.variant import read_variant_file
from tests.rules.test_variant_files import _break, variants_copy  # noqa: F401 (fixture)

KNOWN = {  # the usual handicaps, with the pieces the giver leaves out (gote's side, rank a/b)
    "lance": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "bishop": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "rook": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "rook-lance": "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "two-piece": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "four-piece": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "six-piece": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "eight-piece": "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "ten-piece": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
JAPANESE = {
    "lance": "香落ち",
    "bishop": "角落ち",
    "rook": "飛車落ち",
    "rook-lance": "飛香落ち",
    "two-piece": "二枚落ち",
    "four-piece": "四枚落ち",
    "six-piece": "六枚落ち",
    "eight-piece": "八枚落ち",
    "ten-piece": "十枚落ち",
}


def test_every_usual_handicap_in_order() -> None:
    handicaps = load_variant("shogi").handicaps
    assert list(handicaps) == list(KNOWN)
    assert {h.id: h.sfen for h in handicaps.values()} == KNOWN
    assert {h.id: h.names["ja"] for h in handicaps.values()} == JAPANESE
    for handicap in handicaps.values():
        assert set(handicap.names) == {"en", "ja", "romaji", "ru", "pl"}


@pytest.mark.parametrize("handicap_id", list(KNOWN))
def test_the_giver_moves_first_and_cshogi_agrees_on_the_moves(handicap_id: str) -> None:
    pos = handicap_position(load_variant("shogi"), handicap_id)
    assert pos.side == GOTE and pos.move_number == 1
    board = cshogi.Board(KNOWN[handicap_id])
    ours = sorted(pos.usi(m) for m in pos.legal_moves())
    theirs = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
    assert ours == theirs
    replies = 0
    for move in board.legal_moves:
        board.push(move)
        replies += len(list(board.legal_moves))
        board.pop()
    assert perft(pos, 2) == replies


def test_wa_has_no_handicaps() -> None:
    assert load_variant("wa").handicaps == {}
    with pytest.raises(KeyError):
        handicap_position(load_variant("wa"), "rook")


@pytest.mark.parametrize(
    ("remove", "problem"),
    [
        ('["8h"]', "8h holds no piece of gote's at the start"),
        ('["5e"]', "5e holds no piece of gote's"),
        ('["5a"]', "5a holds gote's king"),
        ('["0z"]', "'0z' is not a square"),
        ("[]", "lists no square"),
        ("[1]", 'expected a list of squares like "1a"'),
    ],
)
def test_a_bad_handicap_names_file_and_key(
    variants_copy: Path,  # noqa: F811 (the fixture)
    remove: str,
    problem: str,
) -> None:
    _break(variants_copy, "shogi", 'remove = ["8b"]\n', f"remove = {remove}\n")
    with pytest.raises(VariantFileError) as info:
        read_variant_file(variants_copy / "shogi.toml")
    assert "shogi.toml: key 'handicaps.rook.remove'" in str(info.value)
    assert problem in str(info.value)


def test_a_handicap_needs_english_names(variants_copy: Path) -> None:  # noqa: F811
    _break(
        variants_copy,
        "shogi",
        'names = { en = "Rook", ja = "飛車落ち"',
        'names = { ja = "飛車落ち"',
    )
    with pytest.raises(VariantFileError, match=r"handicaps\.rook\.names\.en"):
        read_variant_file(variants_copy / "shogi.toml")


def test_a_handicap_is_found_by_its_id_or_any_of_its_names() -> None:
    from rules.handicaps import find_handicap

    shogi = load_variant("shogi")
    for text in ("rook", "飛車落ち", "Hisha-Ochi", " без  ладьи ", "Bez wieży", "ROOK"):
        found = find_handicap(shogi, text)
        assert found is not None and found.id == "rook", text
    assert find_handicap(shogi, "queen") is None
    assert find_handicap(load_variant("wa"), "rook") is None
