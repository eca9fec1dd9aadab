"""The throw-away PostgreSQL server of the tests: what a session finds left over by another."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.postgres_server import PostgresServer, stop_abandoned


def a_finished_process() -> int:
    """The PID of a process that has exited."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def test_a_server_left_by_a_dead_session_whose_postmaster_is_gone_is_deleted(
    own_server: PostgresServer,
) -> None:
    """After a reboot or a killed container the folder of a dead session still names a
    postmaster in postmaster.pid that no longer runs: pg_ctl cannot stop it, and the next
    session must delete the folder instead of failing every PostgreSQL test."""
    pid_file = own_server.data / "postmaster.pid"
    lines = pid_file.read_text().splitlines(keepends=True)
    own_server.pause()
    dead = str(a_finished_process())
    pid_file.write_text(dead + "\n" + "".join(lines[1:]))
    os.chmod(pid_file, 0o644)
    (own_server.folder / "owner").write_text(dead)
    stop_abandoned(own_server.binaries)
    assert not own_server.folder.exists()


def test_a_server_of_a_running_session_is_left_alone(own_server: PostgresServer) -> None:
    stop_abandoned(own_server.binaries)
    assert (own_server.data / "postmaster.pid").exists()
