"""The shipped collections: ``data/puzzles/<variant>.jsonl``, one puzzle a line.

:func:`load` reads a file and says exactly which line is wrong and why; :func:`check` proves
a puzzle again from its position alone and compares with what the file says.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from puzzles.prover import DEFAULT_NODE_LIMIT, Verdict, checking_moves, prove
from puzzles.puzzle import Puzzle, difficulty, puzzle_id
from rules import Position, RulesError, load_variant

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "puzzles"

_FIELDS: dict[str, type] = {
    "id": str,
    "variant": str,
    "sfen": str,
    "side": str,
    "mate_in": int,
    "solution": list,
    "defences": int,
    "defences_total": int,
    "checks": int,
    "difficulty": int,
    "source": str,
}


class CollectionError(ValueError):
    """A puzzle file that cannot be read, or a puzzle that does not hold."""


def collection_path(variant_id: str) -> Path:
    return DATA_DIR / f"{variant_id}.jsonl"


def parse_line(text: str, where: str) -> Puzzle:
    """One puzzle from its JSON line; CollectionError naming ``where`` and the problem."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CollectionError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise CollectionError(f"{where}: expected a JSON object")
    for name, kind in _FIELDS.items():
        value = data.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CollectionError(f"{where}: field {name!r} missing or not a {kind.__name__}")
    if not all(isinstance(m, str) for m in data["solution"]):
        raise CollectionError(f"{where}: field 'solution' must list USI moves")
    return Puzzle(
        id=data["id"],
        variant=data["variant"],
        sfen=data["sfen"],
        side=data["side"],
        mate_in=data["mate_in"],
        solution=tuple(data["solution"]),
        defences=data["defences"],
        defences_total=data["defences_total"],
        checks=data["checks"],
        difficulty=data["difficulty"],
        source=data["source"],
    )


def load(path: Path) -> list[Puzzle]:
    """Every puzzle of a file (read only, not proven: see :func:`check`)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CollectionError(f"{path}: cannot read ({exc})") from None
    return [
        parse_line(line, f"{path.name} line {n}") for n, line in enumerate(lines, 1) if line.strip()
    ]


def dump(puzzles: Iterable[Puzzle]) -> str:
    """The file's text: one JSON line a puzzle, in the order given."""
    return "".join(p.to_json() + "\n" for p in puzzles)


def check(puzzle: Puzzle, node_limit: int = DEFAULT_NODE_LIMIT) -> list[str]:
    """What is wrong with a puzzle, proven again from its SFEN (empty: nothing)."""
    try:
        variant = load_variant(puzzle.variant)
        pos = Position.from_sfen(variant, puzzle.sfen)
    except RulesError as exc:
        return [f"bad variant or SFEN: {exc}"]
    problems = []
    if puzzle.id != puzzle_id(variant.id, puzzle.sfen):
        problems.append(
            f"id {puzzle.id} is not the position's ({puzzle_id(variant.id, puzzle.sfen)})"
        )
    side = "sente" if pos.side == 0 else "gote"
    if puzzle.side != side:
        problems.append(f"side is {puzzle.side} but {side} is to move")
    proof = prove(pos, max(puzzle.mate_in, 1), node_limit)
    if proof.verdict is not Verdict.MATE:
        found = f" (first moves: {', '.join(proof.key_moves)})" if proof.key_moves else ""
        return [
            *problems,
            f"not proven a unique mate in {puzzle.mate_in}: {proof.verdict.value}{found}",
        ]
    expected = {
        "mate_in": (puzzle.mate_in, proof.plies),
        "solution": (puzzle.solution, proof.line),
        "defences": (puzzle.defences, proof.defences),
        "defences_total": (puzzle.defences_total, proof.defences_total),
        "checks": (puzzle.checks, len(checking_moves(pos))),
    }
    for name, (stored, proven) in expected.items():
        if stored != proven:
            problems.append(f"{name} is {stored!r} but the proof gives {proven!r}")
    grade = difficulty(proof, len(checking_moves(pos)))
    if puzzle.difficulty != grade:
        problems.append(f"difficulty is {puzzle.difficulty} but the proof gives {grade}")
    return problems
