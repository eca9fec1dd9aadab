"""Where a message goes and comes from: the one chat reference every layer of ``bot`` uses
(front ends, the game service, the store), and the text cleaning it applies.

It sits below the store and the core so that both can name a chat without converting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Platform = Literal["discord", "telegram", "console"]
PLATFORMS: dict[str, Platform] = {
    "discord": "discord",
    "telegram": "telegram",
    "console": "console",
}

_UNCLEAN = re.compile("[\x00\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` as valid UTF-8 can hold it: a surrogate pair split into two code points is
    joined, a lone surrogate becomes U+FFFD, NUL becomes U+FFFD.

    Chat platforms deliver JSON, which may carry lone surrogates (``"\\ud800"``); the
    database and every encoder refuse them.  Surrogates and pairs are one UTF-16 unit each
    before and after, so Telegram's entity offsets stay right.
    """
    if text.isascii() and "\x00" not in text:
        return text
    if _UNCLEAN.search(text) is None:
        return text
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return joined.replace("\x00", "\ufffd")


def clean_fields(obj: object, names: tuple[str, ...]) -> None:
    """Clean the text fields ``names`` of a frozen dataclass in place (from ``__post_init__``)."""
    for name in names:
        value = getattr(obj, name)
        if isinstance(value, str):
            cleaned = clean_text(value)
            if cleaned is not value:
                object.__setattr__(obj, name, cleaned)


def platform_of(key: str) -> Platform:
    """The platform of a user or chat key (``discord:42``); KeyError for one that has none."""
    return PLATFORMS[key.partition(":")[0]]


@dataclass(frozen=True)
class ChatKey:
    """A chat (channel, group, private chat, console room), where games and challenges live
    and where messages go.

    ``community`` is the group of chats the chat belongs to where the platform has one (a
    Discord server's id); None when the chat is its own community (a Telegram group, a
    Discord DM, the console).  Ratings and leaderboards are kept per community
    (:attr:`community_id`); it takes no part in comparisons: a chat is its id.  Text is
    cleaned with :func:`clean_text`."""

    platform: str  # one of Platform
    chat_id: str
    thread_id: str | None = None
    community: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        clean_fields(self, ("chat_id", "thread_id", "community"))

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.chat_id}"

    @property
    def community_id(self) -> str:
        """The community whose ratings this chat shows: the server, else the chat itself."""
        return self.community or self.chat_id
