"""The ``.po`` files as the lookup tables of :mod:`bot.core.messages`.

A translation is used when it translates the English text ``en.po`` has now and is not marked
``fuzzy``; otherwise the message is left out of the language's table and the bot says it in
English, as gettext itself does (it finds a translation by the English text).  A fuzzy entry
is a guess or a translation of an older English text: a translator must look at it first.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import babel
from babel.messages.catalog import Catalog, Message

from bot.core.i18n.plurals import category_indices
from bot.core.i18n.pofiles import (
    SOURCE,
    entries,
    is_counted,
    key_of,
    languages,
    po_dir,
    read_all,
    texts,
)

Plain = dict[str, str]  # key -> template
Counted = dict[str, dict[str, str]]  # key -> CLDR category -> template


@dataclass(frozen=True)
class Tables:
    plain: dict[str, Plain]  # language -> its messages
    counted: dict[str, Counted]
    categories: dict[str, frozenset[str]]  # language -> the CLDR categories of whole numbers


def indices(lang: str, catalog: Catalog) -> dict[str, int]:
    """The catalogue's CLDR category -> ``msgstr`` index (see :mod:`.plurals`)."""
    return category_indices(lang, catalog.plural_expr, catalog.num_plurals)


def english(catalog: Catalog) -> tuple[Plain, Counted]:
    """``en.po``: the texts are the ``msgid`` (singular) and ``msgid_plural``."""
    plain: Plain = {}
    counted: Counted = {}
    forms = indices(SOURCE, catalog)
    for message in entries(catalog):
        ids = texts(message.id)
        if is_counted(message):
            counted[key_of(message)] = {c: ids[min(i, 1)] for c, i in forms.items()}
        else:
            plain[key_of(message)] = ids[0]
    return plain, counted


def usable(message: Message, source: Mapping[str, Message]) -> bool:
    """A translation of the current English text, not fuzzy, with every form filled in."""
    original = source.get(key_of(message))
    strings = texts(message.string)
    return (
        original is not None
        and original.id == message.id
        and not message.fuzzy
        and all(s.strip() for s in strings)
    )


def translation(lang: str, catalog: Catalog, source: Catalog) -> tuple[Plain, Counted]:
    """A translated file's usable entries (the rest falls back to English)."""
    plain: Plain = {}
    counted: Counted = {}
    forms = indices(lang, catalog)
    originals = {key_of(m): m for m in entries(source)}
    for message in entries(catalog):
        if not usable(message, originals):
            continue
        strings = texts(message.string)
        if is_counted(message):
            counted[key_of(message)] = {c: strings[i] for c, i in forms.items()}
        else:
            plain[key_of(message)] = strings[0]
    return plain, counted


def load(folder: Path | None = None) -> Tables:
    catalogs = read_all(folder)
    plain: dict[str, Plain] = {}
    counted: dict[str, Counted] = {}
    categories = {lang: frozenset(indices(lang, c)) for lang, c in catalogs.items()}
    source = catalogs[SOURCE]
    for lang, catalog in catalogs.items():
        if lang == SOURCE:
            plain[lang], counted[lang] = english(catalog)
        else:
            plain[lang], counted[lang] = translation(lang, catalog, source)
    return Tables(plain, counted, categories)


CACHE_FORMAT = 1
"""Changes when :class:`Tables` or what :func:`load` puts in them changes (old caches are then
not read)."""


def load_cached(folder: Path | None = None) -> Tables:
    """:func:`load`, kept between processes: the tables of ``.po`` files whose bytes were seen
    before are read from ``__pycache__/tables-<digest>.<tag>.marshal`` beside them, as Python
    keeps compiled modules.  Reading the files with Babel and checking their plural forms take
    about 0.2 s, half of a ``komabot`` process's start; the cache takes a few milliseconds.
    The digest covers every file's name and bytes and Babel's version, so an edited file is
    read again; a folder that cannot be written to just goes without the cache."""
    where = folder or po_dir()
    # the plural categories come from Babel's CLDR data: a new Babel reads the files again
    digest = hashlib.sha256(f"{CACHE_FORMAT} {babel.__version__}".encode())
    for lang in languages(where):
        digest.update(f"\0{lang}\0".encode())
        digest.update((where / f"{lang}.po").read_bytes())
    cache_dir = where / "__pycache__"
    path = cache_dir / f"tables-{digest.hexdigest()[:20]}.{sys.implementation.cache_tag}.marshal"
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        plain, counted, categories = marshal.loads(path.read_bytes())
        return Tables(plain, counted, categories)
    tables = load(where)
    with contextlib.suppress(OSError):
        _write(cache_dir, path, marshal.dumps((tables.plain, tables.counted, tables.categories)))
    return tables


def _write(cache_dir: Path, path: Path, data: bytes) -> None:
    """``data`` to ``path`` in one step (a reader never sees half a file), and the caches of
    earlier versions of the files away."""
    cache_dir.mkdir(exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=cache_dir, prefix=".tables-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    for old in cache_dir.glob("tables-*.marshal"):
        if old != path:
            with contextlib.suppress(OSError):
                old.unlink()
