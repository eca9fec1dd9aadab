"""Discord front end: ``/shogi`` slash commands, persistent buttons and optional text commands.

Public API: :class:`DiscordFrontEnd` (the ``FrontEnd`` of :mod:`bot.core.api`) and
:class:`DiscordSettings` (its environment variables).  The names load on first use, so that
reading the settings (``komabot --help``) does not import discord.py.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "DiscordFrontEnd": "bot.discord_front.frontend",
    "DiscordSettings": "bot.discord_front.settings",
    "VARIABLES": "bot.discord_front.settings",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
