"""Which database Komabot is on: ``KOMABOT_DATABASE_URL`` (a ``postgresql://`` URL, a
``sqlite:///FILE`` URL or a file path), else the SQLite file ``KOMABOT_DB``.  Values and their
parsing only: the configuration reads them, the store opens them (``bot.store.database``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.redaction import mask_credentials, passwords_in

POSTGRES_SCHEMES = ("postgresql", "postgres")


def redacted(url: str) -> str:
    """``url`` with its password replaced by ``***`` (for messages and logs), whatever the
    URL's shape."""
    return mask_credentials(url)


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
        if passwords_in(text) or text.lower().replace(" ", "").startswith(POSTGRES_SCHEMES):
            raise ValueError(
                f"{redacted(text)!r} looks like a PostgreSQL URL but is not one: write "
                "postgresql://USER:PASSWORD@HOST/DB"
            )
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
