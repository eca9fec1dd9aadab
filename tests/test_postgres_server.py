"""The throw-away PostgreSQL server of the tests: what a session finds left over by another."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.postgres_server import NOT_INSTALLED, PostgresServer, find_binaries, stop_abandoned


def a_finished_process() -> int:
    """The PID of a process that has exited."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def test_a_server_left_by_a_dead_session_whose_postmaster_is_gone_is_deleted() -> None:
    """After a reboot or a killed container the folder of a dead session still names a
    postmaster in postmaster.pid that no longer runs: pg_ctl cannot stop it, and the next
    session must delete the folder instead of failing every PostgreSQL test."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(NOT_INSTALLED)
    server = PostgresServer.start(binaries)
    try:
        pid_file = server.data / "postmaster.pid"
        lines = pid_file.read_text().splitlines(keepends=True)
        server.pause()
        pid_file.write_text(str(a_finished_process()) + "\n" + "".join(lines[1:]))
        os.chmod(pid_file, 0o644)
        (server.folder / "owner").write_text(str(a_finished_process()))
        stop_abandoned(binaries)
        assert not server.folder.exists()
    finally:
        server.stop()


def test_a_server_of_a_running_session_is_left_alone() -> None:
    binaries = find_binaries()
    if binaries is None:
        pytest.skip(NOT_INSTALLED)
    server = PostgresServer.start(binaries)
    try:
        stop_abandoned(binaries)
        assert (server.data / "postmaster.pid").exists()
    finally:
        server.stop()
