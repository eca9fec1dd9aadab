"""What a ``komabot`` process imports before it does its work: each command loads what it uses.

Every ``komabot`` process builds the whole argument parser, so the subcommands' modules
(bot/cli/*_cmds.py) import only what their parsers need (light modules: ``render.options``,
``puzzles.settings``, ``rules.records`` without its readers); a handler imports the drawing
code, the engine, the miner or a database driver when it runs.  ``komabot run`` and ``console``
load the game service only once the database is open, and asyncpg only for a PostgreSQL URL.
Each case runs in a fresh interpreter, as the ``komabot`` script does, and reads
``sys.modules`` when the command has finished.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# The ``komabot`` script's ``main()``, then the names of every module loaded, as JSON, into
# the file named by the first argument (standard output belongs to the command).
PROGRAM = """\
import json, sys
from bot.cli import main
out, sys.argv = sys.argv[1], ["komabot", *sys.argv[2:]]
try:
    code = main()
except SystemExit as exc:  # --help
    code = exc.code
with open(out, "w") as fh:
    json.dump(sorted(sys.modules), fh)
sys.exit(code)
"""
DRAWING = {"PIL", "PIL.Image", "render.board", "render.replay", "render.cheatsheet"}
RECORD_READERS = {"rules.records.kif", "rules.records.csa", "rules.records.usi"}
PUZZLES = {"puzzles.miner", "puzzles.collection", "puzzles.prover"}
ENGINE = {"engine.search", "engine.api", "engine.analysis"}
BOT = {"asyncio", "asyncpg", "aiosqlite", "babel", "bot.app", "bot.core.service", "bot.store"}


def assert_none_of(loaded: set[str], unwanted: set[str]) -> None:
    """None of ``unwanted`` was loaded (those that were, named if one was)."""
    assert loaded.isdisjoint(unwanted), sorted(loaded & unwanted)


def modules_of(
    tmp_path: Path, argv: list[str], *, stdin: str = "", env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``komabot ARGV`` run to its end in a fresh interpreter: the process and the modules it
    had loaded by then."""
    out = tmp_path / "modules.json"
    base = {k: v for k, v in os.environ.items() if not k.startswith(("KOMABOT_DB", "KOMABOT_DA"))}
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(out), *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**base, "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": "", **(env or {})},
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done, set(json.loads(out.read_text()))


@pytest.mark.parametrize(
    "argv", [["--help"], ["run", "--help"], ["perft", "--depth", "1"]], ids=" ".join
)
def test_help_and_perft_load_neither_the_engine_nor_images_nor_the_bot(
    tmp_path: Path, argv: list[str]
) -> None:
    done, loaded = modules_of(tmp_path, argv)
    assert done.returncode == 0, done.stderr
    assert_none_of(loaded, DRAWING | RECORD_READERS | PUZZLES | ENGINE | BOT)


def test_usi_loads_the_engine_alone(tmp_path: Path) -> None:
    done, loaded = modules_of(tmp_path, ["usi"], stdin="usi\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "usiok" in done.stdout
    assert {"engine.usi", "engine.search"} <= loaded
    assert_none_of(loaded, DRAWING | RECORD_READERS | PUZZLES | BOT)


def test_a_bad_database_url_is_reported_before_the_bot_loads(tmp_path: Path) -> None:
    done, loaded = modules_of(tmp_path, ["run"], env={"KOMABOT_DATABASE_URL": "mysql://x/y"})
    assert done.returncode == 2
    assert "KOMABOT_DATABASE_URL" in done.stderr
    assert_none_of(loaded, DRAWING | RECORD_READERS | PUZZLES | ENGINE | BOT)


def test_a_database_that_cannot_be_opened_stops_before_the_game_service(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port on this machine that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://komabot@127.0.0.1:{port}/none"
    done, loaded = modules_of(tmp_path, ["run"], env={"KOMABOT_DATABASE_URL": url})
    assert done.returncode == 2
    assert "cannot connect to PostgreSQL" in done.stderr
    assert "asyncpg" in loaded
    game = {"bot.core.service", "bot.core.scheduler", "engine.analysis"}
    assert_none_of(loaded, DRAWING | RECORD_READERS | PUZZLES | game)


def test_the_console_on_sqlite_loads_no_postgresql_driver_nor_record_readers(
    tmp_path: Path,
) -> None:
    env = {"KOMABOT_DB": str(tmp_path / "komabot.sqlite3"), "KOMABOT_CONSOLE_OUT": "out"}
    done, loaded = modules_of(tmp_path, ["console", "--quiet"], stdin="/help\n", env=env)
    assert done.returncode == 0, done.stderr
    assert {"bot.core.service", "aiosqlite", "engine.search"} <= loaded  # it did start
    later = {"asyncpg", "puzzles.miner"} | RECORD_READERS  # (the bot's puzzles: no miner)
    assert_none_of(loaded, later)
