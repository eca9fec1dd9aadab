"""Telegram settings read from environment variables: API base URL, polling or webhook."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bot.config import ConfigError, Variable, redact

VARIABLES: tuple[Variable, ...] = (
    Variable(
        "TELEGRAM_TOKEN", "", "bot token from @BotFather; the Telegram front end runs when set"
    ),
    Variable(
        "TELEGRAM_API_BASE",
        "https://api.telegram.org",
        "Bot API server (a self-hosted telegram-bot-api server, or a test server)",
    ),
    Variable(
        "TELEGRAM_WEBHOOK_URL",
        "",
        "public HTTPS URL Telegram posts updates to; when set, webhook mode replaces long polling",
    ),
    Variable("TELEGRAM_WEBHOOK_LISTEN", "0.0.0.0", "address the webhook server listens on"),
    Variable("TELEGRAM_WEBHOOK_PORT", "8443", "port the webhook server listens on"),
    Variable(
        "TELEGRAM_WEBHOOK_SECRET",
        "",
        "secret Telegram sends in X-Telegram-Bot-Api-Secret-Token (default: made from the token)",
    ),
    Variable(
        "TELEGRAM_POLL_TIMEOUT", "30", "seconds one long-polling getUpdates call is held open"
    ),
)

_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_TOKEN = re.compile(r"^\d+:[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class TelegramSettings:
    """How to reach the Bot API and how updates arrive (long polling or a webhook)."""

    token: str = field(repr=False)
    api_base: str = "https://api.telegram.org"
    webhook_url: str = ""
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: str = field(default="", repr=False)
    poll_timeout: float = 30.0

    @property
    def base_url(self) -> str:
        """What ptb's ``base_url`` wants: the API root with ``/bot`` (ptb appends the token)."""
        return f"{self.api_base}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.api_base}/file/bot"

    @property
    def webhook(self) -> bool:
        return bool(self.webhook_url)

    @property
    def webhook_path(self) -> str:
        """The path of the webhook URL, where the local server accepts Telegram's posts."""
        return urlsplit(self.webhook_url).path or "/"

    @property
    def secret_token(self) -> str:
        """The webhook secret: the configured one, or a stable one derived from the token."""
        if self.webhook_secret:
            return self.webhook_secret
        return hashlib.sha256(f"komabot-webhook:{self.token}".encode()).hexdigest()

    @classmethod
    def from_env(cls, token: str, env: Mapping[str, str] | None = None) -> TelegramSettings:
        """Read the TELEGRAM_* variables; raise ConfigError naming a bad one."""
        env = os.environ if env is None else env
        values = {v.name: env.get(v.name, v.default).strip() for v in VARIABLES}
        if not _TOKEN.match(token):
            raise ConfigError(
                "TELEGRAM_TOKEN: not a bot token like 123456789:AAE... from @BotFather"
            )
        api_base = (values["TELEGRAM_API_BASE"] or "https://api.telegram.org").rstrip("/")
        if urlsplit(api_base).scheme not in ("http", "https") or not urlsplit(api_base).netloc:
            raise ConfigError(f"TELEGRAM_API_BASE: {api_base!r} is not an http(s) URL")
        webhook_url = values["TELEGRAM_WEBHOOK_URL"]
        if webhook_url and urlsplit(webhook_url).scheme != "https":
            raise ConfigError(
                f"TELEGRAM_WEBHOOK_URL: {redact(webhook_url, (token,))!r} must be an https:// URL "
                "(Telegram posts only to HTTPS)"
            )
        try:
            port = int(values["TELEGRAM_WEBHOOK_PORT"])
        except ValueError:
            port = 0
        if not 1 <= port <= 65535:
            raise ConfigError(
                f"TELEGRAM_WEBHOOK_PORT: {values['TELEGRAM_WEBHOOK_PORT']!r} is not a port number"
            )
        secret = values["TELEGRAM_WEBHOOK_SECRET"]
        if secret and not _SECRET.match(secret):
            raise ConfigError(
                "TELEGRAM_WEBHOOK_SECRET: use 1 to 256 characters from A-Z, a-z, 0-9, _ and -"
            )
        try:
            poll_timeout = float(values["TELEGRAM_POLL_TIMEOUT"])
        except ValueError:
            poll_timeout = -1.0
        if not 0 <= poll_timeout <= 600:
            raise ConfigError(
                f"TELEGRAM_POLL_TIMEOUT: {values['TELEGRAM_POLL_TIMEOUT']!r} is not a number "
                "of seconds from 0 to 600"
            )
        return cls(
            token=token,
            api_base=api_base,
            webhook_url=webhook_url,
            webhook_listen=values["TELEGRAM_WEBHOOK_LISTEN"] or "0.0.0.0",
            webhook_port=port,
            webhook_secret=secret,
            poll_timeout=poll_timeout,
        )
