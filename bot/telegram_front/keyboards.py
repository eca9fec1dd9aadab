"""Inline keyboards from :class:`~bot.core.api.Button` rows; ``callback_data`` is the action."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import InlineKeyboardButtonLimit

from bot.core.api import Button

log = logging.getLogger(__name__)

MAX_DATA_BYTES = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA  # 64


def fits_callback_data(action: str) -> bool:
    """Whether Telegram accepts ``action`` as ``callback_data`` (1 to 64 bytes of UTF-8)."""
    return 1 <= len(action.encode("utf-8")) <= MAX_DATA_BYTES


def keyboard(rows: tuple[tuple[Button, ...], ...]) -> InlineKeyboardMarkup | None:
    """The inline keyboard for ``rows``, or None when there are no buttons.

    A button whose action Telegram would refuse is left out (and logged as the service's bug),
    so that the message itself still goes out.
    """
    keys: list[list[InlineKeyboardButton]] = []
    for row in rows:
        line: list[InlineKeyboardButton] = []
        for button in row:
            if not fits_callback_data(button.action):
                log.error("button %r: action %r is not 1-64 bytes", button.label, button.action)
                continue
            line.append(InlineKeyboardButton(button.label, callback_data=button.action))
        if line:
            keys.append(line)
    return InlineKeyboardMarkup(keys) if keys else None
