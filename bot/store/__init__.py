"""Persistence: the :class:`Store` interface and its SQLite implementation."""

from bot.store.errors import StoreError, StoreOpenError, VersionConflict
from bot.store.interface import Store
from bot.store.models import (
    ChallengeRow,
    ChallengeStatus,
    ChatKey,
    ChatSettings,
    GameRow,
    GameStatus,
    NewTimer,
    TimerKind,
    TimerRow,
    UserRow,
)
from bot.store.sqlite import SqliteStore

__all__ = [
    "ChallengeRow",
    "ChallengeStatus",
    "ChatKey",
    "ChatSettings",
    "GameRow",
    "GameStatus",
    "NewTimer",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreOpenError",
    "TimerKind",
    "TimerRow",
    "UserRow",
    "VersionConflict",
]
