"""The miner's settings (``puzzles.miner``), apart from the miner: ``komabot puzzles build
--help`` shows their defaults without importing the engine."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MiningSettings:
    """``max_plies``: the longest mate looked for (odd); ``node_limit``: the prover's budget
    per position; ``level`` and ``engine_nodes``: the self-play engine's strength and budget
    per move; ``max_game_plies``: a self-play game stops there undecided; ``tail_plies``:
    the self-play game's last plies searched for the winner's mates; ``per_game``: the most
    puzzles kept from one game or record (a mate's neighbours are many)."""

    max_plies: int = 7
    node_limit: int = 3_000
    level: int = 3
    engine_nodes: int = 300
    max_game_plies: int = 300
    tail_plies: int = 9
    per_game: int = 10
