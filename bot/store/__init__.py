"""Persistence: the :class:`Store` interface and its SQLite implementation."""

from bot.store.errors import (
    ChallengeAlreadyOpen,
    ReadOnlyStore,
    StoreError,
    StoreFull,
    StoreOpenError,
    StoreUnavailable,
    StoreWriteError,
    VersionConflict,
)
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
    "ChallengeAlreadyOpen",
    "ChallengeRow",
    "ChallengeStatus",
    "ChatKey",
    "ChatSettings",
    "GameRow",
    "GameStatus",
    "NewTimer",
    "ReadOnlyStore",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreFull",
    "StoreOpenError",
    "StoreUnavailable",
    "StoreWriteError",
    "TimerKind",
    "TimerRow",
    "UserRow",
    "VersionConflict",
]
