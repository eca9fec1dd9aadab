"""Errors of the store."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every store error."""


class StoreOpenError(StoreError):
    """The database file cannot be used (corrupt, foreign, too new); nothing was written."""


class VersionConflict(StoreError):
    """The row changed since it was read; the update was not applied."""
