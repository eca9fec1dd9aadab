"""The configuration and the store import each other in one direction only: the store reads the
configuration, the configuration never imports the store, by any import (at the top of a
module, inside a function, or for type checking only)."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Every import between the modules of ``package`` (module -> the modules it imports),
    wherever in a module it is written."""
    paths = {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        package_of = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package_of.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            for target in targets:
                if target in paths and target != name:
                    graph[name].add(target)
                    break
    return graph


def in_store(module: str) -> bool:
    return module == "bot.store" or module.startswith("bot.store.")


def reached_from(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_the_configuration_imports_nothing_of_the_store() -> None:
    reached = reached_from(import_graph("bot"), "bot.config")
    assert not {m for m in reached if in_store(m)}, sorted(reached)


def test_the_configuration_and_the_store_are_in_no_import_cycle() -> None:
    graph = import_graph("bot")
    part = {m: graph[m] & {n for n in graph if in_store(n) or n == "bot.config"} for m in graph}
    part = {m: targets for m, targets in part.items() if in_store(m) or m == "bot.config"}
    graphlib.TopologicalSorter(part).prepare()  # CycleError names a cycle
