"""Bytes of a record file to text, and text to Shift-JIS with a list of what it could not hold.

Reading: a UTF-8 byte order mark wins; then an encoding the file declares in its first lines
(``#KIF version=2.0 encoding=Shift_JIS``, ``'CSA encoding=EUC-JP``, ``'encoding=...``); else
UTF-8, Shift-JIS (cp932) or EUC-JP, whichever decodes. Much EUC-JP text also decodes as cp932,
into half-width katakana nobody writes in a record, so when both decode the one with fewer of
those is taken.  A declaration the bytes do not fit gives way to the encoding they do fit, with
a note saying so.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from rules.records.record import RecordError

_DECLARED = re.compile(rb"^(?:#KIF\b|'CSA\b|')[^\n]*?\bencoding\s*=\s*([A-Za-z0-9_.:-]+)", re.M)
_ALIASES = {
    "utf-8": "utf-8",
    "utf8": "utf-8",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "ms932": "cp932",
    "windows-31j": "cp932",
    "cp932": "cp932",
    "euc-jp": "euc_jp",
    "eucjp": "euc_jp",
    "euc_jp": "euc_jp",
    "x-euc-jp": "euc_jp",
}
_GUESSES = ("cp932", "euc_jp")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
_NAMES = {"utf-8": "UTF-8", "cp932": "Shift-JIS", "euc_jp": "EUC-JP"}


@dataclass(frozen=True)
class Decoded:
    """A record file's text, and what reading it had to guess (for the record's notes)."""

    text: str
    notes: tuple[str, ...] = ()


def decode(data: bytes) -> Decoded:
    """The text of a record file; RecordError when it is none of the encodings above.

    A file whose declared (or byte-order-marked) encoding does not fit its bytes is read in the
    one that does, as other readers do (a KIF saved as Shift-JIS under a ``encoding=UTF-8``
    line copied from elsewhere), and the notes say so; the error names the first wrong byte
    when no encoding fits."""
    if data.startswith(codecs.BOM_UTF8):
        return _decode_as(data[3:], "utf-8", declared=False)
    declared = _declared_codec(data)
    if declared is not None:
        return _decode_as(data, declared, declared=True)
    guessed = _guess(data)
    if guessed is None:
        raise RecordError(
            "the file is not UTF-8, Shift-JIS or EUC-JP text; save it in one of these (or "
            "declare its encoding, as in '#KIF version=2.0 encoding=UTF-8')",
            code="bad_record_encoding",
        )
    return Decoded(guessed[1])


def _guess(data: bytes, but: str | None = None) -> tuple[str, str] | None:
    """The codec (other than ``but``) and text of UTF-8, else Shift-JIS or EUC-JP, whichever
    decodes (the one with fewer half-width katakana when both do); None when none does."""
    if but != "utf-8":
        try:
            return "utf-8", data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    texts = []
    for codec in _GUESSES:
        if codec == but:
            continue
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if not _PRIVATE_USE.search(text):  # cp932 maps bytes no text holds (0xFF) there
            texts.append((codec, text))
    return min(texts, key=lambda pair: _half_width_katakana(pair[1])) if texts else None


def _declared_codec(data: bytes) -> str | None:
    head = b"\n".join(data[:4096].splitlines()[:5])
    m = _DECLARED.search(head)
    if m is None:
        return None
    name = m.group(1).decode("ascii").lower()
    codec = _ALIASES.get(name)
    if codec is None:  # only the encodings records use: no other codec is ever looked up
        raise RecordError(
            f"the file declares the encoding {name!r}, which Komabot does not read (UTF-8, "
            "Shift_JIS and EUC-JP are read)",
            code="bad_record_encoding",
        )
    return codec


def _decode_as(data: bytes, codec: str, *, declared: bool) -> Decoded:
    try:
        return Decoded(data.decode(codec))
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        said = "declares" if declared else "is marked as"
        guessed = _guess(data, but=codec)
        if guessed is not None:
            actual = _NAMES[guessed[0]]
            return Decoded(
                guessed[1],
                (
                    f"the file {said} {_NAMES.get(codec, codec)}, but its text is {actual} "
                    f"(line {line} is not {_NAMES.get(codec, codec)}); it was read as {actual}",
                ),
            )
        raise RecordError(
            f"line {line}: the file {said} {_NAMES.get(codec, codec)} but byte "
            f"{data[exc.start : exc.start + 1]!r} there is not {_NAMES.get(codec, codec)}",
            code="bad_record_encoding",
            line=line,
        ) from None


def _half_width_katakana(text: str) -> int:
    return sum(1 for c in text if "\uff61" <= c <= "\uff9f")


# --- writing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Encoded:
    """Encoded text and the characters the encoding could not hold (written as ``?``)."""

    data: bytes
    replaced: tuple[str, ...] = ()


def encode_replacing(text: str, codec: str) -> Encoded:
    """``text`` in ``codec``, every character it cannot hold written as ``?``."""
    try:
        return Encoded(text.encode(codec))
    except UnicodeEncodeError:
        pass
    replaced = tuple(c for c in dict.fromkeys(text) if not _encodable(c, codec))
    return Encoded(text.encode(codec, errors="replace"), replaced)


def _encodable(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True
