"""Catalogue look-ups for the few strings only the Discord front end shows.

They belong in :mod:`bot.core.messages`; until the catalogue has these keys, the English
defaults below are used (same keys, so adding them there takes over at once).
"""

from __future__ import annotations

from typing import Any

from bot.core import messages

DEFAULTS: dict[str, str] = {
    "discord.activity": "/shogi help",
    "discord.group": "Play Standard Shogi and Wa Shogi by correspondence",
    "discord.bad_option": "I could not read the option {option!r}: {problem}",
    "discord.too_big": "({files} left out: larger than the {limit} this chat accepts.)",
    "discord.intent_missing": (
        "Discord refused the Message Content intent: switch it on in the developer portal "
        "(your application, Bot, Privileged Gateway Intents) or set DISCORD_MESSAGE_CONTENT=0."
    ),
    "discord.thread_name": "Shogi: {name}'s challenge",
    "discord.thread_opened": "Challenge posted in {thread}; the game will be played there.",
}


def say(key: str, lang: str = "en", /, **params: Any) -> str:
    """``messages.text(key)`` when the catalogue has ``key``, else the default above."""
    if messages.has(key):
        return messages.text(key, lang, **params)
    template = DEFAULTS[key]
    return template.format(**params) if params else template


def cut(text: str, limit: int) -> str:
    """``text`` shortened to at most ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
