"""Compiled (mypyc) versions of the engine's hot modules, used only when built from these sources.

``python3 scripts/build_native`` compiles the modules in :data:`COMPILED` into ``build/native/``
(one shared library for the group, one small extension module per compiled module) and writes
``manifest.json`` there: the Python it was built for and the SHA-256 of every ``.py`` file of
the packages in :data:`PACKAGES` (compiled code is built against all of them, not only the
modules it compiles).  :func:`install` runs once, when ``rules`` is first imported: it puts a
finder first on ``sys.meta_path`` that loads the compiled modules from ``build/native/`` only
if the manifest matches the sources on disk now, exactly and for every file.  Otherwise every
module is the ``.py`` source (pure Python): after an edit the old compiled code never runs, and
one warning says why until ``scripts/build_native`` is run again.  All or nothing: compiled
modules call each other's native code directly, so a compiled module never runs next to the
pure version of another one of the group.

``KOMABOT_NATIVE=0`` turns the compiled modules off (the test suite does, so that tests may
patch module attributes).  This module imports only the standard library and is never compiled.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import shlex
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Final

log = logging.getLogger("komabot.native")

ROOT: Final = Path(__file__).resolve().parent.parent
ENV_VARIABLE: Final = "KOMABOT_NATIVE"
BUILD_DIR: Final = Path("build") / "native"  # under the repository's root
MANIFEST: Final = "manifest.json"
FORMAT: Final = 1
GROUP: Final = "komabot_native"  # mypyc group: its shared library is GROUP + "__mypyc"
PACKAGES: Final = ("rules", "engine")
# Chosen by profiling the search (bench/engine.py --profile): move generation, the search,
# evaluation, exchanges, ordering, the position's make/undo and what they call per node.
COMPILED: Final = (
    "rules.move",
    "rules.position",
    "rules.tables",
    "rules.movetables",
    "rules.movegen",
    "engine.scores",
    "engine.table",
    "engine.repetition",
    "engine.values",
    "engine.evaluation",
    "engine.exchange",
    "engine.ordering",
    "engine.tactical",
    "engine.checks",
    "engine.moves",
    "engine.mate",
    "engine.search",
)


@dataclass(frozen=True)
class Status:
    """Whether the compiled modules are in use in this process, and if not, why."""

    active: bool
    reason: str
    stale: bool = False  # a build is there but not used: worth a warning

    @property
    def summary(self) -> str:
        """One line: which code the engine runs, and why when pure Python."""
        return self.reason if self.active else f"pure Python, {self.reason}"


def source_hashes(root: Path) -> dict[str, str]:
    """SHA-256 of every ``.py`` file of :data:`PACKAGES` under ``root``, by relative path."""
    hashes: dict[str, str] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            hashes[path.relative_to(root).as_posix()] = hashlib.sha256(
                path.read_bytes()
            ).hexdigest()
    return hashes


def python_build() -> str:
    """The interpreter a build is for: its full version and extension-module suffix."""
    return f"{sys.version} {sysconfig.get_config_var('EXT_SUFFIX')}"


def manifest_for(root: Path, modules: Sequence[str]) -> dict[str, object]:
    """What ``scripts/build_native`` writes beside a build of ``modules`` from ``root``."""
    return {
        "format": FORMAT,
        "python": python_build(),
        "group": GROUP,
        "modules": list(modules),
        "sources": source_hashes(root),
    }


def _difference(manifest: object, root: Path) -> str | None:
    """Why ``manifest`` does not describe a build of the sources under ``root``; None if it
    does."""
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return "its manifest is of another format"
    if manifest.get("python") != python_build():
        return "it was built for another Python"
    if manifest.get("group") != GROUP or manifest.get("modules") != list(COMPILED):
        return "it compiled other modules"
    built = manifest.get("sources")
    now = source_hashes(root)
    if not isinstance(built, dict):
        return "its manifest lists no sources"
    changed = sorted(name for name in built.keys() | now.keys() if built.get(name) != now.get(name))
    if changed:
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        return f"{changed[0]}{more} changed since it was built"
    return None


def _module_files(build: Path) -> dict[str, Path] | str:
    """The extension file of each compiled module and of the group's library, or what is
    missing."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    files = {GROUP + "__mypyc": build / f"{GROUP}__mypyc{suffix}"}
    for name in COMPILED:
        files[name] = build.joinpath(*name.split(".")).with_name(name.split(".")[-1] + suffix)
    missing = [name for name, path in files.items() if not path.is_file()]
    return f"{missing[0]} is missing from it" if missing else files


def missing_compiler() -> str | None:
    """What this machine lacks to compile C extensions for this Python (None: nothing); the
    same answer in the virtual environment and in the Python that made it."""
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not cc or shutil.which(cc[0]) is None:
        return "no C compiler (install gcc or clang)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no C headers of this Python (Debian: python3-dev)"
    return None


def missing_build_tools() -> str | None:
    """What ``scripts/build_native`` lacks here, in this environment, to compile (None:
    nothing)."""
    missing = missing_compiler()
    if missing is not None:
        return missing
    for module in ("mypyc", "setuptools"):
        if importlib.util.find_spec(module) is None:
            return f"no {module} (pip install -e '.[native]' installs it)"
    return None


def built_files(root: Path) -> dict[str, Path] | Status:
    """The files of the build under ``root`` when it was built from the sources there now,
    for this Python, and is complete; else why it cannot be used (a :class:`Status`)."""
    build = root / BUILD_DIR
    try:
        manifest = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Status(False, "not built (python3 scripts/build_native builds them)")
    except (OSError, ValueError) as exc:
        return _stale(f"its manifest cannot be read ({exc})")
    try:
        reason = _difference(manifest, root)
    except OSError as exc:  # a source that cannot be read now
        reason = f"the sources cannot be read ({exc})"
    if reason is not None:
        return _stale(reason)
    files = _module_files(build)
    return _stale(files) if isinstance(files, str) else files


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and their group's library) in a checked build."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


_status: Status | None = None


def _activate(root: Path) -> Status:
    setting = os.environ.get(ENV_VARIABLE, "1")
    if setting == "0":
        return Status(False, f"turned off ({ENV_VARIABLE}=0)")
    if setting != "1":
        log.warning("%s must be 0 or 1, not %r: taken as 1", ENV_VARIABLE, setting)
    build = root / BUILD_DIR
    files = built_files(root)
    if isinstance(files, Status):
        return files
    early = [name for name in COMPILED if name in sys.modules]
    if early:
        return _stale(f"{early[0]} was imported before the compiled modules could be set up")
    finder = _CompiledFinder(files)
    sys.meta_path.insert(0, finder)
    try:
        importlib.import_module(GROUP + "__mypyc")
    except Exception as exc:  # whatever a broken library raises: pure Python, never a crash
        sys.meta_path.remove(finder)
        return _stale(f"it cannot be loaded ({exc})")
    return Status(True, f"compiled modules from {build}")


def _stale(reason: str) -> Status:
    return Status(False, f"the build in {BUILD_DIR} is not used: {reason}", stale=True)


def install() -> Status:
    """Use the compiled modules if they were built from exactly these sources (once a
    process; later calls return the first answer)."""
    global _status
    if _status is None:
        _status = _activate(ROOT)
        if _status.stale:
            log.warning("engine: %s; rebuild with python3 scripts/build_native", _status.summary)
        else:
            log.debug("engine: %s", _status.summary)
    return _status


install()
