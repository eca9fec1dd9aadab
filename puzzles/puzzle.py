"""One mate problem as it is stored: a line of JSON in ``data/puzzles/<variant>.jsonl``."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from puzzles.prover import Proof
from rules import SENTE

# a mate in 1 with this many checks to choose from, or a longer one whose defender has this
# many replies per turn on average, is a step harder than its length alone says
MANY_CHECKS = 8
MANY_DEFENCES = 4


@dataclass(frozen=True)
class Puzzle:
    """A proven mate problem.

    ``mate_in``: the mate's length in plies as tsume problems count it (1, 3, 5, 7...: a
    "mate in 3" is attack, defence, mating attack); ``solution``: the principal variation in
    USI (see :mod:`puzzles.prover` for the defence's choice); ``defences``: the defender's
    legal replies to the key move; ``defences_total``: summed over the line's defender turns;
    ``checks``: the checking moves the solver can choose from at the start; ``difficulty``:
    see :func:`difficulty`; ``source``: where the position comes from.
    """

    id: str
    variant: str
    sfen: str
    side: str
    mate_in: int
    solution: tuple[str, ...]
    defences: int
    defences_total: int
    checks: int
    difficulty: int
    source: str

    @property
    def grade(self) -> str:
        return f"mate-in-{self.mate_in}"

    def to_json(self) -> str:
        data: dict[str, Any] = asdict(self)
        data["solution"] = list(self.solution)
        data["grade"] = self.grade
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def puzzle_id(variant_id: str, sfen: str) -> str:
    """A name that depends on the position only: the same puzzle mined twice has one id."""
    digest = hashlib.sha256(f"{variant_id} {position_key(sfen)}".encode()).hexdigest()
    return f"{variant_id}-{digest[:10]}"


def position_key(sfen: str) -> str:
    """The SFEN without its move number: board, side, hands."""
    return " ".join(sfen.split()[:3])


def difficulty(proof: Proof, checks: int) -> int:
    """The mate's length in plies, plus one for a wide choice: a mate in 1 among at least
    ``MANY_CHECKS`` checks, or a longer mate whose defender has at least ``MANY_DEFENCES``
    replies per turn on average.  Mate in 1 is 1-2, mate in 3 is 3-4, mate in 5 is 5-6..."""
    turns = proof.plies // 2
    wide = checks >= MANY_CHECKS if turns == 0 else proof.defences_total >= MANY_DEFENCES * turns
    return proof.plies + (1 if wide else 0)


def make_puzzle(
    variant_id: str, sfen: str, side: int, proof: Proof, checks: int, source: str
) -> Puzzle:
    return Puzzle(
        id=puzzle_id(variant_id, sfen),
        variant=variant_id,
        sfen=sfen,
        side="sente" if side == SENTE else "gote",
        mate_in=proof.plies,
        solution=proof.line,
        defences=proof.defences,
        defences_total=proof.defences_total,
        checks=checks,
        difficulty=difficulty(proof, checks),
        source=source,
    )
