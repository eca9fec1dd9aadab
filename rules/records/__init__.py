"""Game records: the ``GameRecord`` value, export to and import from KIF, CSA and USI.

Formats (``export_record(record, fmt)``; ``formats_for(variant)`` lists those a variant has):

- ``kif``: KIF in Shift-JIS (cp932), Standard Shogi only. A character Shift-JIS cannot hold
  (an emoji in a display name) is written as ``?``; ``export_file`` says which were replaced.
- ``kifu``: KIF in UTF-8, every variant. Wa uses the Wa piece names and carries the line
  ``#KOMABOT-VARIANT: wa`` (or ``wa-drops``), plus ``手合割：和将棋`` for the usual set-up.
- ``csa``: CSA V2.2, Standard Shogi only.

A handicap game is written as other programs write one: KIF ``手合割：飛車落ち`` with ``下手：`` /
``上手：`` and no diagram, CSA ``PI82HI`` then ``-``, USI the handicap's start SFEN.
- ``usi``: ``position sfen <start> moves ...`` with ``# variant:``, ``# sente:``, ``# gote:``
  and ``# result: <termination> <sente|gote|none>`` comment lines.

KIF and CSA are written in the forms that cshogi, python-shogi, tsshogi and json-kifu-format
all read to the same moves and the same winner (``bench/record_readers.py`` checks the two
JavaScript readers; the tests check the two Python ones): see kif.py and csa.py for the words.

``import_record(data, filename)`` detects the format and the encoding (UTF-8, Shift-JIS or
EUC-JP, or the one the file declares) and replays every move through the rules; a
``RecordError`` names the line and what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules.records.record import GameRecord, RecordError, settled
from rules.variant import load_variant

# The readers and writers (csa, kif, usi, encoding) are imported by the functions that use
# them: a process that never reads or writes a record (``komabot perft``, ``usi``, a bot that
# no one asked for a record yet) does not load them.

__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "ExportedFile",
    "GameRecord",
    "RecordError",
    "check_format",
    "export_file",
    "export_record",
    "formats_for",
    "import_record",
]

FORMATS = ("kif", "kifu", "csa", "usi")
MAX_BYTES = 2_000_000
"""The largest record read; a reader needs no more than ``MAX_BYTES + 1`` bytes to tell."""


STANDARD_ONLY = ("kif", "csa")
COMMENT_MARKS = ("#", "*", "&", "'")


def formats_for(variant_id: str) -> tuple[str, ...]:
    """The record formats a game of ``variant_id`` can be written in, the default first."""
    variant = load_variant(variant_id)
    return tuple(f for f in FORMATS if variant.id == "shogi" or f not in STANDARD_ONLY)


def check_format(variant_id: str, fmt: str) -> str:
    """``fmt`` normalised, or RecordError if unknown or not available for the variant."""
    fmt = fmt.lower().lstrip(".")
    available = formats_for(variant_id)
    if fmt not in FORMATS:
        raise RecordError(
            f"unknown record format {fmt!r} (one of {', '.join(available)})",
            code="unknown_format",
            formats=available,
        )
    if fmt not in available:
        variant = load_variant(variant_id)
        raise RecordError(
            f"the {fmt} format is for Standard Shogi only; {variant.names['en']} games are "
            f"written as {' or '.join(available)}",
            code="format_not_for_variant",
            variant=variant.id,
            formats=available,
        )
    return fmt


@dataclass(frozen=True)
class ExportedFile:
    """A record file's bytes and the characters its encoding could not hold (now ``?``)."""

    data: bytes
    replaced: tuple[str, ...] = ()
    encoding: str = "utf-8"
    """How ``data`` reads as text (a record's; KIF is Shift-JIS, as its readers expect)."""


def export_file(
    record: GameRecord, fmt: str, comments: Mapping[int, Sequence[str]] | None = None
) -> ExportedFile:
    """The record as a file in ``fmt`` (one of ``FORMATS``), with what had to be replaced.

    ``comments`` (ply -> lines, 0 before the first move) are written in KIF and KIFU as
    ``*`` lines after their move; CSA and USI records are written without them."""
    from rules.records.csa import write_csa
    from rules.records.encoding import encode_replacing
    from rules.records.kif import write_kif
    from rules.records.usi import write_usi

    fmt = check_format(record.variant, fmt)
    record.final_position()  # every move checked before anything is written
    if fmt == "kif":
        encoded = encode_replacing(write_kif(record, "Shift_JIS", comments), "cp932")
        return ExportedFile(encoded.data, encoded.replaced, "cp932")
    if fmt == "kifu":
        text = write_kif(record, comments=comments)
    elif fmt == "csa":
        text = write_csa(record)
    else:
        text = write_usi(record)
    return ExportedFile(text.encode("utf-8"))


def export_record(record: GameRecord, fmt: str) -> bytes:
    """The record as a file's bytes in ``fmt`` (see ``export_file`` for what was replaced)."""
    return export_file(record, fmt).data


def import_record(data: bytes, filename: str | None = None) -> GameRecord:
    """Read a KIF, KIFU, CSA or USI record (detected from the name and the content), as the
    rules let it have happened (``record.settled``: what was changed is in ``notes``)."""
    from rules.records.encoding import decode

    if len(data) > MAX_BYTES:
        raise RecordError(
            f"the file is too large (more than {MAX_BYTES:,} bytes)", code="record_too_large"
        )
    decoded = decode(data)
    record = _read(decoded.text, filename)
    if decoded.notes:
        record = replace(record, notes=(*decoded.notes, *record.notes))
    return settled(record)


def _read(text: str, filename: str | None) -> GameRecord:
    """The record ``text`` holds, as its format's reader reads it."""
    from rules.records.csa import looks_like_csa, read_csa
    from rules.records.kif import looks_like_kif, read_kif
    from rules.records.usi import looks_like_usi, read_usi

    _check_not_only_comments(text)
    ext = (filename or "").lower().rsplit(".", 1)[-1] if filename and "." in filename else ""
    kif_like = ext in ("kif", "kifu", "ki2", "ki2u")
    if ext == "csa" or (not kif_like and looks_like_csa(text) and not looks_like_kif(text)):
        return read_csa(text)
    if kif_like or looks_like_kif(text):
        return read_kif(text)
    if ext in ("usi", "sfen") or looks_like_usi(text):
        return read_usi(text)
    raise RecordError(
        "cannot tell the record format: expected KIF (手数----指手), CSA (PI, +7776FU) or USI "
        "(position sfen ... moves ...)",
        code="unknown_format",
    )


def _check_not_only_comments(text: str) -> None:
    lines = [line.strip() for line in text.splitlines()]
    if any(line and not line.startswith(COMMENT_MARKS) for line in lines):
        return
    what = "only comment lines (starting with #, *, & or ')" if any(lines) else "no text"
    raise RecordError(
        f"the file has {what}: a record needs a position or moves, for example "
        "'手合割：平手' and '   1 ７六歩(77)' (KIF), 'PI' and '+7776FU' (CSA) or "
        "'position startpos moves 7g7f' (USI)",
        code="empty_record",
    )
