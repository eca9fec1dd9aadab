"""The storage interface the game service uses; SQLite implements it, PostgreSQL could.

Every method is one transaction.  Updates name the version (games) or status (challenges) they
read and raise :class:`~bot.store.errors.VersionConflict` when the row changed meanwhile, so
several processes can share one database safely.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.store.models import (
    ChallengeRow,
    ChallengeStatus,
    ChatKey,
    ChatSettings,
    GameRow,
    NewTimer,
    ReminderRoute,
    TimerRow,
    UserRow,
)


class Store(Protocol):
    async def close(self) -> None: ...

    # users
    async def save_user(self, user: UserRow) -> None: ...
    async def get_user(self, key: str) -> UserRow | None: ...
    async def find_user(self, platform: str, name: str) -> UserRow | None: ...

    # challenges
    async def create_challenge(
        self,
        chat: ChatKey,
        challenger: str,
        challenged: str | None,
        variant: str,
        color: str,
        time_per_move: int | None,
        now: float,
        expires_at: float,
    ) -> ChallengeRow:
        """Insert an open challenge and its expiry timer."""
        ...

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None: ...
    async def open_challenges(self, chat: ChatKey) -> list[ChallengeRow]: ...
    async def close_challenge(self, challenge_id: int, status: ChallengeStatus) -> ChallengeRow:
        """Move an open challenge to ``status``; VersionConflict if it is no longer open."""
        ...

    async def accept_challenge(
        self, challenge_id: int, game: GameRow, timers: Sequence[NewTimer]
    ) -> GameRow:
        """Atomically mark the challenge accepted and insert ``game`` (its id is assigned)."""
        ...

    # games
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def active_game(self, chat: ChatKey, user_key: str) -> GameRow | None: ...
    async def active_games_in_chat(self, chat: ChatKey) -> list[GameRow]: ...
    async def active_games_of(self, user_key: str) -> list[GameRow]: ...
    async def last_game(self, chat: ChatKey, user_key: str) -> GameRow | None: ...
    async def count_active_games(self) -> int: ...
    async def update_game(self, game: GameRow, timers: Sequence[NewTimer] | None = None) -> GameRow:
        """Write ``game`` if the stored version is still ``game.version``; return it with the
        version raised by one.  ``timers`` (when given) replace the game's pending timers."""
        ...

    # timers
    async def due_timers(self, now: float, limit: int = 100) -> list[TimerRow]: ...
    async def next_due(self) -> float | None: ...
    async def mark_fired(self, timer_ids: Sequence[int], now: float) -> list[int]:
        """Mark pending timers fired; return the ids this call claimed (never claimed twice)."""
        ...

    # settings
    async def get_settings(self, chat: ChatKey) -> ChatSettings: ...
    async def save_settings(self, chat: ChatKey, settings: ChatSettings) -> None: ...

    # per-user preferences
    async def get_reminder_route(self, user_key: str) -> ReminderRoute:
        """Where the user's reminders go (the game's chat unless they chose DMs)."""
        ...

    async def set_reminder_route(self, user_key: str, route: ReminderRoute) -> None: ...

    # front-end state (see bot.core.api.StateStore)
    async def put_state(self, platform: str, kind: str, key: str, value: str) -> None:
        """Set ``value`` under ``(platform, kind, key)``, stamped with the current time."""
        ...

    async def get_state(self, platform: str, kind: str, key: str) -> str | None: ...
    async def delete_state(self, platform: str, kind: str, key: str) -> None: ...
    async def prune_state(self, platform: str, kind: str, before: float) -> int:
        """Delete the ``kind`` entries last written before ``before`` (Unix time); how many."""
        ...
