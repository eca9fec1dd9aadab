"""The characters the shipped fonts must cover: every variant file's text and the renderer's own."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules.variant import data_dir

# Labels the renderer draws besides piece names: turn marks, legend symbols, hand headings,
# move-number words, arrows and punctuation.
RENDER_SYMBOLS = (
    "先手後手☗☖▲△▼▽○◯●☆★│─╱╲×·•→←↑↓⇧⇩…—–’'"
    "手番第持駒なし成王玉将詰勝負千日引分投了時間切宣言入玉"
    "目指連続合意対局中止反則数跳越何進、"  # the Japanese catalogue's words on images
    "疑問悪大評価値解析形勢優劣局面毎秒：（）"  # the evaluation graph's Japanese words
    "同打不右左上寄直"  # Japanese moves in a replay's frame headers (KI2: 同, 打, 不成, 右上, ...)
    "一二三四五六七八九十"
    "０１２３４５６７８９"
    "№«»"
)
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))
CYRILLIC = "".join(chr(c) for c in range(0x0410, 0x0450)) + "Ёё"
LATIN_EXTRA = "āēīōūĀĒĪŌŪâêîôûÂÊÎÔÛéèàçñüöäßÉÈÀÇÑÜÖÄ"
POLISH = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ„”"
# Kana: only in the label fonts, so players' Japanese names draw.
KANA = "".join(chr(c) for c in range(0x3041, 0x3097)) + "".join(
    chr(c) for c in range(0x30A1, 0x30FD)
)


# Variant-file keys whose strings are only read (typed by players), never drawn on an image.
READ_ONLY_KEYS = frozenset({"kanji_alternatives"})


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in READ_ONLY_KEYS:
                continue
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def variant_chars(directory: Path | None = None) -> set[str]:
    """Every character of every string (keys and values) in ``data/variants/*.toml``."""
    folder = directory if directory is not None else data_dir() / "variants"
    chars: set[str] = set()
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as fh:
            for text in _strings(tomllib.load(fh)):
                chars.update(text)
    return {c for c in chars if c.isprintable()}


def required_chars() -> set[str]:
    """What every shipped font covers."""
    return variant_chars() | set(RENDER_SYMBOLS + ASCII + CYRILLIC + LATIN_EXTRA + POLISH)


def label_chars() -> set[str]:
    """What the label fonts cover: the required set plus kana for players' names."""
    return required_chars() | set(KANA)
