"""The mate problems the bot offers: the shipped collections (``data/puzzles``), read once,
and the choice of a puzzle near a player's puzzle rating."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from pathlib import Path

from puzzles.collection import DATA_DIR, CollectionError, load
from puzzles.puzzle import Puzzle

SEED_BASE = 1000.0
SEED_STEP = 125.0
"""A puzzle nobody played yet is rated by its collection grade: difficulty 1 (an easy mate in
1) 1000, each step harder 125 more (difficulty 8, a wide mate in 7: 1875)."""
SEED_DEVIATION = 200.0
NEAREST = 5
"""``pick`` chooses at random among this many unseen puzzles nearest the player's level."""


def seed_rating(puzzle: Puzzle) -> tuple[float, float]:
    """The rating and deviation of a puzzle before anyone played it."""
    return SEED_BASE + SEED_STEP * (puzzle.difficulty - 1), SEED_DEVIATION


def level_of(rating: float, deviation: float) -> float:
    """The puzzle rating to offer a player: their rating, less half its uncertainty (a new
    player, 1500 ± 350, gets puzzles near 1325: a mate in 3 or a hard mate in 1)."""
    return rating - deviation / 2


class PuzzleBook:
    """Every puzzle of the collections in ``data_dir``, by variant and by id (read when first
    needed; a variant without a file has none)."""

    def __init__(self, data_dir: Path = DATA_DIR) -> None:
        self.data_dir = data_dir
        self._by_variant: dict[str, list[Puzzle]] = {}
        self._by_id: dict[str, Puzzle] = {}

    def of_variant(self, variant: str) -> list[Puzzle]:
        if variant not in self._by_variant:
            path = self.data_dir / f"{variant}.jsonl"
            try:
                found = load(path) if path.exists() else []
            except CollectionError:
                found = []  # a damaged file offers nothing rather than stopping the bot
            found = [p for p in found if p.variant == variant]
            self._by_variant[variant] = found
            self._by_id.update((p.id, p) for p in found)
        return self._by_variant[variant]

    def get(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle called ``puzzle_id`` (``<variant>-<hex>``), or None."""
        variant = puzzle_id.rsplit("-", 1)[0]
        self.of_variant(variant)
        return self._by_id.get(puzzle_id)

    def pick(
        self,
        variant: str,
        level: float,
        done: Collection[str],
        ratings: Mapping[str, tuple[float, float]],
        rng: random.Random,
    ) -> Puzzle | None:
        """A puzzle of ``variant`` near ``level``: one of the :data:`NEAREST` nearest among
        those not ``done`` (when every one is done, among all); None when there are none.
        ``ratings``: the puzzles' ratings as results moved them (else :func:`seed_rating`)."""
        every = self.of_variant(variant)
        fresh = [p for p in every if p.id not in done] or every
        if not fresh:
            return None

        def distance(p: Puzzle) -> tuple[float, str]:
            return abs(self.rating_of(p, ratings) - level), p.id

        nearest = sorted(fresh, key=distance)[:NEAREST]
        return rng.choice(nearest)

    def rating_of(self, puzzle: Puzzle, ratings: Mapping[str, tuple[float, float]]) -> float:
        return ratings.get(puzzle.id, seed_rating(puzzle))[0]
