"""Komabot on Telegram: python-telegram-bot translated to and from ``bot.core``."""

from __future__ import annotations

from bot.telegram_front.frontend import TelegramFrontEnd
from bot.telegram_front.settings import TelegramSettings

__all__ = ["TelegramFrontEnd", "TelegramSettings"]
