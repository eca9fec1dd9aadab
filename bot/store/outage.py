"""The database going away and coming back, said once each in the log.

A backend calls :meth:`Outage.began` when the database cannot be reached and
:meth:`Outage.ended` after any request it served; only the first of a run of failures and the
first success after them are logged, however many requests meet the outage meanwhile.
"""

from __future__ import annotations

import logging
import time

from bot.store.errors import StoreUnavailable

log = logging.getLogger(__name__)


def one_line(exc: BaseException) -> str:
    """An exception as one line of text (its type when it says nothing)."""
    return " ".join(str(exc).split()) or type(exc).__name__


class Outage:
    """Whether the database at ``where`` (a label without password) is out of reach."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.since: float | None = None  # time.monotonic() when the outage began

    def began(self, exc: BaseException) -> StoreUnavailable:
        """The error for a request the outage stopped (logged once per outage)."""
        said = one_line(exc)
        if self.since is None:
            self.since = time.monotonic()
            log.error(
                "cannot reach the database %s (%s); requests that need it are refused until "
                "it answers again",
                self.where,
                said,
            )
        return StoreUnavailable(f"cannot reach the database {self.where}: {said}")

    def ended(self) -> None:
        """A request was served: the outage, if there was one, is over (logged once)."""
        if self.since is not None:
            log.warning(
                "the database %s is reachable again after %.0f s",
                self.where,
                time.monotonic() - self.since,
            )
            self.since = None
