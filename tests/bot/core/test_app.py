"""Configuration, request logging, start-up refusals and clean shutdown."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.app import EXIT_FRONT_END_FAILED, RedactSecrets, describe, run_app, serve, setup_logging
from bot.config import Config, ConfigError, format_duration, parse_duration
from bot.core.api import ChatKey, Handler, Reply, Request, StateStore, User
from bot.store import SqliteStore

ROOT = Path(__file__).resolve().parents[3]


def test_config_defaults_and_overrides() -> None:
    default = Config.from_env({})
    assert default.db_path == Path("komabot.sqlite3")
    assert default.reminders == (86400, 3600)
    assert (default.challenge_ttl, default.default_time, default.db_sync) == (86400, 259200, "full")
    config = Config.from_env(
        {
            "KOMABOT_DB": "/tmp/x.db",
            "KOMABOT_REMINDERS": "30m, 2h,",
            "KOMABOT_DEFAULT_TIME": "none",
            "KOMABOT_LOG_LEVEL": "debug",
            "DISCORD_TOKEN": "abc.def",
        }
    )
    assert config.db_path == Path("/tmp/x.db") and config.reminders == (7200, 1800)
    assert config.default_time is None and config.log_level == "DEBUG"
    assert config.secrets == ("abc.def",) and "abc.def" not in repr(config)
    assert Config.from_env({"KOMABOT_REMINDERS": ""}).reminders == ()
    assert (default.engine_workers, default.engine_movetime_ms) == (1, 3000)
    assert default.usi_engines == ()
    engine = Config.from_env({"KOMABOT_ENGINE_WORKERS": "2", "KOMABOT_ENGINE_MOVETIME_MS": "500"})
    assert (engine.engine_workers, engine.engine_movetime_ms) == (2, 500)
    assert default.board_processes == 1
    assert Config.from_env({"KOMABOT_BOARD_PROCESSES": "0"}).board_processes == 0


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("KOMABOT_REMINDERS", "1d,soon", "KOMABOT_REMINDERS"),
        ("KOMABOT_LOG_LEVEL", "loud", "KOMABOT_LOG_LEVEL"),
        ("KOMABOT_CHALLENGE_TTL", "1 day", "KOMABOT_CHALLENGE_TTL"),
        ("KOMABOT_DB_SYNC", "off", "KOMABOT_DB_SYNC"),
        ("KOMABOT_ENGINE_WORKERS", "0", "KOMABOT_ENGINE_WORKERS: '0' is not a count from 1"),
        ("KOMABOT_ENGINE_WORKERS", "two", "KOMABOT_ENGINE_WORKERS"),
        ("KOMABOT_BOARD_PROCESSES", "9", "KOMABOT_BOARD_PROCESSES: '9' is not a count from 0"),
        ("KOMABOT_ENGINE_MOVETIME_MS", "3s", "KOMABOT_ENGINE_MOVETIME_MS: '3s' is not milli"),
        ("KOMABOT_ENGINE_MOVETIME_MS", "5", "from 10 to 600000"),
        ("KOMABOT_USI_ENGINE", "/no/such/engine", "KOMABOT_USI_ENGINE: cannot find the program"),
        ("KOMABOT_USI_ENGINE_WA", "no-such-engine", "KOMABOT_USI_ENGINE_WA: cannot find"),
    ],
)
def test_config_errors_name_the_variable(name: str, value: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        Config.from_env({name: value})


def test_durations_round_trip() -> None:
    for text in ("30m", "1h", "1d", "3d", "1w", "90m"):
        assert format_duration(parse_duration(text)) == text
    with pytest.raises(ValueError):
        parse_duration("3 days")


def test_tokens_never_reach_the_log() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets(["123:SECRET"]))
    log = logging.getLogger("test.redact")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("POST https://api.telegram.org/bot%s/getUpdates", "123:SECRET")
        try:
            raise RuntimeError("token 123:SECRET refused")
        except RuntimeError:
            log.exception("failed")
    finally:
        log.removeHandler(handler)
    assert "SECRET" not in stream.getvalue() and "bot***/getUpdates" in stream.getvalue()


class ScriptedFrontEnd:
    """Sends a few requests, then waits for ``stop``; records what the service sent."""

    platform = "console"

    def __init__(self, requests: list[Request]) -> None:
        self.requests = requests
        self.replies: list[Reply] = []

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        self.replies.append(reply)

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        self.replies.append(reply)

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        for request in self.requests:
            self.replies.append(await handle(request))


async def test_run_app_serves_logs_each_request_and_closes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    chat = ChatKey("console", "main")
    alice, bob = User("console", "alice", "Alice"), User("console", "bob", "Bob")
    front = ScriptedFrontEnd(
        [
            Request(chat, alice, "challenge", ("shogi", "sente"), target=bob),
            Request(chat, bob, "accept"),
            Request(chat, alice, "move", ("7g7f",)),
            Request(chat, bob, "nonsense"),
        ]
    )
    config = Config(db_path=tmp_path / "k.sqlite3", discord_token="TOKEN-XYZ")
    with caplog.at_level(logging.INFO, logger="komabot.request"):
        await asyncio.wait_for(run_app(config, [front]), 20)  # ends when the front end ends
    lines = [r.getMessage() for r in caplog.records if r.name == "komabot.request"]
    assert len(lines) == 4
    assert lines[2].startswith("command=move chat=console:main user=console:alice outcome=ok ms=")
    assert "outcome=unknown_command" in lines[3]
    assert all("TOKEN-XYZ" not in r.getMessage() for r in caplog.records)
    store = await SqliteStore.open(config.db_path)  # closed cleanly: opens again, move is there
    try:
        game = await store.get_game(1)
        assert game is not None and game.moves == ("7g7f",)
    finally:
        await store.close()


async def test_shutdown_waits_for_requests_in_flight(tmp_path: Path) -> None:
    from bot.core.service import GameService

    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    service = GameService(store, Config(), render_images=False)
    chat = ChatKey("console", "main")
    slow_started = asyncio.Event()
    original = store.save_user

    async def slow_save(user):  # type: ignore[no-untyped-def]
        slow_started.set()
        await asyncio.sleep(0.2)
        await original(user)

    store.save_user = slow_save  # type: ignore[method-assign]
    task = asyncio.create_task(service.handle(Request(chat, User("console", "x", "X"), "help")))
    await slow_started.wait()
    assert await service.drain(5)  # waits for the write to finish
    assert task.done() and "Commands" in task.result().text
    late = await service.handle(Request(chat, User("console", "y", "Y"), "help"))
    assert "restarting" in late.text
    await store.close()


def komabot(args: list[str], env: dict[str, str], **kw):  # type: ignore[no-untyped-def]
    return subprocess.Popen(
        [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())", *args],
        cwd=ROOT,
        env={**os.environ, "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": "", **env},
        text=True,
        **kw,
    )


def test_a_foreign_database_stops_start_up_untouched(tmp_path: Path) -> None:
    path = tmp_path / "thesis.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE chapters (n INTEGER)")
    con.commit()
    con.close()
    before = path.read_bytes()
    proc = komabot(
        ["run"],
        {"KOMABOT_DB": str(path)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "another program" in err and "Traceback" not in err
    assert path.read_bytes() == before


def test_sigterm_stops_the_console_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite3"
    proc = komabot(
        ["console", "--quiet"],
        {"KOMABOT_DB": str(db), "KOMABOT_CONSOLE_OUT": str(tmp_path / "out")},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("@alice /challenge @bob sente\n@bob /accept\n@alice /move 7g7f\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    seen = ""
    while "alice played" not in seen and time.monotonic() < deadline:
        seen += proc.stdout.readline()
    assert "alice played P-7f" in seen
    proc.send_signal(signal.SIGTERM)  # the pipe stays open: only the signal ends it
    proc.wait(timeout=30)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert con.execute("SELECT moves FROM games").fetchone()[0] == "7g7f"
    con.close()
    proc.stdin.close()
    proc.stdout.close()
    if proc.stderr:
        proc.stderr.close()


def test_setup_logging_is_idempotent() -> None:
    config = Config(log_level="WARNING", telegram_token="T0KEN")
    setup_logging(config, io.StringIO())
    setup_logging(config, io.StringIO())
    ours = [h for h in logging.getLogger().handlers if getattr(h, "komabot", False)]
    assert len(ours) == 1
    logging.getLogger().removeHandler(ours[0])


class FailingFrontEnd(ScriptedFrontEnd):
    """Fails to start, like a front end whose platform refuses its token."""

    platform = "discord"

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        raise RuntimeError("the platform refused token TOKEN-XYZ")


class RememberingFrontEnd(ScriptedFrontEnd):
    """Keeps a note in the state store ``run_app`` attaches."""

    platform = "telegram"
    state: StateStore | None = None

    def attach_state(self, state: StateStore) -> None:
        self.state = state

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        assert self.state is not None
        await self.state.put_state("telegram", "username", "bob_b", "2002")


async def test_run_app_attaches_the_database_to_front_ends_that_keep_state(
    tmp_path: Path,
) -> None:
    config = Config(db_path=tmp_path / "k.sqlite3")
    front = RememberingFrontEnd([])
    assert await asyncio.wait_for(run_app(config, [ScriptedFrontEnd([]), front]), 20) == 0
    store = await SqliteStore.open(config.db_path)
    try:
        assert await store.get_state("telegram", "username", "bob_b") == "2002"
    finally:
        await store.close()


async def test_run_app_returns_non_zero_when_a_front_end_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = Config(db_path=tmp_path / "k.sqlite3", discord_token="TOKEN-XYZ")
    with caplog.at_level(logging.DEBUG):
        code = await asyncio.wait_for(run_app(config, [FailingFrontEnd([])]), 20)
    assert code == EXIT_FRONT_END_FAILED != 0
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == ["discord front end stopped: the platform refused token ***"]
    assert all("TOKEN-XYZ" not in r.getMessage() for r in caplog.records)


def test_serve_prints_one_line_and_exits_non_zero_when_a_front_end_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = Config(db_path=tmp_path / "k.sqlite3", discord_token="TOKEN-XYZ")
    root = logging.getLogger()
    try:
        code = serve(config, [FailingFrontEnd([])], "komabot discord")
    finally:
        for handler in [h for h in root.handlers if getattr(h, "komabot", False)]:
            root.removeHandler(handler)
    assert code == EXIT_FRONT_END_FAILED
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and errors[0].endswith(
        "discord front end stopped: the platform refused token ***"
    )
    assert "TOKEN-XYZ" not in err and "Traceback" not in err


def test_describe_says_what_went_wrong_in_one_line() -> None:
    assert describe(RuntimeError("refused\n  twice"), ["x"]) == "refused twice"
    assert describe(KeyError("chat")) == "KeyError: 'chat'"
    assert describe(TimeoutError()) == "TimeoutError"
    assert describe(ValueError("token abc is bad"), ["abc"]) == "ValueError: token *** is bad"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"KOMABOT_USI_ENGINE": "python3", "KOMABOT_USI_OPTIONS": "Hash"}, "is not Name=Value"),
        ({"KOMABOT_USI_ENGINE": "python3", "KOMABOT_USI_TIMEOUT": "soon"}, "KOMABOT_USI_TIMEOUT"),
    ],
)
def test_external_engine_settings_are_checked_at_start(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        Config.from_env(env)
