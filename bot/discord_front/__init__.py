"""Discord front end: ``/shogi`` slash commands, persistent buttons and optional text commands.

Public API: :class:`DiscordFrontEnd` (the ``FrontEnd`` of :mod:`bot.core.api`) and
:class:`DiscordSettings` (its environment variables).
"""

from __future__ import annotations

from bot.discord_front.frontend import DiscordFrontEnd
from bot.discord_front.settings import VARIABLES, DiscordSettings

__all__ = ["VARIABLES", "DiscordFrontEnd", "DiscordSettings"]
