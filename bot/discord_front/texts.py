"""Text helpers of the Discord front end (its strings live in :mod:`bot.core.messages`)."""

from __future__ import annotations


def cut(text: str, limit: int) -> str:
    """``text`` shortened to at most ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
