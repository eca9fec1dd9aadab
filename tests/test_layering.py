"""Imports flow one way: rules <- render, engine <- bot; rules, render and engine stay free of
platforms, and the engine imports nothing but the rules core and the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "rules": {"render", "bot", "discord", "telegram", "PIL", "aiosqlite", "sqlite3", "aiohttp"},
    "render": {"bot", "discord", "telegram", "aiosqlite", "sqlite3", "aiohttp"},
    "engine": {"render", "bot", "discord", "telegram", "PIL", "aiosqlite", "sqlite3", "aiohttp"},
}
# What each package may import at all, besides the standard library.
ALLOWED = {"engine": {"engine", "rules"}}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_stay_in_their_layer(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        hits = imported_roots(path) & FORBIDDEN[package]
        if hits:
            bad.append(f"{path.relative_to(ROOT)} imports {sorted(hits)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_it_may(package: str) -> None:
    allowed = ALLOWED[package] | set(sys.stdlib_module_names) | {"__future__"}
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        hits = imported_roots(path) - allowed
        if hits:
            bad.append(f"{path.relative_to(ROOT)} imports {sorted(hits)}")
    assert not bad, "\n".join(bad)


def test_front_ends_hold_no_rules_logic() -> None:
    """Front ends talk to bot.core only; they never import the rules engine's internals."""
    internals = {"rules.movegen", "rules.position", "rules.tables"}
    bad = []
    for path in sorted((ROOT / "bot").glob("*_front*")):
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            tree = ast.parse(file.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module in internals:
                    bad.append(f"{file.relative_to(ROOT)} imports {node.module}")
    assert not bad, "\n".join(bad)
