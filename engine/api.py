"""The engine's face to the rest of Komabot: one move from a game's SFEN and USI moves.

``think`` takes and returns plain picklable values, so it runs as well in a worker process
(``ProcessPoolExecutor.submit(think, ...)``) as in the caller's.  ``Engine`` is the same with
a transposition table kept from move to move, for a long-lived process (USI, a worker
dedicated to one game).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.levels import HIGHEST
from engine.levels import level as level_settings
from engine.resign import resign_threshold, should_resign
from engine.scores import mate_plies
from engine.search import Limits, Progress, Searcher, SearchResult, StopSignal
from engine.values import values_for
from rules import Move, Position, Variant, impasse_report, load_variant

DEFAULT_MOVETIME_MS = 2000  # when the caller gives no time, node or depth limit
DEFAULT_HASH_MB = 64
"""The transposition table of a search no caller sized: room for 262,144 positions, more than
level 8 stores in the bot's 3 s a move (at 400,000 nodes, in 54 Wa positions of three games
against HaChu, plies 30-200, at most 79,154; the dict grows only as it fills).  At 16 MB
(65,536) 21 of those 54 searches filled it, and a full table is emptied (``engine.table``):
in the deepest iteration, losing its move order.  ``komabot usi`` has ``USI_Hash`` (the
matches of ``bench/match.py`` set 64)."""


@dataclass(frozen=True)
class Result:
    """The engine's answer for one position.

    ``best_move``: a legal move in USI (checked against the rules core), or None when the side
    to move has no legal move (it has lost).  ``score_cp``: centipawns from the side to move's
    view, None when a mate was found; ``mate_in``: the engine's own moves to mate (3: it mates
    with its third move), negative when it is mated (-2: the opponent mates with its second
    move), 0 when it is mated already; ``mate_plies`` the same in plies (what USI prints).
    ``resign``: the level allows giving up and the score has been hopeless for a few moves.
    ``declare_win``: the side to move may declare an impasse win now (Standard Shogi's
    27-point rule); ``best_move`` is still a move for a caller that does not declare.
    """

    best_move: str | None
    score_cp: int | None
    mate_in: int | None
    mate_plies: int | None
    depth: int
    seldepth: int
    nodes: int
    time_ms: int
    pv: tuple[str, ...]
    resign: bool = False
    declare_win: bool = False
    only_move: bool = False
    level: int = HIGHEST

    @property
    def score(self) -> int:
        """A number for sorting and thresholds: centipawns, or +/- 100000 less the plies
        for a mate."""
        if self.mate_plies is None:
            return self.score_cp or 0
        return 100_000 - self.mate_plies if self.mate_plies > 0 else -100_000 - self.mate_plies


def position_after(variant: Variant, sfen: str, moves: Sequence[str]) -> Position:
    """The position after ``moves`` (USI) from ``sfen`` (or ``startpos``); each move is
    checked: raises InvalidSetupError, InvalidMoveError or IllegalMoveError."""
    pos = Position.from_sfen(variant, sfen)
    for text in moves:
        pos.push_usi(text)
    return pos


def _moves_to_mate(plies: int) -> int:
    return (plies + 1) // 2 if plies > 0 else -((-plies) // 2)


class Engine:
    """A search engine for one variant that keeps what it learnt between moves."""

    def __init__(self, variant: Variant | str, hash_mb: int = DEFAULT_HASH_MB) -> None:
        self.variant = load_variant(variant) if isinstance(variant, str) else variant
        self.searcher = Searcher(self.variant, hash_mb)
        self.values = values_for(self.variant.id)
        self.resign_cp = resign_threshold(self.variant, self.values)

    def new_game(self) -> None:
        self.searcher.new_game()

    def set_hash(self, hash_mb: int) -> None:
        self.searcher.resize(hash_mb)

    def think(
        self,
        position: Position,
        *,
        level: int = HIGHEST,
        limits: Limits | None = None,
        seed: int | None = None,
        past_scores: Sequence[int] = (),
        stop: StopSignal | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> Result:
        """The best move for the side to move of ``position`` (not changed).

        ``past_scores``: this engine's :attr:`Result.score` for its previous moves in the game,
        oldest first, for the resign decision.  ``limits`` default: ``DEFAULT_MOVETIME_MS``.
        """
        settings = level_settings(level)
        if limits is None:
            limits = Limits(movetime_ms=DEFAULT_MOVETIME_MS)
        rng = random.Random(seed)
        found = self.searcher.search(
            position, limits, settings, stop=stop, on_progress=on_progress, rng=rng
        )
        best = self._checked(position, found)
        usi = position.usi
        plies = mate_plies(found.score) if best is not None else 0
        score_cp = None if best is None or found.only_move or plies is not None else found.score
        result = Result(
            best_move=usi(best) if best is not None else None,
            score_cp=score_cp,
            mate_in=_moves_to_mate(plies) if plies is not None else None,
            mate_plies=plies,
            depth=found.depth,
            seldepth=found.seldepth,
            nodes=found.nodes,
            time_ms=found.time_ms,
            pv=_pv_text(position, found),
            only_move=found.only_move,
            declare_win=self._may_declare(position),
            level=settings.number,
        )
        hopeless = should_resign([*past_scores, result.score], self.resign_cp)
        if best is not None and settings.resigns and not found.only_move and hopeless:
            result = replace(result, resign=True)
        return result

    def _checked(self, position: Position, found: SearchResult) -> Move | None:
        """The search's move if it is legal; the first legal move if (against every test)
        it is not; None when there is no legal move."""
        legal = position.legal_moves()
        if not legal:
            return None
        if found.best in legal:
            return found.best
        return legal[0]

    def _may_declare(self, position: Position) -> bool:
        if position.variant.impasse is None:
            return False
        return not impasse_report(position).unmet


def _pv_text(position: Position, found: SearchResult) -> tuple[str, ...]:
    """The principal variation in USI, as far as it stays legal from ``position``."""
    probe = position.copy()
    out = []
    for move in found.pv:
        if move not in probe.legal_moves():
            break
        out.append(probe.usi(move))
        probe.make_unchecked(move)
    return tuple(out)


def think(
    variant_id: str,
    sfen: str = "startpos",
    moves: Sequence[str] = (),
    *,
    level: int = HIGHEST,
    movetime_ms: int | None = None,
    nodes: int | None = None,
    depth: int | None = None,
    seed: int | None = None,
    past_scores: Sequence[int] = (),
    stop: StopSignal | None = None,
    hash_mb: int = DEFAULT_HASH_MB,
) -> Result:
    """One move for the position after ``moves`` (USI) from ``sfen``, in a fresh engine.

    Give at least one of ``movetime_ms``, ``nodes``, ``depth`` (none: ``DEFAULT_MOVETIME_MS``);
    the level uses its share of it (level 8 all of it).  ``seed`` makes the randomness of the
    lower levels repeatable (with a node or depth limit, the whole search is).  ``stop``: any
    object with ``is_set()`` (a ``threading.Event``; a ``multiprocessing.Manager().Event()``
    across processes); once set, the search returns its best move so far within a few
    hundred nodes.  Raises RulesError subclasses for a bad variant, SFEN or move, and
    ValueError for a level outside 1-8.
    """
    variant = load_variant(variant_id)
    position = position_after(variant, sfen, moves)
    if movetime_ms is None and nodes is None and depth is None:
        movetime_ms = DEFAULT_MOVETIME_MS
    limits = Limits(movetime_ms=movetime_ms, nodes=nodes, depth=depth)
    return Engine(variant, hash_mb).think(
        position, level=level, limits=limits, seed=seed, past_scores=past_scores, stop=stop
    )
