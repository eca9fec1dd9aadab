"""Finding pieces by any name."""

from __future__ import annotations

import pytest

from rules import RulesError
from rules.lookup import AmbiguousPieceError, UnknownPieceError, find_piece, normalize, words


def first(query: str, variants: list[str] | None = None) -> tuple[str, str]:
    match = find_piece(query, variants)[0]
    return match.variant_id, match.piece.code


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("飛鷹", ("wa", "FF")),  # kanji
        ("hiyō", ("wa", "FF")),  # romaji with macron
        ("hiyo", ("wa", "FF")),  # without
        ("HIYOU", ("wa", "FF")),  # long vowel spelled out, a typo difflib forgives
        ("Flying Falcon", ("wa", "FF")),
        ("flying falcon", ("wa", "FF")),
        ("flyng falcon", ("wa", "FF")),  # typo
        ("летящий сокол", ("wa", "FF")),  # Russian
        ("ЛЕТЯЩИЙ СОКОЛ", ("wa", "FF")),
        ("en'u", ("wa", "SW")),  # apostrophe
        ("enu", ("wa", "SW")),
        ("Swallows Wings", ("wa", "SW")),
        ("ff", ("wa", "FF")),  # Western code
        ("+ff", ("wa", "+FF")),
        ("鶏鷹", ("wa", "+FF")),
        ("Tenacious Falcon", ("wa", "+FF")),
        ("王", ("shogi", "K")),  # gote's king kanji
        ("玉", ("shogi", "K")),
        ("dragon", ("shogi", "+R")),
        ("ryūō", ("shogi", "+R")),
        ("龍", ("shogi", "+R")),
        ("tokin", ("shogi", "+P")),
        ("promoted pawn", ("shogi", "+P")),
        ("+p", ("shogi", "+P")),
        ("пешка", ("shogi", "P")),
        ("облачный орел", ("wa", "CE")),  # е for ё
    ],
)
def test_names(query: str, expected: tuple[str, str]) -> None:
    assert first(query) == expected


def test_letters_are_ambiguous_and_the_given_variant_wins() -> None:
    everywhere = [(m.variant_id, m.piece.code) for m in find_piece("P")]
    assert everywhere == [("shogi", "P"), ("wa", "SP")]
    assert first("P", ["wa"]) == ("wa", "SP")
    assert first("p", ["wa-drops"]) == ("wa-drops", "SP")
    assert first("P", ["shogi"]) == ("shogi", "P")


def test_preferred_variant_without_the_piece_falls_back_to_others() -> None:
    assert first("Flying Falcon", ["shogi"]) == ("wa", "FF")


def test_same_name_lists_unpromoted_piece_first() -> None:
    matches = find_piece("Treacherous Fox")
    assert [m.piece.code for m in matches] == ["TF", "+RR"]


def test_part_of_a_single_name_is_enough() -> None:
    assert first("sparrow") == ("wa", "SP")
    assert first("воробей") == ("wa", "SP")
    with pytest.raises(AmbiguousPieceError) as info:
        find_piece("falcon")  # three names, of two pieces and a promotion
    assert info.value.params["candidates"] == [
        "Flying Falcon",
        "Tenacious Falcon",
        "Raiding Falcon",
    ]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("fox", "TF"),  # Treacherous Fox (a promoted rabbit is one too: the same piece)
        ("Fox", "TF"),
        ("eagle", "CE"),  # Cloud Eagle (and the promoted owl that becomes one)
        ("wolf", "VW"),
        ("monkey", "CM"),
        ("crane", "CK"),
        ("ox", "+OC"),  # Plodding Ox, a whole word, though short
        ("лиса", "TF"),
        ("орёл", "CE"),
        ("狐", "TF"),  # one kanji of one piece's name
        ("cloud eagle", "CE"),
    ],
)
def test_a_word_of_exactly_one_piece_name_is_that_piece(query: str, code: str) -> None:
    assert first(query, ["wa"]) == ("wa", code)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("flying", ["Flying Falcon", "Flying Goose", "Flying Cock"]),
        ("violent", ["Violent Wolf", "Violent Stag"]),
        ("сокол", ["летящий сокол", "цепкий сокол", "сокол-налётчик"]),
    ],
)
def test_a_word_of_several_pieces_offers_the_choice(query: str, names: list[str]) -> None:
    with pytest.raises(AmbiguousPieceError) as info:
        find_piece(query, ["wa"])
    assert info.value.code == "ambiguous_piece"
    assert info.value.params["candidates"] == names
    assert all(name in info.value.message for name in names)


