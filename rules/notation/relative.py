"""Japanese relative-position words: which of several like pieces moves.

From the mover's side of the board: 上 the piece moves forward, 引 backward, 寄 sideways,
直 straight forward; 右 / 左 the piece standing furthest right / left among the candidates.
When printing, pieces that move every way and slide (dragon 龍, horse 馬) are told apart by
上 / 引 / 寄 and then 右 / 左, never 直, as the Japan Shogi Association's rules have it.
"""

from __future__ import annotations

from rules.move import Move
from rules.notation.squares import forward, rightness
from rules.variant import PieceType

DIRECTIONS = ("上", "引", "寄", "直")
# Tried in this order when printing; the first that singles out the move is used.
MARK_ORDER = ("上", "引", "寄", "直", "右", "左", "右上", "右引", "右寄", "左上", "左引", "左寄")


def apply_marks(color: int, files: int, moves: list[Move], direction: str, side: str) -> list[Move]:
    """The board moves among ``moves`` that fit the words ``direction`` and ``side``."""
    out = [m for m in moves if not m.is_drop]
    if direction:
        out = [m for m in out if _fits(color, files, m, direction)]
    if side and out:
        score = {m.from_sq: rightness(color, m.from_sq, files) for m in out}
        best = max(score.values()) if side == "右" else min(score.values())
        out = [m for m in out if score[m.from_sq] == best]
    return out


def _fits(color: int, files: int, m: Move, direction: str) -> bool:
    ahead = forward(color, m.from_sq, m.to_sq, files)
    if direction == "上":
        return ahead > 0
    if direction == "引":
        return ahead < 0
    if direction == "寄":
        return ahead == 0
    return ahead > 0 and m.from_sq % files == m.to_sq % files  # 直


def uses_straight(piece: PieceType) -> bool:
    """May 直 be written for this piece? Not for one that moves every way and slides."""
    steps = {(dx, dy) for dx, dy in piece.moves.leaps if max(abs(dx), abs(dy)) == 1}
    steps |= {vec for vec, _ in piece.moves.rides}
    return not (len(steps) == 8 and piece.moves.rides)


def marks_for(
    color: int, files: int, move: Move, rivals: list[Move], straight: bool = True
) -> str | None:
    """The shortest words that single out ``move`` among ``rivals`` (same piece, same
    destination, other origins), "" when there are no rivals, None when no words suffice."""
    if not rivals:
        return ""
    pool = [move, *rivals]
    for marks in MARK_ORDER:
        if marks == "直" and not straight:
            continue
        direction = "".join(c for c in marks if c in DIRECTIONS)
        side = "".join(c for c in marks if c in "右左")
        hits = {m.from_sq for m in apply_marks(color, files, pool, direction, side)}
        if hits == {move.from_sq}:
            return marks
    return None
