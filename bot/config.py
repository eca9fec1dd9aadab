"""Komabot's configuration, read from environment variables with defaults.

Every variable is listed in :data:`VARIABLES` (name, default, meaning) so the README table and
``komabot run --help`` come from one place.  Tokens are kept out of ``repr`` and logs.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from bot.database_url import Database, parse_database
from bot.redaction import mask_credentials, passwords_in

if TYPE_CHECKING:
    from engine.usi_client import EngineSpec


class ConfigError(ValueError):
    """An environment variable has a value Komabot cannot use; the message names it, and
    shows no password a URL in it holds (whatever the URL's shape) nor any token known by then
    (:func:`install_redaction`)."""

    def __init__(self, message: str) -> None:
        known = _installed.secrets if _installed is not None else ()  # tokens known by now
        super().__init__(redact(mask_credentials(message), known))


@dataclass(frozen=True)
class Variable:
    name: str
    default: str
    meaning: str

    @property
    def help_line(self) -> str:
        """One line for a command's ``--help``."""
        return f"  {self.name} (default {self.default!r}): {self.meaning}"


VARIABLES: tuple[Variable, ...] = (
    Variable("KOMABOT_DB", "./komabot.sqlite3", "SQLite database file (created if missing)"),
    Variable(
        "KOMABOT_DATABASE_URL",
        "",
        "postgresql://USER:PASSWORD@HOST/DB for PostgreSQL (several processes may share it), "
        "sqlite:///FILE or a file path; unset: KOMABOT_DB",
    ),
    Variable(
        "KOMABOT_DB_POOL",
        "10",
        "PostgreSQL connections each process keeps at most (1-100)",
    ),
    Variable("KOMABOT_LOG_LEVEL", "INFO", "DEBUG, INFO, WARNING or ERROR"),
    Variable(
        "KOMABOT_CONSOLE_OUT",
        "./komabot-images",
        "folder where the console front end writes board images and exported files",
    ),
    Variable("KOMABOT_CONSOLE_CHAT", "main", "chat name the console starts in"),
    Variable(
        "KOMABOT_REMINDERS",
        "1d,1h",
        "reminders before a move deadline, comma-separated durations (30m, 1h, 1d); empty for none",
    ),
    Variable("KOMABOT_CHALLENGE_TTL", "1d", "how long a challenge stays open"),
    Variable("KOMABOT_DEFAULT_TIME", "3d", "time per move when a challenge names none"),
    Variable(
        "KOMABOT_DB_SYNC",
        "full",
        "SQLite synchronous mode: full (survives power loss) or normal (survives crashes)",
    ),
    Variable(
        "KOMABOT_ENGINE_WORKERS",
        "1",
        "processes that search the bot's moves, one search each at a time (1-64)",
    ),
    Variable(
        "KOMABOT_BOARD_PROCESSES",
        "1",
        "processes that draw board images beside the service's own (0-8; 0: on a thread of "
        "its own)",
    ),
    Variable(
        "KOMABOT_ENGINE_MOVETIME_MS",
        "3000",
        "the bot's time per move in milliseconds (10-600000); lower levels use a share of it",
    ),
    Variable(
        "KOMABOT_ANALYSIS_MOVETIME_MS",
        "300",
        "/analyse's time per position in milliseconds (10-600000), for the built-in engine "
        "or the external one",
    ),
    Variable(
        "KOMABOT_USI_ENGINE",
        "",
        "command line of an external USI engine that plays Standard Shogi against people "
        "instead of the built-in one (KOMABOT_USI_ENGINE_WA and so on for another variant)",
    ),
    Variable("KOMABOT_USI_OPTIONS", "", "setoption pairs for it: Name=Value;Name=Value"),
    Variable(
        "KOMABOT_USI_TIMEOUT",
        "10",
        "seconds the external engine may take to start, and beyond its move time to answer",
    ),
    Variable("DISCORD_TOKEN", "", "Discord bot token; the Discord front end runs when set"),
    Variable("TELEGRAM_TOKEN", "", "Telegram bot token; the Telegram front end runs when set"),
)

ENGINE_WORKERS_RANGE = (1, 64)
BOARD_PROCESSES_RANGE = (0, 8)
ENGINE_MOVETIME_RANGE = (10, 600_000)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"^(\d{1,5})([smhdw])$")


def parse_duration(text: str) -> int:
    """Seconds in a duration like ``30m``, ``1h``, ``3d``, ``1w``; ValueError otherwise."""
    m = _DURATION.match(text.strip().lower())
    if not m:
        raise ValueError(f"{text!r} is not a duration like 30m, 1h, 3d or 1w")
    return int(m.group(1)) * _UNITS[m.group(2)]


def format_duration(seconds: int) -> str:
    """The shortest exact form: ``86400`` -> ``1d``, ``5400`` -> ``90m``."""
    for unit in ("w", "d", "h", "m"):
        size = _UNITS[unit]
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


