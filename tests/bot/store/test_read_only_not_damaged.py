"""A database Komabot may not write (a folder it cannot write, a file it may not read) is told
apart from a damaged one: the message says read-only or permissions, never "restore it from a
backup" (an operator could overwrite a good file with an old one).

The real file system decides, so ``komabot`` runs as an unprivileged user (``setpriv``) when the
tests run as root, whom the mode bits do not stop."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script
NOBODY = 65534
GAME = ["@alice /challenge @bob shogi sente", "@bob /accept", "@alice /move 7g7f"]

if os.geteuid() == 0 and shutil.which("setpriv") is None:
    pytest.skip("running as root without setpriv to drop privileges", allow_module_level=True)


def komabot(folder: Path, lines: list[str], *, as_nobody: bool) -> subprocess.CompletedProcess[str]:
    prefix = []
    if as_nobody and os.geteuid() == 0:
        prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    return subprocess.run(
        [*prefix, sys.executable, "-c", ENTRY, "console", "--quiet"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={
            **os.environ,
            "HOME": str(folder),
            "DISCORD_TOKEN": "",
            "TELEGRAM_TOKEN": "",
            "KOMABOT_DB": str(folder / "g.db"),
            "KOMABOT_CONSOLE_OUT": str(folder / "out"),
            "PYTHONDONTWRITEBYTECODE": "1",
        },
        timeout=120,
    )


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder the unprivileged user can reach (pytest's own are private to their owner)."""
    made = Path(tempfile.mkdtemp(prefix="komabot-ro-"))
    made.chmod(0o755)
    try:
        yield made
    finally:
        made.chmod(0o755)
        shutil.rmtree(made)


def with_a_game(folder: Path) -> bytes:
    done = komabot(folder, GAME, as_nobody=False)
    assert "alice played" in done.stdout, done.stderr
    (folder / "out").chmod(0o777)
    return (folder / "g.db").read_bytes()


def assert_not_called_damaged(stderr: str) -> None:
    for wrong in ("is damaged", "backup", ".recover"):
        assert wrong not in stderr, stderr
    assert "Traceback" not in stderr, stderr


def test_a_database_in_a_folder_komabot_cannot_write_is_not_called_damaged(
    folder: Path,
) -> None:
    before = with_a_game(folder)
    (folder / "g.db").chmod(0o444)
    folder.chmod(0o555)
    done = komabot(folder, ["@alice /board"], as_nobody=True)
    assert_not_called_damaged(done.stderr)
    said = done.stderr + done.stdout
    assert f"the folder {folder} is read-only" in said, said
    assert (folder / "g.db").read_bytes() == before


def test_a_database_komabot_may_not_read_is_a_permission_problem(folder: Path) -> None:
    before = with_a_game(folder)
    (folder / "g.db").chmod(0o600)
    done = komabot(folder, ["@alice /board"], as_nobody=True)
    assert done.returncode != 0
    assert_not_called_damaged(done.stderr)
    assert "permission" in done.stderr.lower(), done.stderr
    assert (folder / "g.db").read_bytes() == before
