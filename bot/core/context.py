"""One request as the handlers see it, the refusal they raise, and lists cut to fit a message."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.chat import ChatKey
from bot.core.api import Button, Request
from bot.core.messages import text
from bot.store.errors import VersionConflict
from bot.store.models import ChatSettings, GameRow

Buttons = tuple[tuple[Button, ...], ...]


class UserError(Exception):
    """A request the service refuses; ``key`` and ``params`` name the message to show."""

    def __init__(self, key: str, /, *, buttons: Buttons = (), **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.buttons = buttons


class GameChanged(VersionConflict):
    """A write of ``game`` (as read, with its version) lost a race: the game changed since."""

    def __init__(self, game: GameRow) -> None:
        super().__init__(f"game {game.id} changed since version {game.version}")
        self.game = game


@dataclass(frozen=True)
class Context:
    """One request with what the handlers look up for it.

    ``after`` holds work to start once the reply has been handed back (the bot's turn after a
    move: its answer then follows the mover's board rather than racing it)."""

    request: Request
    chat: ChatKey
    user: str  # user key
    settings: ChatSettings
    now: float
    after: list[Callable[[], object]] = field(default_factory=list, compare=False)
    games_read: dict[int, GameRow] = field(default_factory=dict, compare=False)
    """The games the request read, as read (by id): a write that loses a race is told
    apart from what won it by comparing them with the games as they are now."""

    @property
    def lang(self) -> str:
        return self.settings.language

    @property
    def args(self) -> tuple[str, ...]:
        return self.request.args

    def t(self, key: str, /, **params: object) -> str:
        return text(key, self.lang, **params)


LIST_LIMIT = 10
"""Rows a reply lists at most; the rest are counted ("… and 12 more")."""
LIST_CHARS = 1200
"""Characters of listed rows in one reply at most (platforms cap messages: Discord 2,000)."""
LINE_CHARS = 200


def listing(ctx: Context, lines: Sequence[str], total: int) -> str:
    """``lines`` (of ``total`` rows) one per line, cut to fit a message, the rest counted."""
    shown: list[str] = []
    used = 0
    for line in lines:
        if len(line) > LINE_CHARS:
            line = line[: LINE_CHARS - 1] + "…"
        if shown and used + len(line) + 1 > LIST_CHARS:
            break
        shown.append(line)
        used += len(line) + 1
    if total > len(shown):
        shown.append(ctx.t("list.more", count=total - len(shown)))
    return "\n".join(shown)