@dataclass(frozen=True)
class Config:
    """Everything Komabot reads from its environment."""

    db_path: Path = Path("komabot.sqlite3")
    log_level: str = "INFO"
    console_out: Path = Path("komabot-images")
    console_chat: str = "main"
    reminders: tuple[int, ...] = (86400, 3600)  # seconds before the deadline
    challenge_ttl: int = 86400
    default_time: int | None = 3 * 86400
    db_sync: str = "full"
    database_url: str = field(default="", repr=False)  # may hold a password
    db_pool: int = 10
    engine_workers: int = 1
    board_processes: int = 1
    engine_movetime_ms: int = 3000
    analysis_movetime_ms: int = 300
    usi_engines: tuple[tuple[str, EngineSpec], ...] = ()  # (variant, external engine)
    discord_token: str = field(default="", repr=False)
    telegram_token: str = field(default="", repr=False)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read the variables of :data:`VARIABLES`; raise ConfigError naming a bad one."""
        env = os.environ if env is None else env
        values = {v.name: env.get(v.name, v.default).strip() for v in VARIABLES}
        try:
            return cls._from_values(values, env)
        except ConfigError as exc:  # a token pasted into another setting is not echoed
            known = [values[n] for n in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")]
            tokens = [s for s in known if len(s) >= _SECRET_MIN]
            raise ConfigError(redact(str(exc), tokens)) from None

    @classmethod
    def _from_values(cls, values: Mapping[str, str], env: Mapping[str, str]) -> Config:
        def duration(name: str) -> int:
            try:
                return parse_duration(values[name])
            except ValueError as exc:
                raise ConfigError(f"{name}: {exc}") from None

        level = values["KOMABOT_LOG_LEVEL"].upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(
                f"KOMABOT_LOG_LEVEL: {level!r} is not one of DEBUG, INFO, WARNING, ERROR"
            )
        reminders: list[int] = []
        for part in filter(None, (p.strip() for p in values["KOMABOT_REMINDERS"].split(","))):
            try:
                reminders.append(parse_duration(part))
            except ValueError as exc:
                raise ConfigError(f"KOMABOT_REMINDERS: {exc}") from None
        default_time: int | None = None
        if values["KOMABOT_DEFAULT_TIME"].lower() not in ("none", "0", ""):
            default_time = duration("KOMABOT_DEFAULT_TIME")
        sync = values["KOMABOT_DB_SYNC"].lower()
        if sync not in ("full", "normal"):
            raise ConfigError(f"KOMABOT_DB_SYNC: {sync!r} is not full or normal")
        if not values["KOMABOT_DB"]:
            raise ConfigError("KOMABOT_DB: empty; give a file path")
        if passwords_in(values["KOMABOT_DB"]):
            raise ConfigError(
                f"KOMABOT_DB: {values['KOMABOT_DB']!r} holds a password: give a file path "
                "here, and a PostgreSQL URL in KOMABOT_DATABASE_URL"
            )
        if values["KOMABOT_DATABASE_URL"]:
            try:
                parse_database(values["KOMABOT_DATABASE_URL"])
            except ValueError as exc:
                raise ConfigError(f"KOMABOT_DATABASE_URL: {exc}") from None

        def number(name: str, low: int, high: int, what: str) -> int:
            text = values[name]
            if not text.isdigit() or not low <= int(text) <= high:
                raise ConfigError(f"{name}: {text!r} is not {what} from {low} to {high}")
            return int(text)

        return cls(
            db_path=Path(values["KOMABOT_DB"]).expanduser(),
            log_level=level,
            console_out=Path(values["KOMABOT_CONSOLE_OUT"] or "komabot-images").expanduser(),
            console_chat=values["KOMABOT_CONSOLE_CHAT"] or "main",
            reminders=tuple(sorted(set(reminders), reverse=True)),
            challenge_ttl=duration("KOMABOT_CHALLENGE_TTL"),
            default_time=default_time,
            db_sync=sync,
            database_url=values["KOMABOT_DATABASE_URL"],
            db_pool=number("KOMABOT_DB_POOL", 1, 100, "a count"),
            engine_workers=number("KOMABOT_ENGINE_WORKERS", *ENGINE_WORKERS_RANGE, "a count"),
            board_processes=number("KOMABOT_BOARD_PROCESSES", *BOARD_PROCESSES_RANGE, "a count"),
            engine_movetime_ms=number(
                "KOMABOT_ENGINE_MOVETIME_MS", *ENGINE_MOVETIME_RANGE, "milliseconds"
            ),
            analysis_movetime_ms=number(
                "KOMABOT_ANALYSIS_MOVETIME_MS", *ENGINE_MOVETIME_RANGE, "milliseconds"
            ),
            usi_engines=usi_engines(env),
            discord_token=values["DISCORD_TOKEN"],
            telegram_token=values["TELEGRAM_TOKEN"],
        )

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values that must never appear in a log line."""
        known = (self.discord_token, self.telegram_token, *passwords_in(self.database_url))
        return tuple(s for s in known if s)

    @property
    def database(self) -> Database:
        """The database: ``KOMABOT_DATABASE_URL``'s, else the SQLite file ``db_path``."""
        if self.database_url:
            return parse_database(self.database_url)
        return Database(path=self.db_path)


