"""The bot's engine: an external USI engine for Standard Shogi (``komabot usi`` itself, and
engines that resign or fail), started once and reused, with the built-in engine behind it."""

from __future__ import annotations

import logging
import sys
import textwrap
from pathlib import Path

import pytest

from bot.config import Config
from bot.core.opponent.engine_runner import EngineQuery, EngineRunner
from engine.usi_client import EngineSpec
from rules import Position, load_variant

ENTRY = "import sys; from bot.cli import main; sys.exit(main())"
KOMABOT_USI = (sys.executable, "-c", ENTRY, "usi")
START = load_variant("shogi").start_sfen


def query(game: str = "1", moves: tuple[str, ...] = ("7g7f",)) -> EngineQuery:
    return EngineQuery(game=game, variant="shogi", sfen=START, moves=moves, level=3)


def legal(moves: tuple[str, ...]) -> set[str]:
    pos = Position.start(load_variant("shogi"))
    for text in moves:
        pos.push_usi(text)
    return {pos.usi(m) for m in pos.legal_moves()}


def script(tmp_path: Path, on_go: str) -> tuple[str, ...]:
    """A tiny USI engine that does ``on_go`` when asked to move."""
    path = tmp_path / "engine.py"
    path.write_text(
        textwrap.dedent(
            f"""
            import sys
            for line in sys.stdin:
                word = line.split()[0] if line.split() else ""
                if word == "usi":
                    print("usiok", flush=True)
                elif word == "isready":
                    print("readyok", flush=True)
                elif word == "go":
                    {on_go}
            """
        ),
        encoding="utf-8",
    )
    return (sys.executable, str(path))


async def test_the_external_engine_plays_shogi_and_is_started_once() -> None:
    spec = EngineSpec(KOMABOT_USI, timeout=20)
    runner = EngineRunner(movetime_ms=100, external={"shogi": spec})
    try:
        first = await runner.answer(query("1"))
        pid = runner._clients["shogi"].pid
        second = await runner.answer(query("2", ("2g2f",)))
        assert first.move in legal(("7g7f",)) and second.move in legal(("2g2f",))
        assert runner._clients["shogi"].pid == pid and runner._clients["shogi"].starts == 1
        assert runner.workers.pids == []  # the built-in engine was not needed
    finally:
        await runner.close()


async def test_an_external_engine_may_resign(tmp_path: Path) -> None:
    spec = EngineSpec(script(tmp_path, 'print("bestmove resign", flush=True)'), timeout=5)
    runner = EngineRunner(movetime_ms=50, external={"shogi": spec})
    try:
        assert (await runner.answer(query())).resign
    finally:
        await runner.close()


async def test_a_failing_external_engine_leaves_the_move_to_the_built_in_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    spec = EngineSpec(script(tmp_path, "sys.exit(3)"), timeout=5)
    runner = EngineRunner(movetime_ms=50, external={"shogi": spec})
    try:
        with caplog.at_level(logging.ERROR, logger="komabot.engine"):
            answer = await runner.answer(query())
        assert answer.move in legal(("7g7f",))
        assert "external engine failed in game 1" in caplog.text and "built-in plays" in caplog.text
    finally:
        await runner.close()


def test_the_configured_external_engine_is_for_standard_shogi_only() -> None:
    env = {"KOMABOT_USI_ENGINE": f"{sys.executable} -m engine", "KOMABOT_USI_OPTIONS": "A=1"}
    config = Config.from_env(env)
    assert [variant for variant, _ in config.usi_engines] == ["shogi"]
    runner = EngineRunner.from_config(config)
    assert set(runner.external) == {"shogi"} and runner.external["shogi"].options == (("A", "1"),)
    env["KOMABOT_USI_ENGINE_WA"] = sys.executable  # a Wa engine of its own
    assert [v for v, _ in Config.from_env(env).usi_engines] == ["shogi", "wa"]
