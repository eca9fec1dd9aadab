"""Random legal games for record tests (seeded; the seed is in every failure message)."""

from __future__ import annotations

import random

from rules import Position, load_variant


def random_game(
    variant_id: str, seed: int, max_plies: int = 150, sfen: str | None = None
) -> list[str]:
    """USI moves of a random game that favours captures, drops and promotions."""
    rng = random.Random(seed)
    variant = load_variant(variant_id)
    pos = Position.from_sfen(variant, sfen) if sfen else Position.start(variant)
    moves: list[str] = []
    for _ in range(rng.randint(max_plies // 3, max_plies)):
        legal = pos.legal_moves()
        if not legal or pos.outcome() is not None:
            break
        lively = [m for m in legal if m.drop or m.promote or pos.board[m.to_sq]]
        move = rng.choice(lively if lively and rng.random() < 0.6 else legal)
        moves.append(pos.usi(move))
        pos.push(move)
    return moves
