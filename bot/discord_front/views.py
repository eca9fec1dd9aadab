"""Buttons whose ``custom_id`` is the service's action, so they work across restarts.

Every button Komabot posts is an :class:`ActionButton`; its ``custom_id`` is
``Button.action`` (``accept 42``).  The class is registered once at start-up as a dynamic
item, so a click is decoded from the ``custom_id`` alone, whichever process posted the button.
Views built for sending are stopped at once: no per-message state is kept in memory.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

ACTION_TEMPLATE = r"(?P<action>\S[^\n]{0,99})"  # every custom_id Komabot posts is an action

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class ButtonHandler(Protocol):
    """What a click is handed to (the front end)."""

    async def on_button(self, interaction: discord.Interaction[Any], action: str) -> None: ...


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_TEMPLATE):
    """A button that sends its action to the front end when pressed."""

    def __init__(self, label: str, action: str, style: str = "secondary") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=action, style=_STYLES.get(style, _STYLES["secondary"])
            )
        )
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> ActionButton:
        button = item if isinstance(item, discord.ui.Button) else None
        label = (button.label if button is not None else None) or match["action"]
        return cls(label, match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler: ButtonHandler | None = getattr(interaction.client, "komabot", None)
        if handler is not None:
            await handler.on_button(interaction, self.action)


def build_view(rows: tuple[tuple[tuple[str, str, str], ...], ...]) -> discord.ui.View:
    """A view laying out ``rows`` of (label, action, style); nothing is kept per message."""
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows):
        for label, action, style in row:
            item = ActionButton(label, action, style)
            item.row = row_index
            view.add_item(item)
    view.stop()  # clicks are dispatched by the registered ActionButton class, not this view
    return view
