"""The client for external USI engines, against ``komabot usi`` itself and against engines
that hang, crash or cheat (small scripts)."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from engine.usi_client import EngineSpec, UsiClient, UsiEngineError, parse_options
from rules import IllegalMoveError, Position, load_variant

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"
KOMABOT = (sys.executable, "-c", ENTRY, "usi")

# A fake engine: answers the handshake, then does ``ON_GO`` when asked to move.  With a
# marker file it misbehaves only the first time, then becomes ``komabot usi``.
FAKE = """
import os, sys
marker = {marker!r}
if marker and os.path.exists(marker):
    os.chdir({root!r})
    sys.path.insert(0, {root!r})
    sys.argv = ["komabot", "usi", *{args!r}]
    from bot.cli import main
    sys.exit(main())
if marker:
    open(marker, "w").close()
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "usi" and {answers!r}:
        print("id name Fake", flush=True)
        print("usiok", flush=True)
    elif word == "isready" and {answers!r}:
        print("readyok", flush=True)
    elif word == "go":
        {on_go}
"""


def fake(
    tmp_path: Path,
    on_go: str,
    *,
    answers: bool = True,
    once: bool = False,
    args: tuple[str, ...] = (),
) -> tuple[str, ...]:
    marker = str(tmp_path / "started-once") if once else ""
    script = tmp_path / "fake_engine.py"
    script.write_text(
        textwrap.dedent(FAKE).format(
            marker=marker, root=str(ROOT), args=list(args), answers=answers, on_go=on_go
        ),
        encoding="utf-8",
    )
    return (sys.executable, str(script))


def alive(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped) counts as gone
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().split()[2] != "Z"


def legal(variant: str, moves: list[str]) -> set[str]:
    pos = Position.start(load_variant(variant))
    for text in moves:
        pos.push_usi(text)
    return {pos.usi(m) for m in pos.legal_moves()}


async def test_komabot_usi_as_the_external_engine_is_started_once() -> None:
    spec = EngineSpec((*KOMABOT, "--variant", "wa"), (("Level", "4"),), timeout=20)
    async with UsiClient(spec) as client:
        first = await client.play("wa", "startpos", [], depth=2, game="g1")
        pid = client.pid
        assert first.bestmove in legal("wa", [])
        assert client.name == "Komabot (wa)" and first.restarts == 0
        assert first.info.startswith("info depth ")
        second = await client.play("wa", "startpos", [first.bestmove], nodes=300, game="g1")
        assert second.bestmove in legal("wa", [first.bestmove])
        assert client.pid == pid and client.starts == 1
    assert not alive(pid)


async def test_a_mated_engine_resigns_through_the_client() -> None:
    async with UsiClient(EngineSpec(KOMABOT, timeout=20)) as client:
        reply = await client.play("shogi", "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", [], movetime_ms=100)
        assert reply.resigns


async def test_a_hung_engine_is_killed_and_the_request_fails_after_one_retry(
    tmp_path: Path,
) -> None:
    spec = EngineSpec(fake(tmp_path, "pass", answers=False), timeout=0.5)
    client = UsiClient(spec)
    with pytest.raises(UsiEngineError, match=r"failed twice: no usiok within 0\.5 s"):
        await client.bestmove("startpos", movetime_ms=100)
    assert client.starts == 2 and client.pid is None


async def test_an_engine_that_hangs_on_go_is_replaced(tmp_path: Path) -> None:
    # the replacement (``komabot usi``) must answer within the timeout too: a loaded machine
    # (two test workers, other jobs) takes more than half a second to start it
    spec = EngineSpec(fake(tmp_path, "pass", once=True), timeout=3)
    async with UsiClient(spec) as client:
        reply = await client.play("shogi", "startpos", ["7g7f"], movetime_ms=100)
        assert reply.restarts == 1 and client.starts == 2
        assert reply.bestmove in legal("shogi", ["7g7f"])


async def test_an_engine_that_crashes_once_is_restarted(tmp_path: Path) -> None:
    spec = EngineSpec(fake(tmp_path, "sys.exit(3)", once=True, args=("--variant", "wa-drops")))
    async with UsiClient(spec) as client:
        reply = await client.play("wa-drops", "startpos", [], movetime_ms=100)
        assert reply.restarts == 1 and client.starts == 2
        assert reply.bestmove in legal("wa-drops", [])
        first_pid = client.pid
        again = await client.play("wa-drops", "startpos", [reply.bestmove], nodes=200)
        assert again.restarts == 0 and client.pid == first_pid


async def test_an_engine_that_always_crashes_fails_the_request(tmp_path: Path) -> None:
    client = UsiClient(EngineSpec(fake(tmp_path, "sys.exit(3)"), timeout=5))
    with pytest.raises(UsiEngineError, match="exited before bestmove"):
        await client.bestmove("startpos", movetime_ms=100)
    assert client.starts == 2


async def test_a_missing_engine_program_fails_clearly(tmp_path: Path) -> None:
    client = UsiClient(EngineSpec((str(tmp_path / "no-such-engine"),)))
    with pytest.raises(UsiEngineError, match="cannot start it"):
        await client.bestmove("startpos", nodes=10)


async def test_an_illegal_answer_is_caught(tmp_path: Path) -> None:
    cheat = fake(tmp_path, 'print("bestmove 5e5d", flush=True)')
    async with UsiClient(EngineSpec(cheat, timeout=5)) as client:
        raw = await client.bestmove("startpos", movetime_ms=50)
        assert raw.bestmove == "5e5d"  # bestmove passes on what was said
        with pytest.raises(UsiEngineError, match="not a legal move"):
            await client.play("shogi", "startpos", [], movetime_ms=50)
        with pytest.raises(IllegalMoveError):  # a bad request is the caller's error
            await client.play("shogi", "startpos", ["5e5d"], movetime_ms=50)


def test_configuration_from_the_environment() -> None:
    env = {
        "KOMABOT_USI_ENGINE": "/opt/engine --threads 1",
        "KOMABOT_USI_ENGINE_WA_DROPS": "komabot usi --variant wa-drops",
        "KOMABOT_USI_OPTIONS": "USI_Hash=256; Threads=1;;",
        "KOMABOT_USI_OPTIONS_WA_DROPS": "Level=5",
        "KOMABOT_USI_TIMEOUT": "3.5",
    }
    shogi = EngineSpec.from_env("shogi", env)
    assert shogi is not None
    assert shogi.command == ("/opt/engine", "--threads", "1")
    assert shogi.options == (("USI_Hash", "256"), ("Threads", "1"))
    assert shogi.timeout == 3.5
    drops = EngineSpec.from_env("wa-drops", env)
    assert drops is not None
    assert drops.command == ("komabot", "usi", "--variant", "wa-drops")
    assert drops.options[-1] == ("Level", "5")
    assert EngineSpec.from_env("shogi", {}) is None
    assert parse_options("Book File=a=b.bin") == (("Book File", "a=b.bin"),)
    with pytest.raises(ValueError, match="is not Name=Value"):
        parse_options("USI_Hash")
    with pytest.raises(ValueError, match="KOMABOT_USI_TIMEOUT"):
        EngineSpec.from_env("shogi", {"KOMABOT_USI_ENGINE": "x", "KOMABOT_USI_TIMEOUT": "soon"})
