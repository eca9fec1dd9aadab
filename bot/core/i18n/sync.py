"""Keeping the translations in step with ``en.po``, and bringing in keys from the former Python
dict catalogues (``bot/core/messages.py`` with ``EN``/``EN_PLURAL``, ``messages_ru.py`` with
``RU``/``RU_PLURAL``...), for example from a branch that added keys to them.

:func:`update` does what ``msgmerge --previous`` does, by key: a translation whose English text
changed gets the new English text as ``msgid``, the old one as the previous ``#| msgid``, and
the ``fuzzy`` flag, so the bot says it in English until a translator has looked at it.
"""

from __future__ import annotations

import ast
import re
import string
from dataclasses import dataclass, field
from datetime import UTC, datetime

from babel.messages.catalog import Catalog

from bot.core.i18n.plurals import category_indices
from bot.core.i18n.pofiles import entries, is_counted, key_of, texts

KEY_LINE = re.compile(r'^\s*"([a-z_]+(?:\.[a-z_0-9]+)+)":')
COMMENT_LINE = re.compile(r"^\s*#\s?(.*)$")


@dataclass
class DictCatalogue:
    """One language's tables from a Python dict catalogue module."""

    plain: dict[str, str] = field(default_factory=dict)
    counted: dict[str, dict[str, str]] = field(default_factory=dict)  # key -> category -> text
    comments: dict[str, list[str]] = field(default_factory=dict)  # key -> comment lines above


def parse_dict_module(source: str, lang: str) -> DictCatalogue:
    """The ``XX`` and ``XX_PLURAL`` dict literals (``XX`` = ``lang`` in capitals) of a module's
    source text, read without running it, and the comment lines written above each key."""
    found = DictCatalogue()
    names = {lang.upper(): "plain", f"{lang.upper()}_PLURAL": "counted"}
    for node in ast.parse(source).body:
        target: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and target.id in names and value is not None:
            setattr(found, names[target.id], ast.literal_eval(value))
    pending: list[str] = []
    for line in source.splitlines():
        if m := COMMENT_LINE.match(line):
            pending.append(m.group(1).strip(" -"))
        elif m := KEY_LINE.match(line):
            if pending:
                found.comments[m.group(1)] = [c for c in pending if c]
            pending = []
    return found


def brace_flags(*texts: str) -> set[str]:
    """``python-brace-format`` for a template with ``{fields}``: GNU ``msgfmt --check`` then
    checks that a translation has the same fields."""
    for text in texts:
        if any(f is not None for _, f, _, _ in string.Formatter().parse(text)):
            return {"python-brace-format"}
    return set()


def new_catalog(lang: str, header_comment: str) -> Catalog:
    """An empty catalogue for ``lang``, its Plural-Forms from Babel's data for the language."""
    return Catalog(
        locale=lang,
        project="Komabot",
        version="1",
        header_comment="\n".join(f"# {line}".rstrip() for line in header_comment.splitlines()),
        fuzzy=False,
        msgid_bugs_address="the Komabot issue tracker",
        revision_date=datetime.now(UTC),
        language_team=f"Komabot {lang}",
        last_translator="Komabot",
    )


def add_english(catalog: Catalog, tables: DictCatalogue, only_new: bool) -> list[str]:
    """Add the English dict tables to ``en.po``; returns the keys added."""
    have = {key_of(m) for m in entries(catalog)}
    added = []
    for key, text in tables.plain.items():
        if not (only_new and key in have):
            catalog.add(
                text,
                context=key,
                auto_comments=tables.comments.get(key, []),
                flags=brace_flags(text),
            )
            added.append(key)
    for key, forms in tables.counted.items():
        if not (only_new and key in have):
            one, other = forms.get("one", forms["other"]), forms["other"]
            catalog.add(
                (one, other),
                context=key,
                auto_comments=tables.comments.get(key, []),
                flags=brace_flags(one, other),
            )
            added.append(key)
    return added


