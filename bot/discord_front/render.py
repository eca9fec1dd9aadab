"""Turn a service :class:`Reply` into the parts of a Discord message."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.core import messages
from bot.core.api import Attachment, Reply, User
from bot.core.commands import COMMANDS
from bot.discord_front.commands import GROUP_NAME
from bot.discord_front.texts import cut
from bot.discord_front.views import build_view

CONTENT_LIMIT = 2000
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_COLOUR = discord.Colour(0xC8963E)  # the colour of a kaya board
ALT_TEXT_LIMIT = 1024
DEFAULT_UPLOAD_LIMIT = 10 * 2**20  # unboosted servers and DMs


@dataclass(frozen=True)
class Outgoing:
    """Everything needed to send (or edit a message into) one Reply."""

    content: str | None
    embed: discord.Embed | None
    attachments: tuple[Attachment, ...]
    buttons: tuple[tuple[tuple[str, str, str], ...], ...]  # rows of (label, action, style)
    ephemeral: bool
    mention_ids: tuple[int, ...]
    alt_text: str = ""  # description of the uploads, read by screen readers

    def files(self) -> list[discord.File]:
        """Fresh ``discord.File`` objects (a File is consumed by one upload)."""
        return [
            discord.File(io.BytesIO(a.data), filename=a.filename, description=self.alt_text or None)
            for a in self.attachments
        ]

    def view(self) -> discord.ui.View | None:
        return build_view(self.buttons) if self.buttons else None

    def allowed_mentions(self) -> discord.AllowedMentions:
        """Ping exactly the users the service named; never @everyone or roles."""
        users = [discord.Object(id=i) for i in self.mention_ids]
        return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``Messageable.send`` / ``followup.send``."""
        kwargs: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.content:
            kwargs["content"] = self.content
        if self.embed is not None:
            kwargs["embed"] = self.embed
        files = self.files()
        if files:
            kwargs["files"] = files
        view = self.view()
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``Message.edit``: replaces text, embed, files and buttons."""
        return {
            "content": self.content,
            "embed": self.embed,
            "attachments": self.files(),
            "view": self.view() or discord.ui.View(timeout=None),
            "allowed_mentions": self.allowed_mentions(),
        }


def discord_user_id(user: User) -> int | None:
    """The Discord id of ``user``, or None for users of other platforms."""
    if user.platform != "discord" or not user.id.isdigit():
        return None
    return int(user.id)


_COMMAND_WORDS = sorted((c.name for c in COMMANDS), key=len, reverse=True)  # no aliases on Discord
_SLASH_COMMAND = re.compile(
    r"(?<![\w/:.])/(" + "|".join(re.escape(w) for w in _COMMAND_WORDS) + r")(?![\w/-])"
)


def slash_style(text: str) -> str:
    """Write the service's ``/move 7g7f`` as Discord's ``/shogi move 7g7f``."""
    return _SLASH_COMMAND.sub(lambda m: f"/{GROUP_NAME} {m.group(1)}", text)


def fit_uploads(
    attachments: tuple[Attachment, ...], limit: int | None
) -> tuple[tuple[Attachment, ...], tuple[Attachment, ...]]:
    """(kept, dropped): the attachments in order while their total stays within ``limit``."""
    if limit is None:
        return attachments, ()
    kept: list[Attachment] = []
    dropped: list[Attachment] = []
    total = 0
    for a in attachments:
        if total + len(a.data) <= limit:
            kept.append(a)
            total += len(a.data)
        else:
            dropped.append(a)
    return tuple(kept), tuple(dropped)


def render(reply: Reply, upload_limit: int | None = DEFAULT_UPLOAD_LIMIT) -> Outgoing:
    """Lay a Reply out as a Discord message.

    A reply with an image becomes an embed (first line as title, the rest as description) that
    shows the image; the players to ping are mentioned in the message text, since mentions
    inside embeds do not notify.  Text too long for a message goes into an embed description.
    Files beyond the upload limit are left out, and the text says so; a board without its
    picture is shown as text in a code block.
    """
    mention_ids = tuple(
        uid for uid in dict.fromkeys(discord_user_id(u) for u in reply.mentions) if uid is not None
    )
    pings = " ".join(f"<@{uid}>" for uid in mention_ids)
    text = slash_style(reply.text.strip())
    attachments, dropped = fit_uploads(
        ((reply.image,) if reply.image else ()) + tuple(reply.files), upload_limit
    )
    if dropped:
        note = messages.text(
            "discord.too_big",
            reply.lang,
            files=[a.filename for a in dropped],
            limit=f"{(upload_limit or 0) / 2**20:g} MiB",
        )
        text = f"{text}\n{note}".strip()
    image = reply.image if reply.image is not None and reply.image in attachments else None
    if image is None and reply.text_board:
        text = f"{text}\n```\n{reply.text_board.strip(chr(10))}\n```".strip()
    embed: discord.Embed | None = None
    content: str | None
    if image is not None or len(text) + len(pings) + 1 > CONTENT_LIMIT:
        title, _, rest = text.partition("\n")
        if len(title) > EMBED_TITLE_LIMIT or not rest.strip():
            title, rest = "", text
        embed = discord.Embed(
            title=title or None,
            description=cut(rest.strip(), EMBED_DESCRIPTION_LIMIT) or None,
            colour=EMBED_COLOUR,
        )
        if image is not None:
            embed.set_image(url=f"attachment://{image.filename}")
        content = pings or None
    else:
        content = f"{pings}\n{text}".strip() if pings else text
    buttons = tuple(
        tuple((b.label[:80], b.action[:100], b.style) for b in row[:5]) for row in reply.buttons[:5]
    )
    return Outgoing(
        content=content or None,
        embed=embed,
        attachments=attachments,
        buttons=buttons,
        ephemeral=reply.ephemeral,
        mention_ids=mention_ids,
        alt_text=cut(text.partition("\n")[0], ALT_TEXT_LIMIT),
    )
