"""Commands given endless or absurd input stop at once with one line: ``komabot import`` reads
at most its size limit plus one byte (of ``/dev/zero`` too), ``perft`` refuses a depth it
could never finish."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from rules.perft import MAX_DEPTH

ROOT = Path(__file__).resolve().parents[3]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script
MEMORY = 1 << 30  # a process that reads /dev/zero to its end passes this at once


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def komabot(args: list[str], stdin: object = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        stdin=stdin,  # type: ignore[arg-type]
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        preexec_fn=limited,
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_importing_an_endless_file_reads_only_past_the_limit() -> None:
    done = komabot(["import", "/dev/zero"])
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "too large" in done.stderr, done.stderr
    with open("/dev/zero", "rb") as zero:
        piped = komabot(["import", "-"], stdin=zero)
    assert piped.returncode == 2 and "too large" in piped.stderr, piped.stderr


def test_importing_a_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("depth", ["99999999999", str(MAX_DEPTH + 1), "0", "-3"])
def test_perft_refuses_a_depth_it_cannot_search(
    depth: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", "--variant", "shogi", "--depth", depth]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"1 to {MAX_DEPTH}" in err, err


def test_perft_searches_up_to_its_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", "shogi", "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "900"
