"""A position of any variant: board, hands, side to move; push/pop and queries."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from mypy_extensions import mypyc_attr

from rules import movegen
from rules.arrays import IntArray, int_array, plain
from rules.errors import InvalidMoveError, InvalidSetupError
from rules.explain import explain_illegal
from rules.move import Move, move_to_usi, parse_usi
from rules.outcome import Outcome, outcome
from rules.sfen import format_sfen, parse_sfen
from rules.tables import GOTE, SENTE

if TYPE_CHECKING:
    from rules.variant import Variant

# (from, to, promote, drop, captured value, hash before the move): plain values only, so the
# history of a position kept for long (a cache of games) costs the garbage collector nothing
_Undo = tuple[int, int, bool, int, int, int]


P = TypeVar("P", bound="Position")


# Compiled by scripts/build_native (rules.native.COMPILED) as a native class: the bot's
# CorePosition (bot/core/positions.py) subclasses it in interpreted code, which mypyc allows
# only when asked.  Compiled callers still read its attributes directly from the object.
@mypyc_attr(allow_interpreted_subclasses=True)
class Position:
    """Board, hands and side to move, with the history needed for ``pop`` and repetition.

    ``board[sq]`` holds signed kinds (sente > 0, gote < 0); ``hands[color][kind]`` counts.
    """

    __slots__ = (
        "_rep",
        "_stack",
        "board",
        "hands",
        "hash",
        "kings",
        "move_number",
        "side",
        "tables",
        "variant",
    )

    def __init__(
        self,
        variant: Variant,
        board: list[int],
        hands: list[list[int]],
        side: int,
        move_number: int = 1,
    ) -> None:
        self.variant = variant
        self.tables = variant.tables
        self.board: IntArray = int_array(board)
        self.hands: list[IntArray] = [int_array(hands[0]), int_array(hands[1])]
        self.side = side
        self.move_number = move_number
        royal = variant.royal_kind
        self.kings = [
            board.index(royal) if royal in board else -1,
            board.index(-royal) if -royal in board else -1,
        ]
        self._stack: list[_Undo] = []
        self.hash = self._compute_hash()
        self._rep: dict[int, int] = {self.hash: 1}

    @classmethod
    def from_sfen(cls, variant: Variant, sfen: str) -> Position:
        """Parse an SFEN (or ``startpos``); raises InvalidSetupError saying what is wrong."""
        f = parse_sfen(variant, sfen)
        pos = cls(variant, f.board, f.hands, f.side, f.move_number)
        if pos.kings[f.side ^ 1] >= 0 and movegen.checkers(pos, f.side ^ 1):
            who = "gote" if f.side == SENTE else "sente"
            raise InvalidSetupError(
                f"bad SFEN: {who} is in check but it is not {who}'s turn",
                problem="side not to move in check",
            )
        return pos

    @classmethod
    def start(cls, variant: Variant) -> Position:
        return cls.from_sfen(variant, variant.start_sfen)

    def copy(self) -> Position:
        """An independent copy, history included."""
        return self.copy_as(Position)

    def copy_as(self, cls: type[P]) -> P:
        """An independent copy as a ``cls`` (Position or a subclass; its ``__init__`` is not
        run, so a subclass sets its own extra state), history included."""
        other = cls.__new__(cls)
        other.variant = self.variant
        other.tables = self.tables
        other.board = self.board[:]
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.side = self.side
        other.move_number = self.move_number
        other.kings = self.kings[:]
        other._stack = self._stack[:]
        other.hash = self.hash
        other._rep = dict(self._rep)
        return other

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled (and copied by :mod:`copy`) as its set-up and history, the same way pure
        and compiled (a compiled class has no instance dictionary for pickle's default way)."""
        hands = [plain(self.hands[0]), plain(self.hands[1])]
        fields = (self.variant, plain(self.board), hands, self.side, self.move_number)
        return _restore, (type(self), *fields, self._stack, self._rep)

    def with_side_to_move(self, color: int) -> Position:
        """A copy with ``color`` to move and no history: for asking what ``color``'s pieces
        could do on its turn while the other side is to move.

        Nothing is checked: when the side handed the turn could take the other king (that
        king is in check now), the copy is a position that cannot arise in play, and its
        ``legal_moves`` include taking the king.  Such moves show a threat; never play them.
        """
        other = self.copy()
        if color != self.side:
            other.side = color
            other.hash ^= self.tables.z_side
        other._stack = []
        other._rep = {other.hash: 1}
        return other

    def _compute_hash(self) -> int:
        t = self.tables
        h = 0
        for sq, v in enumerate(self.board):
            if v:
                h ^= t.z_board[v][sq]
        for color in (SENTE, GOTE):
            for kind, n in enumerate(self.hands[color]):
                if n:
                    h ^= t.z_hand[color][kind][n] ^ t.z_hand[color][kind][0]
        return h ^ (t.z_side if self.side == GOTE else 0)

    # --- text forms ---------------------------------------------------------------------

    def sfen(self, with_move_number: bool = True) -> str:
        return format_sfen(self, with_move_number)

    def usi(self, move: Move) -> str:
        return move_to_usi(self.variant, move)

    def parse_usi(self, text: str) -> Move:
        """A legal move from USI text; raises InvalidMoveError or IllegalMoveError."""
        move = parse_usi(self.variant, text)
        self.check_legal(move)
        return move

    def __repr__(self) -> str:
        return f"Position({self.variant.id!r}, {self.sfen()!r})"

    # --- queries ------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        return movegen.legal_moves(self)

    def is_legal(self, move: Move) -> bool:
        return move in movegen.legal_moves(self, move)

    def check_legal(self, move: Move) -> None:
        """Raise IllegalMoveError, with the reason, unless ``move`` is legal here."""
        if not self.is_legal(move):
            raise explain_illegal(self, move)

    def is_check(self) -> bool:
        """Is the side to move in check?"""
        return bool(movegen.checkers(self, self.side))

    def checkers(self) -> list[int]:
        """Squares of the pieces giving check to the side to move."""
        return [sq for sq, _ in movegen.checkers(self, self.side)]

    def is_attacked(self, sq: int, by: int) -> bool:
        return movegen.attacked(self, sq, by)

    def repetitions(self) -> int:
        """How many times the current position (board, hands, side) has occurred."""
        return self._rep.get(self.hash, 0)

    @property
    def ply(self) -> int:
        """Moves played since this object was set up."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        return [Move(u[0], u[1], u[2], u[3]) for u in self._stack]

    @property
    def last_move(self) -> Move | None:
        if not self._stack:
            return None
        u = self._stack[-1]
        return Move(u[0], u[1], u[2], u[3])

    def piece_at(self, sq: int) -> int:
        return self.board[sq]

    def outcome(self) -> Outcome | None:
        """How the game stands decided by the rules alone, or None while it goes on."""
        return outcome(self)

    # --- changing -----------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play a legal move; raises IllegalMoveError (with the reason) and changes nothing."""
        self.check_legal(move)
        self.make_unchecked(move)

    def push_usi(self, text: str) -> Move:
        move = self.parse_usi(text)
        self.make_unchecked(move)
        return move

    def make_unchecked(self, move: Move) -> None:
        """Play ``move`` without checking it (the caller knows it is legal)."""
        t = self.tables
        board = self.board
        side = self.side
        old = h = self.hash
        frm, to, promote, drop = move
        cap = 0
        if drop:
            v = drop if side == SENTE else -drop
            hand = self.hands[side]
            n = hand[drop]
            zh = t.z_hand[side][drop]
            h ^= zh[n] ^ zh[n - 1] ^ t.z_board[v][to]
            hand[drop] = n - 1
            board[to] = v
        else:
            v = board[frm]
            cap = board[to]
            nv = t.promote[v] if promote else v
            board[frm] = 0
            board[to] = nv
            zb = t.z_board
            h ^= zb[v][frm] ^ zb[nv][to]
            kings = self.kings
            if cap:
                h ^= zb[cap][to]
                if t.drops_enabled:
                    k = t.base_kind[cap]
                    hand = self.hands[side]
                    n = hand[k]
                    zh = t.z_hand[side][k]
                    h ^= zh[n] ^ zh[n + 1]
                    hand[k] = n + 1
                if to == kings[side ^ 1]:
                    kings[side ^ 1] = -1
            if frm == kings[side]:
                kings[side] = to
        self._stack.append((frm, to, promote, drop, cap, old))
        h ^= t.z_side
        self.hash = h
        self.side = side ^ 1
        self.move_number += 1
        rep = self._rep
        rep[h] = rep.get(h, 0) + 1

    def pop(self) -> Move:
        """Take back the last move and return it."""
        frm, to, promote, drop = self.undo()
        return Move(frm, to, promote, drop)

    def undo(self) -> tuple[int, int, bool, int]:
        """Take back the last move; its (from, to, promote, drop) as a plain tuple (what
        :meth:`pop` returns as a :class:`Move`, without making one: for searches)."""
        if not self._stack:
            raise InvalidMoveError("no move to take back", code="nothing_to_undo")
        frm, to, promote, drop, cap, old_hash = self._stack.pop()
        rep = self._rep
        h = self.hash
        n = rep[h] - 1
        if n:
            rep[h] = n
        else:
            del rep[h]
        side = self.side ^ 1
        self.side = side
        self.hash = old_hash
        self.move_number -= 1
        board = self.board
        if drop:
            self.hands[side][drop] += 1
            board[to] = 0
            return frm, to, promote, drop
        v = board[to]
        board[frm] = self.tables.unpromote[v] if promote else v
        board[to] = cap
        kings = self.kings
        if to == kings[side]:
            kings[side] = frm
        if cap:
            t = self.tables
            if t.drops_enabled:
                self.hands[side][t.base_kind[cap]] -= 1
            if abs(cap) == t.royal_kind:
                kings[side ^ 1] = to
        return frm, to, promote, drop


def _restore(
    cls: type[P],
    variant: Variant,
    board: list[int],
    hands: list[list[int]],
    side: int,
    move_number: int,
    stack: list[_Undo],
    rep: dict[int, int],
) -> P:
    """A position unpickled (:meth:`Position.__reduce__`)."""
    pos = cls(variant, board, hands, side, move_number)
    pos._stack = stack
    pos._rep = rep
    return pos