def po_value(
    tables: DictCatalogue, key: str, catalog: Catalog, english: bool
) -> str | tuple[str, ...] | None:
    """A dict catalogue's text for ``key`` as ``catalog`` holds it: ``en.po``'s msgid (plain, or
    ``(one, other)``) or a translation's msgstr (plain, or one form per ``msgstr[N]``)."""
    if key in tables.plain:
        return tables.plain[key]
    forms = tables.counted.get(key)
    if forms is None:
        return None
    if english:
        return (forms.get("one", forms["other"]), forms["other"])
    indices = category_indices(str(catalog.locale), catalog.plural_expr, catalog.num_plurals)
    by_index = {i: forms[c] for c, i in indices.items()}
    return tuple(by_index[i] for i in range(catalog.num_plurals))


def add_translation(
    catalog: Catalog, source: Catalog, tables: DictCatalogue, only_new: bool
) -> list[str]:
    """Add a translated dict's entries, each with the English text of ``source`` as ``msgid``,
    in ``source``'s order; returns the keys added."""
    have = {key_of(m) for m in entries(catalog)}
    added = []
    for original in entries(source):
        key = key_of(original)
        value = po_value(tables, key, catalog, english=False)
        if (only_new and key in have) or value is None:
            continue
        if isinstance(value, tuple) != is_counted(original):
            continue
        catalog.add(
            original.id,
            value,
            context=key,
            auto_comments=original.auto_comments,
            flags=set(original.flags),
        )
        added.append(key)
    return added


def take_changes(
    catalog: Catalog,
    base: DictCatalogue,
    theirs: DictCatalogue,
    source: Catalog | None = None,
) -> dict[str, list[str]]:
    """Apply what a branch changed in a dict catalogue (``base`` -> ``theirs``) to ``catalog``
    (``en.po`` when ``source`` is None, else a translation of ``source``), where ``catalog``
    still says what ``base`` said; a key changed on both sides is a conflict, left alone.

    A translation taken gets ``source``'s current English as msgid (it was updated with it);
    one whose English changed and that was not updated is marked fuzzy by :func:`update`
    afterwards.  The catalogue must be written and read again before :func:`update`."""
    english = source is None
    current = {} if source is None else {key_of(m): m.id for m in entries(source)}
    report: dict[str, list[str]] = {"taken": [], "conflict": []}
    for message in entries(catalog):
        key = key_of(message)
        before = po_value(base, key, catalog, english)
        after = po_value(theirs, key, catalog, english)
        if before is None or after is None or before == after:
            continue
        mine = message.id if english else message.string
        if texts(mine) != texts(before):
            report["conflict"].append(key)
        elif english:
            message.id = after
            report["taken"].append(key)
        else:
            message.string = after
            message.id = current.get(key, message.id)
            report["taken"].append(key)
    return report


def update(catalog: Catalog, source: Catalog) -> dict[str, list[str]]:
    """Bring a translation in step with ``source`` (``en.po``), by key: changed English ->
    fuzzy with the previous English kept; new keys -> empty entries to translate; keys gone
    from English -> removed; order and comments as in ``source``.  Returns what changed."""
    old = {key_of(m): m for m in entries(catalog)}
    report: dict[str, list[str]] = {"fuzzy": [], "new": [], "removed": []}
    for message in list(entries(catalog)):
        catalog.delete(message.id, context=message.context)
    for original in entries(source):
        key = key_of(original)
        mine = old.pop(key, None)
        counted = is_counted(original)
        empty = ("",) * catalog.num_plurals if counted else ""
        if mine is None:
            catalog.add(
                original.id,
                empty,
                context=key,
                flags=set(original.flags),
                auto_comments=original.auto_comments,
            )
            report["new"].append(key)
        else:
            previous = mine.previous_id
            flags = set(original.flags) | ({"fuzzy"} if mine.fuzzy else set())
            if mine.id != original.id:
                previous = list(texts(mine.id))
                flags.add("fuzzy")
                report["fuzzy"].append(key)
            same_shape = is_counted(mine) == counted
            catalog.add(
                original.id,
                mine.string if same_shape else empty,
                context=key,
                flags=flags,
                previous_id=previous if "fuzzy" in flags else (),
                auto_comments=original.auto_comments,
                user_comments=mine.user_comments,
            )
    report["removed"] = sorted(old)
    return report
