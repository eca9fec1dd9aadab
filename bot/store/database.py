"""Which database the store is on: ``KOMABOT_DATABASE_URL`` (a ``postgresql://`` URL, a
``sqlite:///FILE`` URL or a file path), else the SQLite file ``KOMABOT_DB`` (opened by
:mod:`bot.store.opening`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

POSTGRES_SCHEMES = ("postgresql", "postgres")


def redacted(url: str) -> str:
    """``url`` with its password replaced by ``***`` (for messages and logs)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    except ValueError:
        return "(an unreadable URL)"


@dataclass(frozen=True)
class Database:
    """A SQLite file (``path``) or a PostgreSQL database (``url``)."""

    path: Path | None = None
    url: str | None = field(default=None, repr=False)  # may hold a password

    @property
    def label(self) -> str:
        """Where it is, for logs and messages (a URL without its password)."""
        return redacted(self.url) if self.url is not None else str(self.path)

    @property
    def is_postgres(self) -> bool:
        return self.url is not None


def parse_database(text: str) -> Database:
    """The database ``text`` names; ValueError (its message fit to follow the variable's
    name) when it names none."""
    text = text.strip()
    if not text:
        raise ValueError("empty; give postgresql://... , sqlite:///FILE or a file path")
    if "://" not in text:
        return Database(path=Path(text).expanduser())
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        raise ValueError(f"{redacted(text)!r} is not a URL Komabot can read ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme in POSTGRES_SCHEMES:
        return Database(url=text)
    if scheme == "sqlite":
        # sqlite:///komabot.sqlite3 is a relative path, sqlite:////srv/k.sqlite3 an absolute one
        file = text.split("://", 1)[1].removeprefix("/")
        if parts.netloc or not file:
            raise ValueError(f"{text!r}: write a SQLite file as sqlite:///FILE")
        return Database(path=Path(file).expanduser())
    raise ValueError(
        f"{redacted(text)!r} is neither postgresql://... nor sqlite:///FILE nor a file path"
    )
