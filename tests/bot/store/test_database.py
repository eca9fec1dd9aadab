"""Choosing the database: KOMABOT_DATABASE_URL (or ``--db``) names PostgreSQL or a SQLite file;
``komabot run`` plays on PostgreSQL; bad values are one line naming the variable."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.database_url import Database, parse_database
from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parents[3]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script


def komabot(
    args: list[str], env: dict[str, str], lines: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={
            **os.environ,
            "DISCORD_TOKEN": "",
            "TELEGRAM_TOKEN": "",
            "KOMABOT_LOG_LEVEL": "WARNING",
            **env,
        },
        timeout=120,
    )


@pytest.mark.parametrize(
    ("text", "database"),
    [
        (
            "postgresql://bot:pw@db.example/komabot",
            Database(url="postgresql://bot:pw@db.example/komabot"),
        ),
        (
            "postgres:///komabot?host=/run/postgresql",
            Database(url="postgres:///komabot?host=/run/postgresql"),
        ),
        ("sqlite:///komabot.sqlite3", Database(path=Path("komabot.sqlite3"))),
        ("sqlite:////srv/komabot/k.sqlite3", Database(path=Path("/srv/komabot/k.sqlite3"))),
        ("data/k.sqlite3", Database(path=Path("data/k.sqlite3"))),
    ],
)
def test_a_database_is_named_by_url_or_path(text: str, database: Database) -> None:
    assert parse_database(text) == database


def test_without_a_url_the_database_is_the_sqlite_file() -> None:
    config = Config.from_env({"KOMABOT_DB": "/tmp/k.sqlite3"})
    assert config.database == Database(path=Path("/tmp/k.sqlite3"))


@pytest.mark.parametrize("bad", ["mysql://db/komabot", "sqlite://host/k.sqlite3", "sqlite:///"])
def test_a_bad_url_is_refused_naming_the_variable(bad: str) -> None:
    with pytest.raises(ConfigError, match=r"^KOMABOT_DATABASE_URL: "):
        Config.from_env({"KOMABOT_DATABASE_URL": bad})


def test_the_password_stays_out_of_logs_and_reprs() -> None:
    config = Config.from_env({"KOMABOT_DATABASE_URL": "postgresql://bot:s3cret@db/komabot"})
    assert "s3cret" in config.secrets
    assert "s3cret" not in repr(config) and "s3cret" not in repr(config.database)
    assert config.database.label == "postgresql://bot:***@db/komabot"


def test_komabot_run_refuses_a_bad_url_or_server_in_one_line(tmp_path: Path) -> None:
    bad = komabot(["run"], {"KOMABOT_DATABASE_URL": "mysql://db/komabot"})
    assert bad.returncode == 2 and bad.stderr.startswith("komabot run: KOMABOT_DATABASE_URL: ")
    down = komabot(["run"], {"KOMABOT_DATABASE_URL": f"postgresql://k:pw@/k?host={tmp_path}"})
    assert down.returncode == 2, down.stderr
    assert down.stderr.count("\n") == 1 and "cannot connect to PostgreSQL" in down.stderr
    assert "pw" not in down.stderr.replace("komabot", "")


def test_komabot_run_plays_on_postgresql_across_a_restart(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    env = {
        "KOMABOT_DATABASE_URL": asyncio.run(postgres_server.new_database()),
        "KOMABOT_CONSOLE_OUT": str(tmp_path),
        "KOMABOT_DB": str(tmp_path / "unused.sqlite3"),
    }
    first = komabot(
        ["run"], env, ["@alice /challenge @bob shogi sente", "@bob /accept", "@alice /move 7g7f"]
    )
    assert first.returncode == 0 and "Traceback" not in first.stderr, first.stderr
    assert "alice played" in first.stdout
    again = komabot(["run"], env, ["@bob /move 3c3d", "@alice /games"])
    assert again.returncode == 0, again.stderr
    assert "bob played" in again.stdout and "move 2" in again.stdout
    assert not (tmp_path / "unused.sqlite3").exists()
    rebuilt = komabot(["ratings", "rebuild", "--db", env["KOMABOT_DATABASE_URL"]], {})
    assert rebuilt.returncode == 0 and "rebuilt from 0 rated games" in rebuilt.stdout
