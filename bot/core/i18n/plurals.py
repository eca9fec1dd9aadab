"""Which ``msgstr[N]`` of a ``.po`` file serves which CLDR plural category.

The bot picks a counted message's form by Babel's CLDR rules (``one``, ``few``, ``many``,
``other``); a ``.po`` file numbers its forms by the C expression of its ``Plural-Forms`` header.
:func:`category_indices` links the two by evaluating both on whole numbers: every category a
whole count can fall into must always give the same index.  For Russian and Polish that is
``one`` -> 0, ``few`` -> 1, ``many`` -> 2; their CLDR ``other`` is only for fractions, which a
count never is, so it has no form.  English: ``one`` -> 0, ``other`` -> 1; Japanese:
``other`` -> 0.  A header that disagrees with CLDR (say, two forms for Russian) is an error.
"""

from __future__ import annotations

import gettext
from functools import cache

from babel import Locale

# whole numbers on which CLDR integer rules and gettext expressions differ, if they ever do:
# every remainder modulo 100 and 1000, and large round numbers (French ``many`` is 1000000)
SAMPLES: tuple[int, ...] = (*range(0, 1200), *(10**k for k in range(4, 10)), 1100000)


class PluralFormsError(ValueError):
    """A ``Plural-Forms`` header that does not fit the language's CLDR plural rules."""


@cache
def category_indices(lang: str, plural_expr: str, nplurals: int) -> dict[str, int]:
    """CLDR category -> ``msgstr`` index, for the categories whole numbers fall into."""
    try:
        index_of = gettext.c2py(plural_expr)
    except (ValueError, SyntaxError) as e:
        raise PluralFormsError(f"plural={plural_expr}: {e}") from None
    rule = Locale.parse(lang).plural_form
    found: dict[str, int] = {}
    for n in SAMPLES:
        category, index = rule(n), index_of(n)
        if not 0 <= index < nplurals:
            raise PluralFormsError(f"n={n} gives form {index} of nplurals={nplurals}")
        if found.setdefault(category, index) != index:
            raise PluralFormsError(
                f"CLDR category {category!r} is form {found[category]} for some numbers "
                f"and form {index} for n={n}"
            )
    unused = set(range(nplurals)) - set(found.values())
    if unused:
        raise PluralFormsError(f"no whole number uses form(s) {sorted(unused)}")
    return found
