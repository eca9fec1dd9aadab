"""Handicap games (駒落ち): a variant's start position without some of gote's pieces.

The stronger player (uwate) gives the handicap: plays gote without the pieces on the squares a
variant file's ``[handicaps.ID]`` lists (``remove``), and moves first.  Each handicap's start
SFEN is computed from the variant's start position, never written by hand; loading a variant
checks that every listed square holds one of gote's pieces, and not its king.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.arrays import plain
from rules.errors import RulesError
from rules.position import Position
from rules.tables import GOTE

if TYPE_CHECKING:
    from rules.variant import Variant


@dataclass(frozen=True)
class HandicapSpec:
    """One ``[handicaps.ID]`` table as read (squares as written, in USI: ``1a``)."""

    id: str
    remove: tuple[str, ...]
    names: Mapping[str, str]


@dataclass(frozen=True)
class Handicap:
    """A handicap of a variant: its id, names and start position."""

    id: str
    names: Mapping[str, str]
    removed: tuple[str, ...]
    """The squares (USI) whose gote pieces the handicap gives away."""
    sfen: str
    """The start position: gote to move, without the removed pieces."""


class HandicapError(RulesError):
    """A handicap of a variant file that cannot be built: its ``remove`` list is wrong."""

    code = "bad_handicap"


def build_handicap(variant: Variant, spec: HandicapSpec) -> Handicap:
    """The handicap ``spec`` of ``variant``; HandicapError names the bad square."""
    pos = Position.start(variant)
    if pos.side == GOTE:
        raise HandicapError("the variant's start position already has gote to move")
    board = plain(pos.board)
    if not spec.remove:
        raise HandicapError("lists no square")
    for text in spec.remove:
        try:
            sq = variant.tables.parse_square(text)
        except RulesError as exc:
            raise HandicapError(exc.message) from None
        piece = board[sq]
        if piece >= 0:
            raise HandicapError(f"{text} holds no piece of gote's at the start")
        if variant.piece(-piece).royal:
            raise HandicapError(f"{text} holds gote's king, which cannot be given")
        board[sq] = 0
    start = Position(variant, board, [plain(row) for row in pos.hands], GOTE, pos.move_number)
    return Handicap(spec.id, spec.names, spec.remove, start.sfen())


def handicap_position(variant: Variant, handicap_id: str) -> Position:
    """The start position of ``variant``'s handicap ``handicap_id`` (KeyError if it has none
    of that id: the ids a player may name are ``variant.handicaps``)."""
    return Position.from_sfen(variant, variant.handicaps[handicap_id].sfen)


def handicap_at(variant: Variant, sfen: str) -> Handicap | None:
    """The handicap of ``variant`` that starts from ``sfen`` (move number ignored), if any."""
    key = sfen.split()[:3]
    return next((h for h in variant.handicaps.values() if h.sfen.split()[:3] == key), None)


def find_handicap(variant: Variant, text: str) -> Handicap | None:
    """``variant``'s handicap named ``text``: its id or any of its names (``rook``,
    ``飛車落ち``, ``hisha-ochi``, ``Без ладьи``), case and spacing aside; None if none is."""
    wanted = " ".join(text.split()).casefold()
    return next(
        (
            h
            for h in variant.handicaps.values()
            if wanted in {h.id, *(name.casefold() for name in h.names.values())}
        ),
        None,
    )
