"""Errors of the store.

Every backend raises these (never its driver's own errors) for the conditions the service
answers specifically: a lost race, an open challenge already there, a store that cannot take
writes (read-only, or out of space).
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every store error."""


class StoreOpenError(StoreError):
    """The database file cannot be used (corrupt, foreign, too new); nothing was written."""


class VersionConflict(StoreError):
    """The row changed since it was read; the update was not applied."""


class ChallengeAlreadyOpen(StoreError):
    """The challenger already has an open challenge in that chat (``challenge_id``, when it
    could be read); the new one was not created."""

    def __init__(self, challenge_id: int | None) -> None:
        super().__init__(
            f"challenge {challenge_id} is already open"
            if challenge_id is not None
            else "a challenge is already open"
        )
        self.challenge_id = challenge_id


class StoreWriteError(StoreError):
    """A write was refused by the database; nothing of the transaction was kept."""


class ReadOnlyStore(StoreWriteError):
    """The database can be read but not written (read-only file, folder, mount or connection)."""


class StoreFull(StoreWriteError):
    """The disk holding the database (or the database's own size limit) is full."""


class DatabaseFileGone(ReadOnlyStore):
    """The SQLite database file (or its WAL) was deleted or replaced while Komabot ran: writes
    would go into a file nobody will find again, so they are refused until a restart."""


class StoreUnavailable(StoreError):
    """The database cannot be reached just now (PostgreSQL down or unreachable, the SQLite file
    locked by another process past the wait, or unreadable for an I/O error).  Nothing of the
    request was done, except when the connection broke during a commit, whose fate is then
    unknown (a game's version check makes sending it again safe).  The store logs one line when
    an outage begins and one when it ends; the request is worth trying again later."""
