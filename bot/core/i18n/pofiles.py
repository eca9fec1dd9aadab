"""Where the ``.po`` files are, and reading and writing them with Babel."""

from __future__ import annotations

import io
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import denormalize, read_po, write_po

SOURCE = "en"  # the language the others translate
WIDTH = 79  # where GNU gettext's tools and Poedit wrap lines, so their saves stay close to ours


def po_dir() -> Path:
    """The folder of the ``.po`` files (package data: found in a source tree and an install)."""
    return Path(str(files(__package__ or "bot.core.i18n")))


def languages(folder: Path | None = None) -> tuple[str, ...]:
    """Every language with a file: English first, then the others by their code."""
    found = sorted(p.stem for p in (folder or po_dir()).glob("*.po"))
    return (SOURCE, *(lang for lang in found if lang != SOURCE))


def read(path: Path) -> Catalog:
    """A ``.po`` file as a Babel catalogue (fuzzy entries kept and flagged, with the previous
    English text of their ``#| msgid`` lines)."""
    with path.open("rb") as f:
        catalog = read_po(f, ignore_obsolete=True)
    for message in entries(catalog):
        take_previous(message)
    return catalog


def take_previous(message: Message) -> None:
    """Babel reads ``#| msgid "..."`` lines as comments: make them the previous msgid."""
    marked = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
    if not marked:
        return
    message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
    parts: dict[str, list[str]] = {}
    current: list[str] = []
    for line in marked:
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            current = parts.setdefault(keyword, [])
            current.append(rest)
        else:  # a continuation line
            current.append(line)
    message.previous_id = [
        denormalize("\n".join(parts[k])) for k in ("msgid", "msgid_plural") if k in parts
    ]


def read_all(folder: Path | None = None) -> dict[str, Catalog]:
    where = folder or po_dir()
    return {lang: read(where / f"{lang}.po") for lang in languages(where)}


def entries(catalog: Catalog) -> Iterator[Message]:
    """The messages of a catalogue, header left out."""
    return (m for m in catalog if m.id)


def key_of(message: Message) -> str:
    return message.context or ""


def texts(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A ``msgid`` or ``msgstr`` as a tuple of its forms (one unless it is counted)."""
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def is_counted(message: Message) -> bool:
    return not isinstance(message.id, str)


def render(catalog: Catalog) -> bytes:
    """A catalogue as ``.po`` text, with the previous English text of fuzzy entries."""
    for message in entries(catalog):
        message.flags.discard("python-format")  # Babel's guess from a "%": no %-templates here
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, include_previous=True, ignore_obsolete=True)
    return out.getvalue()


def write(catalog: Catalog, path: Path) -> None:
    path.write_bytes(render(catalog))
