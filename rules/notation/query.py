"""What a move text says, before it is matched against the legal moves."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Style(Enum):
    """A notation family: how moves are read from and printed for one person."""

    USI = "usi"
    WESTERN = "western"
    JAPANESE = "japanese"


@dataclass(frozen=True)
class MoveQuery:
    """The facts a move text gives; ``None`` means the text did not say."""

    text: str
    style: Style
    dest: int
    kinds: frozenset[int] | None = None  # the piece named (several for a shared Wa name)
    preferred: frozenset[int] | None = None  # of those, the kind whose own name it is
    origin: int | None = None
    drop: bool | None = None  # True: 打 / *; False: said to be a board move
    promote: bool | None = None  # True: + / 成; False: = / 不成
    capture: bool | None = None  # True: x
    direction: str = ""  # Japanese 上 引 寄 直 (行 is read as 上)
    side: str = ""  # Japanese 右 or 左
    same_square: bool = False  # written with 同
