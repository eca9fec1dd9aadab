"""The shape of ``bot``: no import cycle among its modules, no import inside a function in the
game service (``bot/core``), and no module of the service longer than about 400 lines."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
CORE = BOT / "core"
MAX_LINES = 400
CATALOGUES = {"messages.py", "messages_ru.py", "messages_ja.py", "messages_pl.py"}


def module_name(path: Path) -> str:
    parts = path.relative_to(BOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``bot`` that ``path`` imports (``from a import b`` counts ``a.b`` when
    that is a module, else ``a``); imports under ``if TYPE_CHECKING`` count too."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import"  # bot imports absolutely
            base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    found.add(sub)
                elif base in modules:
                    found.add(base)
    return found


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import cycles of ``graph`` (module -> modules it imports), each as a path back to its
    first module; at least one per strongly connected group of modules."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                cycles.append([*path[path.index(n) :], n])
            elif n not in state:
                visit(n, [*path, n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return cycles


def test_no_import_cycle_among_the_modules_of_bot() -> None:
    paths = {module_name(p): p for p in BOT.rglob("*.py")}
    modules = set(paths)
    graph = {m: imports_of(p, modules) - {m} for m, p in paths.items()}
    assert len(graph) > 60 and sum(map(len, graph.values())) > 150  # the graph was read
    assert graph["bot.core.service"] >= {"bot.core.games", "bot.core.handlers.playing"}
    assert find_cycles(graph) == []


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": {"e"}}
    assert sorted(map(tuple, find_cycles(graph))) == [("a", "b", "c", "a"), ("e", "e2", "e")]
    assert find_cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_the_service_imports_at_module_level_only() -> None:
    inside: list[str] = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        inside.append(f"{path.relative_to(CORE)}:{inner.lineno}")
    assert inside == []


def test_the_service_modules_are_small() -> None:
    long = {
        str(p.relative_to(CORE)): n
        for p in CORE.rglob("*.py")
        if p.name not in CATALOGUES
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
