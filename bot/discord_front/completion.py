"""Autocomplete answers that need no game: piece names, durations, command names.

Discord allows at most 25 choices of at most 100 characters, answered within 3 seconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from bot.config import format_duration, parse_duration
from bot.core.commands import COMMANDS
from bot.core.words import TIME_CHOICES, VARIANT_CHOICES
from rules import load_variant

MAX_CHOICES = 25
MAX_CHOICE_CHARS = 100

Choice = tuple[str, str]  # (shown name, value sent back)


def clip(choices: Iterable[Choice]) -> list[Choice]:
    """At most 25 distinct choices, names and values within 100 characters."""
    out: list[Choice] = []
    seen: set[str] = set()
    for name, value in choices:
        name, value = name.strip()[:MAX_CHOICE_CHARS], value.strip()[:MAX_CHOICE_CHARS]
        if not name or not value or value in seen:
            continue
        seen.add(value)
        out.append((name, value))
        if len(out) == MAX_CHOICES:
            break
    return out


def ranked(current: str, choices: Iterable[tuple[Choice, tuple[str, ...]]]) -> list[Choice]:
    """Choices whose keys start with what was typed, then those that contain it."""
    typed = current.strip().casefold()
    prefix: list[Choice] = []
    inside: list[Choice] = []
    for choice, keys in choices:
        folded = [k.casefold() for k in keys]
        if not typed or any(k.startswith(typed) for k in folded):
            prefix.append(choice)
        elif any(typed in k for k in folded):
            inside.append(choice)
    return clip(prefix + inside)


@cache
def _piece_entries(variant_id: str) -> tuple[tuple[Choice, tuple[str, ...]], ...]:
    variant = load_variant(variant_id)
    entries = []
    for piece in variant.pieces:
        en = piece.names.get("en", piece.code)
        label = f"{en} · {piece.kanji} · {piece.code}"
        if piece.names.get("romaji"):
            label += f" · {piece.names['romaji']}"
        keys = (
            en,
            piece.code,
            piece.kanji,
            piece.names.get("ja", ""),
            piece.names.get("romaji", ""),
            piece.names.get("ru", ""),
            *piece.kanji_alternatives,  # 鶴玉 finds the Crane King, as /piece does
        )
        entries.append(((label, en.lower()), tuple(k for k in keys if k)))
    return tuple(entries)


def piece_choices(current: str, variant: str | None) -> list[Choice]:
    """Piece names of ``variant`` (or of every variant) matching what was typed."""
    variants = [variant] if variant in VARIANT_CHOICES else ["shogi", "wa"]
    entries = [e for v in variants for e in _piece_entries(v)]
    return ranked(current, entries)


TIME_SUGGESTIONS = (*TIME_CHOICES, "5m+30s", "10m+30s")
"""The usual times per move, and main time + byoyomi."""


def _typed_time(typed: str) -> str | None:
    """``typed`` in its shortest form when it is a duration or main time + byoyomi
    (``600s+30s`` is ``10m+30s``), else None."""
    parts = typed.split("+")
    if len(parts) > 2:
        return None
    try:
        return "+".join(format_duration(parse_duration(part)) for part in parts)
    except ValueError:
        return None


def time_choices(current: str) -> list[Choice]:
    """The usual times, and what was typed when it is a valid time."""
    typed = current.strip().lower()
    own: list[Choice] = []
    written = _typed_time(typed) if typed and typed not in TIME_SUGGESTIONS else None
    if written:
        own = [(written, written)]
    common = ranked(typed, (((t, t), (t,)) for t in TIME_SUGGESTIONS))
    return clip(own + common)


def command_choices(current: str) -> list[Choice]:
    """Command names (and aliases) matching what was typed."""
    return ranked(current, (((c.name, c.name), (c.name, *c.aliases)) for c in COMMANDS))
