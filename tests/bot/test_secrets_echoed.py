"""Secrets never printed: a database URL's password whatever the URL's shape (a typo in the
scheme, a password in the query), and a known token wherever a setting is echoed (a Telegram
webhook URL holding the bot token)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.redaction import mask_credentials
from bot.telegram_front.settings import TelegramSettings

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script
PASSWORD = "Pa55wordXYZ"
TOKEN = "123456789:AAE" + "k" * 32

SHAPES = [
    f"postgresql:/user:{PASSWORD}@host/db",
    f"postgresql//user:{PASSWORD}@host/db",
    f"postgres ql://user:{PASSWORD}@host/db",
    f"postgresql:user:{PASSWORD}@host/db",
    f"postgresql://user:{PASSWORD}@127.0.0.1:1/db",
    f"postgresql://user:pass@{PASSWORD}@127.0.0.1:1/db",
    f"postgresql://user@127.0.0.1:1/db?sslmode=disable&password={PASSWORD}",
    f"  POSTGRESQL://user:{PASSWORD}@host/db  ",
]


@pytest.mark.parametrize("url", SHAPES)
def test_a_database_password_is_masked_in_any_shape_of_url(url: str) -> None:
    assert PASSWORD not in mask_credentials(url)
    assert PASSWORD not in mask_credentials(f"cannot open {url!r}: no such host")


def test_masking_leaves_text_without_credentials_alone() -> None:
    for text in ("postgresql://bot@db/komabot", "data/k.sqlite3", "sqlite:///a:b.sqlite3", "a@b"):
        assert mask_credentials(text) == text


@pytest.mark.parametrize("url", SHAPES)
def test_the_configuration_never_shows_the_password(url: str) -> None:
    try:
        config = Config.from_env({"KOMABOT_DATABASE_URL": url})
    except ConfigError as exc:
        assert PASSWORD not in str(exc)
        return
    assert PASSWORD in "".join(config.secrets)  # so that logs mask it too
    assert PASSWORD not in config.database.label and PASSWORD not in repr(config)


def komabot(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": "", **env},
        timeout=120,
    )


@pytest.mark.parametrize("url", SHAPES[:4])
def test_komabot_never_prints_the_password(url: str, tmp_path: Path) -> None:
    done = komabot(
        ["console", "--quiet"],
        {"KOMABOT_DATABASE_URL": url, "KOMABOT_CONSOLE_OUT": str(tmp_path)},
    )
    assert done.returncode != 0
    assert PASSWORD not in done.stderr + done.stdout, done.stderr


def test_a_webhook_url_holding_the_token_is_not_printed() -> None:
    with pytest.raises(ConfigError) as raised:
        TelegramSettings.from_env(TOKEN, {"TELEGRAM_WEBHOOK_URL": f"http://example.org/{TOKEN}"})
    assert TOKEN not in str(raised.value) and TOKEN.split(":")[1] not in str(raised.value)
    done = komabot(
        ["telegram"],
        {"TELEGRAM_TOKEN": TOKEN, "TELEGRAM_WEBHOOK_URL": f"http://example.org/hook/{TOKEN}"},
    )
    assert done.returncode == 2 and "TELEGRAM_WEBHOOK_URL" in done.stderr
    assert TOKEN.split(":")[1] not in done.stderr + done.stdout, done.stderr


def test_a_known_token_in_any_setting_is_not_echoed() -> None:
    with pytest.raises(ConfigError) as raised:
        Config.from_env({"TELEGRAM_TOKEN": TOKEN, "KOMABOT_CHALLENGE_TTL": TOKEN})
    assert TOKEN.split(":")[1] not in str(raised.value)


def test_a_token_in_any_front_end_setting_is_not_echoed_once_known() -> None:
    from bot.config import install_redaction
    from bot.discord_front.settings import DiscordSettings

    discord_token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.fake-token-for-a-test-only"
    install_redaction([discord_token])  # as komabot discord does before reading its settings
    with pytest.raises(ConfigError) as raised:
        DiscordSettings.from_env({"DISCORD_API_BASE": f"ftp://x/{discord_token}"})
    assert "DISCORD_API_BASE" in str(raised.value) and discord_token not in str(raised.value)
