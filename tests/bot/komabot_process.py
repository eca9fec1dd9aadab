"""A real ``komabot`` process for tests of several processes side by side."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def wait_listening(port: int, timeout: float = 60) -> None:
    """Wait until something accepts connections on 127.0.0.1:``port``."""
    async with asyncio.timeout(timeout):
        while True:
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.1)
                continue
            writer.close()
            await writer.wait_closed()
            return


class Komabot:
    """A running ``komabot`` process."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.terminated = False
        self.killed = False

    def kill(self) -> None:
        """Kill it (SIGKILL), as a crash or an out-of-memory killer would: no clean exit."""
        self.proc.kill()
        self.killed = True

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM), once: it finishes what it has received, then exits."""
        if not self.terminated and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        self.terminated = True


@contextlib.asynccontextmanager
async def komabot(*args: str, env: dict[str, str]) -> AsyncIterator[Komabot]:
    """``komabot ARGS`` with ``env`` added to this environment (and no KOMABOT_DB from it); at
    the end stopped by SIGTERM, which it must survive cleanly: exit status 0, no traceback
    (unless the test killed it)."""
    full = {**os.environ, **env}
    if "KOMABOT_DB" not in env:
        full.pop("KOMABOT_DB", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))",
        *args,
        env=full,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    running = Komabot(proc)
    try:
        yield running
    finally:
        running.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    if running.killed:
        return
    log = err.decode(errors="replace")
    assert proc.returncode == 0, log
    assert "Traceback" not in log, log
