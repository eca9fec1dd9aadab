"""Forced mates proved with the rules core alone, for checking what the engine claims.

The attacker's moves are checks only (as in tsume problems): a line found this way is a
proof that the mate exists; ``shortest_check_mate`` also says no shorter one by checks does.
Run as a script to make new problems from random placements:
``.venv/bin/python -m tests.engine.mates VARIANT PLIES COUNT SEED``.
"""

from __future__ import annotations

import random
import sys

from rules import Move, Position, load_variant


def gives_check(pos: Position, move: Move) -> bool:
    pos.make_unchecked(move)
    try:
        return pos.is_check()
    finally:
        pos.pop()


def mating_move(pos: Position, plies: int) -> Move | None:
    """A checking move of the side to move that mates within ``plies`` (odd) plies against
    every defence, or None."""
    if plies < 1:
        return None
    for move in pos.legal_moves():
        if not gives_check(pos, move):
            continue
        pos.make_unchecked(move)
        try:
            if defence_fails(pos, plies - 1):
                return move
        finally:
            pos.pop()
    return None


def defence_fails(pos: Position, plies: int) -> bool:
    """The side to move (in check) is mated now, or after every reply within ``plies``."""
    replies = pos.legal_moves()
    if not replies:
        return True
    if plies <= 0:
        return False
    for reply in replies:
        pos.make_unchecked(reply)
        try:
            if mating_move(pos, plies - 1) is None:
                return False
        finally:
            pos.pop()
    return True


def shortest_check_mate(pos: Position, most: int) -> int | None:
    """Plies of the shortest mate by checks within ``most`` plies, or None."""
    for plies in range(1, most + 1, 2):
        if mating_move(pos, plies) is not None:
            return plies
    return None


def line_ends_in_mate(pos: Position, line: tuple[str, ...]) -> bool:
    """Playing ``line`` (each move checked legal) leaves the side to move with no move."""
    probe = pos.copy()
    for text in line:
        probe.push_usi(text)
    return not probe.legal_moves()


# --- making problems ---------------------------------------------------------------------


def _random_problem(variant_id: str, rng: random.Random) -> Position | None:
    variant = load_variant(variant_id)
    w, h = variant.files, variant.ranks
    board = ["" for _ in range(w * h)]
    king_col, king_row = rng.randrange(w), rng.randrange(2)
    board[king_row * w + king_col] = "k"
    minors = [p.letter for p in variant.pieces if not p.royal]

    def near(radius: int) -> int:
        col = min(w - 1, max(0, king_col + rng.randint(-radius, radius)))
        row = min(h - 1, max(0, king_row + rng.randint(0, radius + 1)))
        return row * w + col

    for _ in range(rng.randint(1, 4)):
        sq = near(2)
        if not board[sq]:
            board[sq] = rng.choice(minors).lower()
    for _ in range(rng.randint(1, 3)):
        sq = near(3)
        if not board[sq]:
            board[sq] = rng.choice(minors)
    hand = ""
    if variant.drops.enabled:
        unpromoted = [p.letter for p in variant.pieces if not p.royal and not p.promoted]
        hand = "".join(rng.choice(unpromoted) for _ in range(rng.randint(1, 2)))
    rows = []
    for r in range(h):
        text, empty = "", 0
        for c in range(w):
            cell = board[r * w + c]
            if cell:
                text += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(text + (str(empty) if empty else ""))
    sfen = f"{'/'.join(rows)} b {hand or '-'} 1"
    try:
        return Position.from_sfen(variant, sfen)
    except ValueError:
        return None


def make_problems(variant_id: str, plies: int, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        pos = _random_problem(variant_id, rng)
        if pos is None or not pos.legal_moves():
            continue
        if shortest_check_mate(pos, plies) == plies:
            found.append(pos.sfen())
            print(variant_id, plies, pos.sfen(), flush=True)
    return found


if __name__ == "__main__":
    make_problems(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
