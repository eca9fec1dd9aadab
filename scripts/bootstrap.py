"""Create the project's virtual environment and keep it in step with pyproject.toml.

Used by ``scripts/run`` and ``scripts/test`` so that a fresh machine with only Python 3.11+
needs nothing else.  The environment lives in ``.venv`` (or ``$KOMABOT_VENV``) and is
reinstalled only when ``pyproject.toml`` changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def venv_dir() -> Path:
    return Path(os.environ.get("KOMABOT_VENV", ROOT / ".venv"))


def venv_bin(name: str) -> Path:
    sub = "Scripts" if os.name == "nt" else "bin"
    return venv_dir() / sub / name


def ensure_env(extra: str | None, out: IO[str] | None = None) -> None:
    """Create the venv if missing and install the project (with ``extra``) when out of date;
    what it prints goes to ``out`` (default: standard output); a failed install raises
    CalledProcessError."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may run under an older python3
        sys.exit(f"Komabot needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    target = venv_dir()
    if not venv_bin("python").exists():
        print(f"Creating virtual environment in {target} ...", file=out, flush=True)
        venv.EnvBuilder(with_pip=True).create(target)
    spec = f".[{extra}]" if extra else "."
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + spec.encode()).hexdigest()
    stamp = target / f".komabot-installed-{extra or 'base'}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    print(f"Installing Komabot and its dependencies ({spec}) ...", file=out, flush=True)
    pip = [str(venv_bin("python")), "-m", "pip", "--disable-pip-version-check"]
    for args in (["--upgrade", "pip"], ["-e", spec]):
        subprocess.run(
            [*pip, "install", "--quiet", *args], check=True, cwd=ROOT, stdout=out, stderr=out
        )
    stamp.write_text(digest)


def run(args: list[str]) -> int:
    return subprocess.run(args, cwd=ROOT).returncode
