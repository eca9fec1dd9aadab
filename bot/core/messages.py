"""Every user-facing string of the bot, keyed, in every language: the public face of the
gettext catalogues in :mod:`bot.core.i18n` (``en.po``, ``ru.po``, ``ja.po``, ``pl.po``).

``text(key, lang, **params)`` formats a message; a language that lacks a key (or whose
translation is marked fuzzy, or translates an older English text) falls back to English.  Keys
are dotted: ``area.what``.  Messages that count something (``2 дня``, ``5 очков``) have one
template per CLDR plural category whole numbers fall into (``one``/``other`` in English;
``one``/``few``/``many`` in Russian and Polish), and ``plural(key, lang, n)`` picks the form by
Babel's plural rules for ``lang``.  Add a language by adding one ``.po`` file
(``docs/translators.md``); the files are read once, when this module is imported (their
tables are cached between processes: :func:`bot.core.i18n.tables.load_cached`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from babel import Locale

from bot.core.i18n.tables import load_cached

_TABLES = load_cached()

EN: Mapping[str, str] = _TABLES.plain["en"]
# Counted messages: CLDR plural category -> template; ``{n}`` is the count.
EN_PLURAL: Mapping[str, Mapping[str, str]] = _TABLES.counted["en"]
CATALOGUE: dict[str, Mapping[str, str]] = dict(_TABLES.plain)
PLURAL_CATALOGUE: dict[str, Mapping[str, Mapping[str, str]]] = dict(_TABLES.counted)
LANGUAGES: tuple[str, ...] = tuple(CATALOGUE)


def text(key: str, lang: str = "en", /, **params: Any) -> str:
    """The message ``key`` in ``lang`` (falling back to English) with ``params`` filled in; a
    list or tuple is written as the language writes a list (``a, b`` or ``a、b``)."""
    template = CATALOGUE.get(lang, EN).get(key) or EN[key]
    if not params:
        return template
    for name, value in params.items():
        if isinstance(value, list | tuple):
            params[name] = listing(value, lang)
    return template.format(**params)


def listing(items: list[Any] | tuple[Any, ...], lang: str) -> str:
    """Items joined as ``lang`` lists them: ``a, b, c`` in English, ``a、b、c`` in Japanese."""
    separator = CATALOGUE.get(lang, EN).get("describe.list") or EN["describe.list"]
    return separator.join(str(item) for item in items)


@cache
def locale(lang: str) -> Locale:
    """Babel's CLDR data for a catalogue language (unknown ones: English)."""
    return Locale.parse(lang if lang in CATALOGUE else "en")


@lru_cache(maxsize=4096)
def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of ``n`` in ``lang``: ``one``, ``few``, ``many``, ``other``...
    (kept: Babel takes about 13 us to work it out, and the counts said are mostly small)."""
    return locale(lang).plural_form(n)


def plural_categories(lang: str) -> frozenset[str]:
    """Every plural category a whole number falls into in ``lang`` (the forms a counted
    message has: CLDR's ``other`` of Russian and Polish is for fractions only)."""
    return _TABLES.categories.get(lang, _TABLES.categories["en"])


def plural(key: str, lang: str, n: int, /, **params: Any) -> str:
    """The counted message ``key`` for ``n`` in ``lang`` (falling back to English), in the
    grammatical form Babel's plural rules choose: ``2 дня``, ``5 дней``, ``21 день``."""
    if key not in PLURAL_CATALOGUE.get(lang, {}):
        lang = "en"
    template = PLURAL_CATALOGUE[lang][key][plural_category(lang, n)]
    return template.format(n=n, **params)


def has(key: str) -> bool:
    return key in EN or key in EN_PLURAL
