"""Rows the store keeps: users, challenges, games, timers and chat settings (frozen values)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class GameStatus(Enum):
    ACTIVE = "active"
    FINISHED = "finished"


class ChallengeStatus(Enum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class TimerKind(Enum):
    REMINDER = "reminder"
    DEADLINE = "deadline"
    CHALLENGE_EXPIRY = "challenge_expiry"


@dataclass(frozen=True)
class UserRow:
    """A person as last seen: ``key`` is ``platform:id``."""

    key: str
    platform: str
    user_id: str
    name: str


@dataclass(frozen=True)
class ChatKey:
    """Where a game or challenge lives."""

    platform: str
    chat_id: str
    thread_id: str | None = None

    @property
    def key(self) -> str:
        return f"{self.platform}:{self.chat_id}"


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    chat: ChatKey
    challenger: str  # user key
    challenged: str | None  # user key; None for an open challenge
    variant: str
    color: str  # "random", "sente" or "gote": the challenger's colour
    time_per_move: int | None  # seconds; None: no clock
    status: ChallengeStatus
    created_at: float
    expires_at: float
    game_id: int | None = None


@dataclass(frozen=True)
class GameRow:
    """One game: the start position and every move in USI; the position is rebuilt from them.

    ``version`` grows by one with every change; an update names the version it read.
    """

    id: int
    chat: ChatKey
    variant: str
    start_sfen: str
    moves: tuple[str, ...]
    version: int
    sente: str  # user key
    gote: str
    status: GameStatus
    termination: str | None  # rules.Termination value once finished
    winner: int | None  # SENTE, GOTE or None (draw, aborted)
    time_per_move: int | None
    deadline: float | None
    draw_offer: int | None  # colour that offers a draw
    takeback_offer: int | None  # colour that asks for a takeback
    created_at: float
    updated_at: float
    finished_at: float | None = None
    challenge_id: int | None = None

    @property
    def active(self) -> bool:
        return self.status is GameStatus.ACTIVE

    def player_color(self, user_key: str) -> int | None:
        """0 (sente), 1 (gote) or None for someone who does not play this game."""
        if user_key == self.sente:
            return 0
        if user_key == self.gote:
            return 1
        return None

    def player(self, color: int) -> str:
        return self.sente if color == 0 else self.gote


@dataclass(frozen=True)
class NewTimer:
    """A timer to schedule: fires once at ``due_at``."""

    kind: TimerKind
    due_at: float
    game_id: int | None = None
    challenge_id: int | None = None
    game_version: int | None = None  # the game version it belongs to (stale when it changed)
    offset: int = 0  # for reminders: seconds before the deadline


@dataclass(frozen=True)
class TimerRow:
    id: int
    kind: TimerKind
    due_at: float
    game_id: int | None
    challenge_id: int | None
    game_version: int | None
    offset: int
    fired_at: float | None


@dataclass(frozen=True)
class ChatSettings:
    """Per-chat choices: how moves are written, how pieces look, which way the board faces,
    whether a bare move typed in the chat is played and whether each game gets a thread."""

    notation: str = "western"  # "western", "japanese" or "usi"
    piece_style: str = "kanji"  # "kanji" or "international"
    perspective: str = "mover"  # "mover" (the player to move at the bottom) or "sente"
    language: str = "en"
    bare_moves: bool = False  # a message that is only a move plays it (Discord text chats)
    threads: bool = False  # open a thread for each challenge and its game (Discord channels)


class ReminderRoute(Enum):
    """Where a player's reminders and time-out notices go."""

    CHAT = "chat"  # the game's chat
    DM = "dm"  # a direct message (private chat) with the bot
