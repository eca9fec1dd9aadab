"""Small pieces of English grammar for the rules core's messages."""

from __future__ import annotations

# Words spelled with a vowel but said with a consonant sound ("a unicorn", "a one-way"), and
# the reverse ("an hour"): the beginnings that decide, lower case.
_CONSONANT_SOUND = ("one", "once", "uni", "use", "usu", "uti", "ure", "eu", "ewe")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir")


def indefinite_article(word: str) -> str:
    """``a`` or ``an``, by how ``word`` is said: ``an`` oxcart, ``a`` sparrow pawn."""
    low = word.strip().lower()
    if low.startswith(_VOWEL_SOUND):
        return "an"
    if not low or low.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if low[0] in "aeiou" else "a"


def with_article(noun: str) -> str:
    """``noun`` after its indefinite article: ``an oxcart``, ``a rook``."""
    return f"{indefinite_article(noun)} {noun}"
