"""Game records: the ``GameRecord`` value, export to and import from KIF, CSA and USI.

Formats (``export_record(record, fmt)``):

- ``kif``: KIF in Shift-JIS (cp932), Standard Shogi only.
- ``kifu``: KIF in UTF-8, every variant. Wa uses the Wa piece names and carries the line
  ``#KOMABOT-VARIANT: wa`` (or ``wa-drops``), plus ``手合割：和将棋`` for the usual set-up.
- ``csa``: CSA V2.2, Standard Shogi only.
- ``usi``: ``position sfen <start> moves ...`` with ``# variant:``, ``# sente:``, ``# gote:``
  and ``# result: <termination> <sente|gote|none>`` comment lines.

``import_record(data, filename)`` detects the format (and UTF-8 or Shift-JIS) and replays every
move through the rules; a ``RecordError`` names the line and what is wrong.
"""

from __future__ import annotations

from rules.records.csa import looks_like_csa, read_csa, write_csa
from rules.records.kif import looks_like_kif, read_kif, write_kif
from rules.records.record import GameRecord, RecordError
from rules.records.usi import looks_like_usi, read_usi, write_usi
from rules.variant import load_variant

__all__ = [
    "FORMATS",
    "GameRecord",
    "RecordError",
    "check_format",
    "export_record",
    "import_record",
]

FORMATS = ("kif", "kifu", "csa", "usi")
MAX_BYTES = 2_000_000


def check_format(variant_id: str, fmt: str) -> str:
    """``fmt`` normalised, or RecordError if unknown or not available for the variant."""
    fmt = fmt.lower().lstrip(".")
    if fmt not in FORMATS:
        raise RecordError(
            f"unknown record format {fmt!r} (one of {', '.join(FORMATS)})", code="unknown_format"
        )
    variant = load_variant(variant_id)
    if fmt in ("kif", "csa") and variant.id != "shogi":
        raise RecordError(
            f"the {fmt} format is for Standard Shogi only; {variant.names['en']} games are "
            "written as kifu (UTF-8 KIF) or usi",
            code="format_not_for_variant",
            variant=variant.id,
        )
    return fmt


def export_record(record: GameRecord, fmt: str) -> bytes:
    """The record as a file's bytes in ``fmt`` (one of ``FORMATS``)."""
    fmt = check_format(record.variant, fmt)
    record.final_position()  # every move checked before anything is written
    if fmt == "kif":
        text = write_kif(record, "Shift_JIS")
        try:
            return text.encode("cp932")
        except UnicodeEncodeError as exc:
            bad = exc.object[exc.start : exc.end]
            raise RecordError(
                f"{bad!r} cannot be written in Shift-JIS; export as kifu (UTF-8) instead",
                code="not_shift_jis",
            ) from None
    if fmt == "kifu":
        return write_kif(record).encode("utf-8")
    if fmt == "csa":
        return write_csa(record).encode("utf-8")
    return write_usi(record).encode("utf-8")


def decode(data: bytes) -> str:
    """Text of a record file: UTF-8 (with or without BOM), else Shift-JIS (cp932)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp932")
    except UnicodeDecodeError:
        raise RecordError(
            "the file is neither UTF-8 nor Shift-JIS text", code="bad_record_encoding"
        ) from None


def import_record(data: bytes, filename: str | None = None) -> GameRecord:
    """Read a KIF, KIFU, CSA or USI record (detected from the name and the content)."""
    if len(data) > MAX_BYTES:
        raise RecordError(f"the file is too large ({len(data)} bytes)", code="record_too_large")
    text = decode(data)
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
