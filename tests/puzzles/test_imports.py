"""The prover stands on the rules core alone; the rest of ``puzzles`` adds the engine (for
self-play) and nothing of the bot or the platforms."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.test_layering import imported_roots

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
STANDARD = set(sys.stdlib_module_names) | {"__future__"}


def test_the_prover_imports_only_the_rules_core() -> None:
    assert imported_roots(PUZZLES / "prover.py") - STANDARD == {"rules"}


def test_the_package_imports_rules_engine_and_itself_only() -> None:
    for path in sorted(PUZZLES.rglob("*.py")):
        assert imported_roots(path) - STANDARD <= {"rules", "engine", "puzzles"}, path.name
