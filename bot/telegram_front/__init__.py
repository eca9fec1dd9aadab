"""Komabot on Telegram: python-telegram-bot translated to and from ``bot.core``.

Public API: :class:`TelegramFrontEnd` and :class:`TelegramSettings`.  The names load on first
use, so that reading the settings (``komabot --help``) does not import python-telegram-bot.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "TelegramFrontEnd": "bot.telegram_front.frontend",
    "TelegramSettings": "bot.telegram_front.settings",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
