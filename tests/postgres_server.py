"""A throw-away PostgreSQL server for tests and benchmarks, from the machine's binaries.

It lives in a temporary folder, listens only on a Unix socket there (no port to clash with),
runs without fsync (its data is thrown away), and is stopped and deleted by :meth:`stop`.
``initdb`` refuses to run as root: as root the server runs as the ``postgres`` user, which owns
the folder.  :func:`find_binaries` says where PostgreSQL is, or None where it is not installed.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import asyncpg

REQUIRE_VARIABLE = "KOMABOT_REQUIRE_POSTGRES"
"""Set to 1 (as CI does) to fail, not skip, the PostgreSQL tests where no server is installed."""
BINARIES_VARIABLE = "KOMABOT_POSTGRES_BIN"
"""The folder of ``initdb`` and ``pg_ctl`` when they are elsewhere (Homebrew, a build)."""

NOT_INSTALLED = (
    "PostgreSQL is not installed (no initdb and pg_ctl in KOMABOT_POSTGRES_BIN, on PATH or "
    "under /usr/lib/postgresql/*/bin); see README, 'Running at scale'"
)


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (KOMABOT_POSTGRES_BIN, else on PATH, else
    the newest version's under /usr/lib/postgresql), or None."""
    named = os.environ.get(BINARIES_VARIABLE)
    if named:
        folder = Path(named)
        return folder if (folder / "initdb").exists() and (folder / "pg_ctl").exists() else None
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent  # beside the real binary (Debian links them)
    found = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")),
        key=lambda folder: [int(x) for x in folder.parent.name.split(".") if x.isdigit()],
    )
    found = [folder for folder in found if (folder / "pg_ctl").exists()]
    return found[-1] if found else None


PREFIX = "komabot-pg-"


def stop_abandoned(binaries: Path) -> None:
    """Stop and delete the servers of test sessions that died without stopping theirs (killed,
    or a crash of the interpreter); those of sessions still running are left alone."""
    for owner in Path(tempfile.gettempdir()).glob(f"{PREFIX}*/owner"):
        try:
            os.kill(int(owner.read_text()), 0)
            continue  # its session is still running
        except ProcessLookupError:
            pass
        except (ValueError, OSError):
            continue
        try:
            owner.unlink()  # the claim: of two sessions starting at once, one cleans up
        except FileNotFoundError:
            continue
        # Its server may be gone too (a reboot, a killed container): pg_ctl cannot stop it,
        # and stop() deletes the folder all the same.
        with contextlib.suppress(RuntimeError):
            PostgresServer(binaries, owner.parent).stop()


@dataclass
class PostgresServer:
    """A running throw-away server; :meth:`new_database` gives each user a database."""

    binaries: Path
    folder: Path
    port: int = 5432

    @classmethod
    def start(cls, binaries: Path) -> PostgresServer:
        stop_abandoned(binaries)
        folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        (folder / "owner").write_text(str(os.getpid()))
        server = cls(binaries, folder)
        try:
            if os.geteuid() == 0:
                shutil.chown(folder, "postgres", "postgres")
            server._run("initdb", "-D", str(server.data), "-U", "postgres", "-A", "trust",
                        "-E", "UTF8", "--locale=C", "--no-sync")  # fmt: skip
            server.resume()
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return server

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    async def new_database(self) -> str:
        """Create an empty database; its URL."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        con = await asyncpg.connect(self.url())
        try:
            await con.execute(f"CREATE DATABASE {name}")
        finally:
            await con.close()
        return self.url(name)

    def resume(self) -> None:
        """Start the server (again, after :meth:`pause`) on its data folder."""
        options = (
            f"-k {self.folder} -c listen_addresses='' -p {self.port} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "server.log"), "-w", "-t", "30", "start")  # fmt: skip

    def pause(self) -> None:
        """Stop the server, keeping its data (an outage): connections break, new ones are
        refused until :meth:`resume`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.binaries / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {(done.stderr or done.stdout).strip()}"
            )
