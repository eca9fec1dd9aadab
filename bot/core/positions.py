"""Positions rebuilt from a game's start SFEN and USI moves, and cached.

A stored game is Komabot's own: every move was checked when it was played.  Rebuilding a
position that is not cached (a miss) therefore replays the moves *unchecked* (:func:`rebuild`),
each one guarded by cheap sanity checks (a piece of the mover on the origin, a square its moves
reach, nothing of its own or a king on the destination, a drop from the hand onto an empty
square, promotion only where allowed, the opponent's king not left in check at the end).  When
a guard trips, the whole game is replayed again with every move checked (:func:`replay`), which
names the ply and the problem of a damaged record (:class:`DamagedRecordError`).

Positions are :class:`CorePosition`: a :class:`rules.Position` that generates its legal moves
once and keeps them until it changes, so reading, printing and judging a move share one list.

The cache is bounded by an estimate of the bytes its entries hold (see :func:`entry_bytes`,
measured by ``tests/bot/core/test_positions.py``).  What it keeps is made of plain values
(history and remembered legal moves as tuples of ints, :meth:`CorePosition.packed`): the
garbage collector, which walks every container object at each full collection, finds a few
objects per cached game instead of hundreds, so its pauses do not grow with the cache.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import partial

from bot.store.models import GameRow
from rules import Move, Position, RulesError, load_variant, movegen
from rules.arrays import IntArray
from rules.move import parse_usi
from rules.tables import SENTE


class DamagedRecordError(Exception):
    """A stored game does not replay: its start SFEN or a move is not legal."""

    def __init__(self, game_id: int, ply: int, problem: str) -> None:
        super().__init__(f"game {game_id}, move {ply}: {problem}")
        self.game_id = game_id
        self.ply = ply
        self.problem = problem


class CorePosition(Position):
    """A position that remembers its legal moves until it changes (a move made or taken
    back, or its hash otherwise different)."""

    __slots__ = ("_legal",)

    def __init__(self, *args: object, **kwargs: object) -> None:
        # (hash, moves): a list of Move, or plain tuples in a packed copy (made Moves on use)
        self._legal: tuple[int, list[Move] | tuple[tuple[int, int, bool, int], ...]] | None
        self._legal = None
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    @classmethod
    def adopt(cls, pos: Position) -> CorePosition:
        """``pos`` itself if it is one, else a copy of it as a :class:`CorePosition`."""
        if isinstance(pos, CorePosition):
            return pos
        return _copy_into(pos, None)

    def legal_moves(self) -> list[Move]:
        memo = self._legal
        if memo is None or memo[0] != self.hash:
            moves = movegen.legal_moves(self)  # may make and take back drops: sets nothing
            memo = self._legal = (self.hash, moves)
        kept = memo[1]
        if not isinstance(kept, list):  # packed (see packed): moves again, kept as such
            kept = list(map(_as_move, kept))
            self._legal = (memo[0], kept)
        return list(kept)

    def is_legal(self, move: Move) -> bool:
        memo = self._legal
        if memo is None or memo[0] != self.hash:
            self.legal_moves()
            memo = self._legal
            assert memo is not None
        return move in memo[1]  # a Move equals the plain tuple of its fields

    @property
    def knows_legal_moves(self) -> bool:
        return self._legal is not None and self._legal[0] == self.hash

    def make_unchecked(self, move: Move) -> None:
        self._legal = None
        super().make_unchecked(move)

    def pop(self) -> Move:
        self._legal = None
        return super().pop()

    def copy(self) -> CorePosition:
        return _copy_into(self, self._legal)

    def packed(self) -> CorePosition:
        """A copy to keep for long: its remembered legal moves as plain tuples (the history
        already is), so the copy holds no object the garbage collector has to visit per move."""
        other = self.copy()
        memo = other._legal
        if memo is not None and isinstance(memo[1], list):
            other._legal = (memo[0], tuple([(m[0], m[1], m[2], m[3]) for m in memo[1]]))
        return other

    def with_side_to_move(self, color: int) -> Position:
        other = super().with_side_to_move(color)
        if isinstance(other, CorePosition) and color != self.side:
            other._legal = None
        return other


_as_move = partial(tuple.__new__, Move)
"""A packed move (a plain tuple of its four fields) as a Move: builds the same tuple as
``Move(*m)`` without going through its keyword-taking constructor (about 40% faster)."""


def _copy_into(
    pos: Position, legal: tuple[int, list[Move] | tuple[tuple[int, int, bool, int], ...]] | None
) -> CorePosition:
    other = pos.copy_as(CorePosition)
    other._legal = legal  # the list is never changed in place: sharing it is safe
    return other


# --- sizes -----------------------------------------------------------------------------------

ENTRY_BASE_BYTES = 1_600
"""An entry's fixed share: the position object, board and hand lists, the cache's slot."""
PLY_BYTES = 180
"""Each ply of history: its undo record (a tuple of plain values) and repetition counter."""
LEGAL_MOVE_BYTES = 85
"""Each remembered legal move (a ``Move`` and its list slot)."""
BOARD_SQUARE_BYTES = 8


def entry_bytes(pos: Position) -> int:
    """About how many bytes a cached ``pos`` holds (constants measured by the tests)."""
    legal = pos._legal if isinstance(pos, CorePosition) and pos._legal is not None else None
    return (
        ENTRY_BASE_BYTES
        + BOARD_SQUARE_BYTES * len(pos.board)
        + PLY_BYTES * pos.ply
        + (LEGAL_MOVE_BYTES * len(legal[1]) if legal is not None else 0)
    )


INLINE_PLIES = 40
"""Games up to this long are rebuilt on the calling thread (well under a tenth of a
millisecond); longer ones on a worker thread (``Games.position_of``)."""


class PositionCache:
    """Current positions by game id and version; hands out copies callers may change.

    Bounded by ``max_bytes`` (an estimate, :func:`entry_bytes`) and ``max_entries``; the least
    recently used entries go first.
    """

    def __init__(self, size: int = 100_000, max_bytes: int = 128 * 1024 * 1024) -> None:
        self._size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[int, tuple[int, CorePosition, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def position(self, game: GameRow) -> CorePosition:
        """The position after every move of ``game`` (a fresh copy).  A miss rebuilds it here
        (in time proportional to the game): on the event loop, prefer
        ``Games.position_of``."""
        pos = self.cached(game)
        if pos is None:
            pos = rebuild(game)
            self.put(game, pos)  # keeps its own copy
        return pos

    def cached(self, game: GameRow) -> CorePosition | None:
        """A fresh copy of the position of ``game`` at its version, if cached."""
        entry = self._entries.get(game.id)
        if entry is None or entry[0] != game.version:
            return None
        self._entries.move_to_end(game.id)
        return entry[1].copy()

    def put(self, game: GameRow, pos: Position) -> None:
        """Remember ``pos`` as the position of ``game`` at its version (keeps a copy)."""
        kept = CorePosition.adopt(pos).packed()
        size = entry_bytes(kept)
        old = self._entries.pop(game.id, None)
        if old is not None:
            self.bytes -= old[2]
        if size > self.max_bytes:
            return
        self._entries[game.id] = (game.version, kept, size)
        self.bytes += size
        while len(self._entries) > self._size or self.bytes > self.max_bytes:
            _, (_, _, gone) = self._entries.popitem(last=False)
            self.bytes -= gone

    def forget(self, game_id: int) -> None:
        old = self._entries.pop(game_id, None)
        if old is not None:
            self.bytes -= old[2]


# --- rebuilding ------------------------------------------------------------------------------


def _start(game: GameRow) -> CorePosition:
    try:
        return CorePosition.from_sfen(load_variant(game.variant), game.start_sfen)  # type: ignore[return-value]
    except RulesError as exc:
        raise DamagedRecordError(game.id, 0, exc.message) from None


def replay(game: GameRow) -> CorePosition:
    """Set up the start position and play every stored move, checking each: a damaged record
    raises :class:`DamagedRecordError` naming the first bad move."""
    pos = _start(game)
    for ply, usi in enumerate(game.moves, 1):
        try:
            pos.push_usi(usi)
        except RulesError as exc:
            raise DamagedRecordError(game.id, ply, f"{usi}: {exc.message}") from None
    return pos


def rebuild(game: GameRow) -> CorePosition:
    """The position after every stored move of ``game``, replayed unchecked behind cheap
    guards; a guard that trips replays it checked (:func:`replay`), which reports a damaged
    record.  Gives the same position, history and repetition counts as :func:`replay`."""
    pos = _start(game)
    variant = pos.variant
    for usi in game.moves:
        try:
            move = parse_usi(variant, usi)
        except RulesError:
            return replay(game)
        if not plausible(pos, move):
            return replay(game)
        pos.make_unchecked(move)
    # the side that moved last must not have left its king in check
    mover = pos.side ^ 1
    if game.moves and (pos.kings[mover] < 0 or pos.is_attacked(pos.kings[mover], pos.side)):
        return replay(game)
    return pos


def plausible(pos: Position, move: Move) -> bool:
    """Cheap checks that ``move`` could be a legal move of ``pos`` (not that it is): what an
    unchecked replay needs so as not to corrupt the position."""
    t = pos.tables
    board = pos.board
    side = pos.side
    sign = 1 if side == SENTE else -1
    frm, to, promote, drop = move
    if not 0 <= to < len(board):
        return False
    target = board[to]
    if drop:
        if not pos.variant.drops.enabled or promote or target:
            return False
        if not 0 < drop < len(pos.hands[side]) or pos.hands[side][drop] <= 0:
            return False
        return not t.dead[drop * sign][to]
    if not 0 <= frm < len(board):
        return False
    v = board[frm]
    if v * sign <= 0 or target * sign > 0:
        return False
    if target and to == pos.kings[side ^ 1]:
        return False  # a king is never taken
    if to not in t.leaps[v][frm] and not _rides_to(board, t.rides[v][frm], to):
        return False
    if promote:
        zone = t.zone[side]
        if not t.promote[v] or not (zone[frm] or zone[to]):
            return False
    elif t.dead[v][to]:
        return False  # the piece could never move again: it must have promoted
    return True


def _rides_to(board: IntArray, rays: tuple[tuple[int, ...], ...], to: int) -> bool:
    for ray in rays:
        for sq in ray:
            if sq == to:
                return True
            if board[sq]:
                break
    return False
