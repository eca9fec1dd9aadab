"""What a translator must fix in a ``.po`` file, said in words a translator reads.

:func:`problems` returns errors (the tests and ``scripts/i18n check`` fail on them) and
:func:`notes` things to look at that are allowed (fuzzy entries, which the bot says in English).
"""

from __future__ import annotations

import string
from collections.abc import Iterator

from babel.messages.catalog import Catalog, Message

from bot.core.i18n.plurals import PluralFormsError, category_indices
from bot.core.i18n.pofiles import entries, is_counted, key_of, texts


def fields(template: str) -> set[str]:
    """The ``{placeholders}`` of a template, by name (``{text!r}`` -> ``text``)."""
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def template_problems(lang: str, catalog: Catalog) -> Iterator[str]:
    """Templates that cannot be filled in: a lone ``{`` or ``}``."""
    for message in entries(catalog):
        for text in (*texts(message.id), *texts(message.string)):
            try:
                fields(text)
            except ValueError as e:
                yield f"{lang}.po {key_of(message)}: {e} in {text!r} (write {{{{ for a {{)"


def plural_problems(lang: str, catalog: Catalog) -> Iterator[str]:
    try:
        category_indices(lang, catalog.plural_expr, catalog.num_plurals)
    except PluralFormsError as e:
        yield f"{lang}.po: the Plural-Forms header does not fit the language: {e}"


def translation_problems(lang: str, catalog: Catalog, source: Catalog) -> Iterator[str]:
    """A translation against ``en.po``: missing, stale, wrong placeholders, missing forms."""
    originals = {key_of(m): m for m in entries(source)}
    mine: dict[str, Message] = {key_of(m): m for m in entries(catalog)}
    for key in originals.keys() - mine.keys():
        yield f"{lang}.po {key}: missing (scripts/i18n update adds it to translate)"
    for key in mine.keys() - originals.keys():
        yield f"{lang}.po {key}: not in en.po any more (scripts/i18n update removes it)"
    for key, message in mine.items():
        original = originals.get(key)
        if original is None or message.fuzzy:
            continue
        where = f"{lang}.po {key}"
        if message.id != original.id:
            yield (
                f"{where}: the English text changed and the translation was neither updated "
                f"nor marked fuzzy (was {message.id!r}, now {original.id!r})"
            )
            continue
        strings = texts(message.string)
        counted = is_counted(original)
        if not any(s.strip() for s in strings):
            yield f"{where}: not translated yet"
            continue
        if counted and len(strings) != catalog.num_plurals:
            yield f"{where}: {len(strings)} plural forms, Plural-Forms says {catalog.num_plurals}"
        for index, text in enumerate(strings):
            form = f" form {index}" if counted else ""
            if not text.strip():
                yield f"{where}: plural form {index} is missing"
                continue
            try:
                have, want = fields(text), set().union(*map(fields, texts(original.id)))
            except ValueError:
                continue  # said by template_problems
            if have != want:
                yield (
                    f"{where}{form}: placeholders {sorted(have)} differ from English {sorted(want)}"
                )


def problems(catalogs: dict[str, Catalog], source_lang: str = "en") -> list[str]:
    """Every error of every catalogue; ``catalogs`` as :func:`.pofiles.read_all` gives."""
    found: list[str] = []
    source = catalogs[source_lang]
    for lang, catalog in catalogs.items():
        found += template_problems(lang, catalog)
        found += plural_problems(lang, catalog)
        if str(catalog.locale) != lang:
            found.append(f"{lang}.po: its Language header says {catalog.locale}")
        if lang != source_lang:
            found += translation_problems(lang, catalog, source)
    return found


def notes(catalogs: dict[str, Catalog]) -> list[str]:
    """Allowed but worth a translator's look: fuzzy entries (the bot says them in English)."""
    return [
        f"{lang}.po {key_of(m)}: fuzzy (check it, then remove the fuzzy mark)"
        for lang, catalog in catalogs.items()
        for m in entries(catalog)
        if m.fuzzy
    ]