DB_HELP = (
    "database: a file path, sqlite:///FILE or postgresql://... (overrides KOMABOT_DATABASE_URL "
    "and KOMABOT_DB)"
)


def with_database(config: Config, database: str | None) -> Config:
    """``config`` on the database a ``--db`` option names (itself without one); ConfigError
    when it names none."""
    if database is None:
        return config
    try:
        parse_database(database)
    except ValueError as exc:
        raise ConfigError(f"--db: {exc}") from None
    return replace(config, database_url=database)


def usi_engines(env: Mapping[str, str]) -> tuple[tuple[str, EngineSpec], ...]:
    """The external USI engines configured for games against the bot, by variant:
    ``KOMABOT_USI_ENGINE`` for Standard Shogi (the common external engines play only it),
    ``KOMABOT_USI_ENGINE_<VARIANT>`` for any variant (``KOMABOT_USI_ENGINE_WA_DROPS``).
    Raises ConfigError for bad options or timeout, or a program that cannot be found."""
    import shutil

    from engine.usi_client import ENGINE_VARIABLE, EngineSpec
    from rules.variant import available_variants

    found = []
    for variant_id in available_variants():
        own = f"{ENGINE_VARIABLE}_{variant_id.upper().replace('-', '_')}"
        if variant_id != "shogi" and not env.get(own, "").strip():
            continue
        try:
            spec = EngineSpec.from_env(variant_id, env)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        if spec is None:
            continue
        name = own if env.get(own, "").strip() else ENGINE_VARIABLE
        if not spec.command or shutil.which(spec.command[0]) is None:
            program = spec.command[0] if spec.command else ""
            raise ConfigError(f"{name}: cannot find the program {program!r} to run")
        found.append((variant_id, spec))
    return tuple(found)


# --- secrets out of every line -----------------------------------------------------------

MASK = "***"
_SECRET_HALF = 16  # a Telegram token's part after the colon is secret on its own from here
_SECRET_MIN = 6  # install_redaction skips shorter values (a test's "t"): they are no tokens,
# and masking them in every line of the process would garble the log


def secret_forms(secrets: Iterable[str]) -> tuple[str, ...]:
    """Every form in which a secret may show up in a text, longest first: as is, URL-encoded
    (``123%3AAAE...``) and, for a Telegram token ``123:AAE...``, its secret part alone."""
    forms: set[str] = set()
    for secret in secrets:
        if not secret:
            continue
        forms.update({secret, quote(secret, safe="")})
        _, colon, half = secret.partition(":")
        if colon and len(half) >= _SECRET_HALF:
            forms.add(half)
    return tuple(sorted(forms, key=len, reverse=True))


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret replaced by ``***``: the one helper for anything printed or
    logged that may quote a token (error texts of libraries often carry request URLs)."""
    for form in secret_forms(secrets):
        if form in text:
            text = text.replace(form, MASK)
    return text


class RedactSecrets(logging.Filter):
    """Replace every configured secret in a log record (message, arguments, exception and
    stack text) with ``***``.  :func:`install_redaction` runs it on every record made."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._raw: set[str] = set()
        self.secrets: tuple[str, ...] = ()  # every form of them (see secret_forms)
        self.add(secrets)

    def add(self, secrets: Iterable[str]) -> None:
        self._raw.update(s for s in secrets if s)
        self.secrets = secret_forms(self._raw)

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit: logging reports it when emitting
            message = None
        if message is not None and redact(message, self.secrets) != message:
            record.msg = redact(message, self.secrets)
            record.args = None
        if record.exc_info and record.exc_text is None:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


_installed: RedactSecrets | None = None


def install_redaction(secrets: Iterable[str]) -> RedactSecrets:
    """Scrub ``secrets`` from every log record made from now on, by any logger (ours and the
    libraries'), whichever handler shows it: a log record factory runs :class:`RedactSecrets`
    on each record as it is made.  Calling it again adds secrets; it installs once."""
    global _installed
    secrets = [s for s in secrets if len(s) >= _SECRET_MIN]
    if _installed is not None:
        _installed.add(secrets)
        return _installed
    scrubber = _installed = RedactSecrets(secrets)
    previous: Callable[..., logging.LogRecord] = logging.getLogRecordFactory()

    def make_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        scrubber.filter(record)
        return record

    logging.setLogRecordFactory(make_record)
    return scrubber
