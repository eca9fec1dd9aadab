"""Finished Standard Shogi games for every way a game ends, as records other readers check.

``GAME`` is a real game from the usual start (seeded random play that takes a mate in one when
it has one) that holds every kind of move a record writes: drops, promotions, declined
promotions, captures, 同 and moves that need a relative word in KI2. The endings that cannot
come from the usual start in a few moves (no legal move, perpetual check, impasse) start from
a board diagram. Each case names the ending and says whether the loser is the side to move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from rules import GOTE, SENTE, Outcome, Position, Termination, load_variant
from rules.notation.printing import Printer
from rules.records import GameRecord

STANDARD = load_variant("shogi").start_sfen
_GAME_TEXT = """
    6i6h 4a5b 1i1h 5b4b 5i6i 5a6b 6i5i 1c1d 7i7h 9a9b 2h4h 6b7b 2g2f 1d1e 9g9f 2a1c 7g7f 7c7d
    8h3c+ 4b3c 9i9g B*5d 6h5h 5d7f P*7c 7b7c 5g5f 7f6g+ 7h6g 8b6b B*1d P*3d 1d2c+ P*2h P*7g
    2h2i+ 2c2b N*9e B*9h P*2g 2f2e 1c2e 4g4f 6b5b 2b3a 9e8g+ S*4d 7a7b 4d3c 2e1g+ G*7h 8g7h
    3c3b+ G*6i
"""
GAME = tuple(_GAME_TEXT.split())  # gote mates sente with the 54th move
REPETITION = ("2h3h", "8b7b", "3h2h", "7b8b") * 3
NO_MOVES_START = "8k/9/7G1/9/5N3/9/9/9/4K4 b - 1"  # 4e3c (declining promotion) leaves none
PERPETUAL_START = "8k/9/R8/9/9/9/9/9/4K4 b - 1"
# Sente checks on every move; the position after 9c9a comes a fourth time.
PERPETUAL = ("9c9a", *(("1a1b", "9a9b", "1b1a", "9b9a") * 3))
IMPASSE_START = "RRBBGGGG1/SSSSK4/NN7/9/9/9/9/9/4k4 b - 1"  # sente may declare after 2 moves


@dataclass(frozen=True)
class Case:
    name: str
    record: GameRecord

    @property
    def from_usual_start(self) -> bool:
        return self.record.start_sfen == STANDARD

    def final(self) -> Position:
        return self.record.final_position()


def _record(moves: tuple[str, ...], result: Outcome | None, start: str = STANDARD) -> GameRecord:
    return GameRecord(
        variant="shogi",
        start_sfen=start,
        moves=moves,
        sente="先手 Alice",
        gote="Bob",
        result=result,
        started=datetime(2026, 11, 1, 9, 30, 0),
        ended=datetime(2026, 11, 20, 21, 5, 7),
        event="Komabot game #7",
        site="Komabot discord",
    )


def _cases() -> list[Case]:
    t = Termination
    odd, even = GAME[:41], GAME[:40]  # gote / sente to move
    return [
        Case("checkmate", _record(GAME, Outcome(t.CHECKMATE, GOTE))),
        Case(
            "no_legal_moves", _record(("4e3c",), Outcome(t.NO_LEGAL_MOVES, SENTE), NO_MOVES_START)
        ),
        Case("repetition", _record(REPETITION, Outcome(t.REPETITION, None))),
        Case(
            "perpetual_check", _record(PERPETUAL, Outcome(t.PERPETUAL_CHECK, GOTE), PERPETUAL_START)
        ),
        Case("impasse_win", _record(("5b5c", "5i4i"), Outcome(t.IMPASSE, SENTE), IMPASSE_START)),
        Case("impasse_draw", _record(even, Outcome(t.IMPASSE, None))),
        Case("resignation", _record(odd, Outcome(t.RESIGNATION, SENTE))),  # gote resigns
        Case("resignation_out_of_turn", _record(odd, Outcome(t.RESIGNATION, GOTE))),
        Case("timeout", _record(even, Outcome(t.TIMEOUT, GOTE))),
        Case("timeout_out_of_turn", _record(even, Outcome(t.TIMEOUT, SENTE))),
        Case("agreed_draw", _record(odd, Outcome(t.AGREED_DRAW, None))),
        Case("aborted", _record(even, Outcome(t.ABORTED, None))),
        Case("illegal_move_by_mover", _record(odd, Outcome(t.ILLEGAL_MOVE, SENTE))),
        Case("illegal_move_by_last_mover", _record(even, Outcome(t.ILLEGAL_MOVE, SENTE))),
        Case("unfinished", _record(odd, None)),
    ]


CASES = _cases()


# A rook-handicap game: 上手 (gote) moves first; captures, 同, drops, a promotion; 上手 resigns
# on its own turn after 26 plies.
ROOK_HANDICAP_GAME = (
    *("3c3d", "7g7f", "4c4d", "2g2f", "3a4b", "2f2e", "2b3c", "2e2d", "2c2d", "2h2d"),
    *("P*2c", "2d2h", "4a3b", "6i7h", "5a6b", "3g3f", "6b7b", "3i3h", "7c7d", "3f3e"),
    *("3d3e", "P*3d", "3c2b", "3d3c+", "3b3c", "5i6h"),
)
_HANDICAPS = load_variant("shogi").handicaps
HANDICAP_CASES = [
    Case(
        "rook_handicap_game",
        GameRecord(
            "shogi",
            _HANDICAPS["rook"].sfen,
            ROOK_HANDICAP_GAME,
            sente="Taker",
            gote="Giver",
            result=Outcome(Termination.RESIGNATION, SENTE),
        ),
    ),
    *(
        Case(f"{h.id}_handicap_start", GameRecord("shogi", h.sfen, (), sente="S", gote="G"))
        for h in _HANDICAPS.values()
    ),
]
"""Handicap games (not in ``CASES``, whose endings are checked one by one): the start of each
handicap, and a rook-handicap game."""


def move_kinds(record: GameRecord) -> set[str]:
    """Which kinds of move the game holds (drop, promote, decline, capture, same, ambiguous)."""
    pos = record.start_position()
    seen = set()
    for usi in record.moves:
        move = pos.parse_usi(usi)
        printer = Printer(pos)
        if move.is_drop:
            seen.add("drop")
        elif move.promote:
            seen.add("promote")
        elif printer.could_promote_instead(move):
            seen.add("decline")
        if not move.is_drop and pos.board[move.to_sq]:
            seen.add("capture")
        if pos.last_move is not None and pos.last_move.to_sq == move.to_sq:
            seen.add("same")
        if printer.rivals(move):
            seen.add("ambiguous")
        pos.push(move)
    return seen