def test_gold_is_the_gold_general_not_the_golden_bird() -> None:
    # "gold" is a word of the Gold General's name only; "Golden Bird" has no word "gold"
    assert first("gold", ["shogi"]) == ("shogi", "G")
    assert first("gold", ["shogi", "wa"]) == ("shogi", "G")
    assert first("gold") == ("shogi", "G")
    with pytest.raises(AmbiguousPieceError):
        find_piece("general", ["shogi"])


def test_other_variants_only_when_the_asked_for_one_has_nothing() -> None:
    assert first("gold", ["wa"]) == ("shogi", "G")  # Wa has no gold at all
    assert first("fox", ["shogi"]) == ("wa", "TF")
    assert first("king", ["wa"]) == ("wa", "CK")  # a word of the Crane King, in Wa


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("鶴玉", "CK"),
        ("鶴", "CK"),
        ("雁飛", "FG"),
        ("鴈飛", "FG"),
        ("鷄飛", "FC"),
        ("鷄鷹", "+FF"),
        ("登猨", "CM"),
        ("雀歩", "SP"),
        ("走兔", "RR"),
        ("隱狐", "TF"),
        ("行豬", "+VS"),
        ("猛\uf92b", "VW"),  # a compatibility code point of 狼
    ],
)
def test_other_usual_kanji_spellings(query: str, code: str) -> None:
    assert first(query, ["wa"]) == ("wa", code)


def test_wa_and_wa_drops_do_not_duplicate() -> None:
    assert [m.variant_id for m in find_piece("Sparrow Pawn")] == ["wa"]


def test_unknown_name_gives_candidates() -> None:
    with pytest.raises(UnknownPieceError) as info:
        find_piece("wooden falcon")
    err = info.value
    assert isinstance(err, RulesError)
    assert err.code == "unknown_piece"
    assert "Flying Falcon" in err.params["candidates"]
    assert "Flying Falcon" in err.message


@pytest.mark.parametrize("query", ["", "   ", "qqqqq", "🐉"])
def test_nonsense_raises_cleanly(query: str) -> None:
    with pytest.raises(UnknownPieceError):
        find_piece(query)


def test_unknown_variant_is_its_own_error() -> None:
    with pytest.raises(RulesError) as info:
        find_piece("P", ["chess"])
    assert info.value.code == "unknown_variant"


def test_words_of_a_name() -> None:
    assert words("Swallow's Wings") == ("swallow", "s", "wings")
    assert words("сокол-налётчик") == ("сокол", "налетчик")
    assert words("靏玉") == ("靏", "玉")


def test_normalize() -> None:
    assert normalize("  Ryū-ō ") == "ryuo"
    assert normalize("Swallow's Wings") == "swallowswings"
    assert normalize("Ёж") == "еж"


def test_asked_for_variant_wins_before_other_variants_exact_names() -> None:
    # "horse" is exactly Standard Shogi's promoted bishop, but in Wa it means the Liberated
    # Horse (and its promotion): the asked-for variant is searched in every way first.
    found = find_piece("horse", ["wa"])
    assert {m.piece.names["en"] for m in found} == {"Liberated Horse", "Heavenly Horse"}
    assert find_piece("horse", ["shogi"])[0].piece.names["en"] == "Horse"
