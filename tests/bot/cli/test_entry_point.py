"""The ``komabot`` entry point itself (bot/cli/__init__.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# What the installed ``komabot`` script runs.
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"


@pytest.mark.parametrize(
    "argv", [["moves"], ["variants"], ["perft", "--depth", "2", "--divide"]], ids=" ".join
)
def test_a_reader_that_goes_away_ends_the_command_quietly(argv: list[str]) -> None:
    """``komabot moves | head -1``: no BrokenPipeError traceback, whichever command wrote."""
    process = subprocess.Popen(
        [sys.executable, "-c", ENTRY, *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the first line is written
    err = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == 1
    assert err == ""
