"""Iterative-deepening principal-variation search with a transposition table.

Negamax alpha-beta over ``Position.make_unchecked``/``pop``: legal moves from the rules core
in the main search, pseudo-legal captures and promotions (checked for the mover's king after
they are played) in the quiescence search, which leaves out captures that lose material by
the static exchange unless they check.  Move ordering: the hash move, captures by most
valuable victim and least valuable attacker, promotions, two killer moves a ply, captures
that lose by the static exchange, history.  Check extension (not for a checker that the
static exchange loses), null-move pruning, late-move reductions, futility pruning near the
leaves.  Before it, a checks-only mate search
(``engine/mate.py``) within a share of the budget: a proven mate is played at once.

Repetition: a position that occurred before on the game's or the search's path is scored as a
draw, unless one side gave check with every one of its moves since: that side loses (the rule
of the variant file decides whether perpetual check loses).  The search stops when the time or
node budget is spent or a stop signal is set, checked every few hundred nodes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, Protocol

from engine.checks import CheckTables
from engine.choice import loose_choice
from engine.evaluation import Evaluator
from engine.exchange import StaticExchange
from engine.levels import LEVELS, MAX_DEPTH, Level
from engine.mate import MateSearch
from engine.moves import StagedMoves
from engine.ordering import MoveOrdering
from engine.repetition import earlier_occurrence, repetition_score
from engine.scores import (
    DRAW,
    INFINITE,
    MATE,
    RULE_BOUND,
    RULE_WIN,
    is_decisive,
    mate_plies,
)
from engine.table import EXACT, LOWER, UPPER, TranspositionTable, score_from_table
from engine.tactical import TacticalMoves
from rules import SENTE, Move, Position, Variant, impasse_report
from rules.movegen import attacked, legal_moves

MAX_PLY: Final = 96
POLL_EVERY: Final = 256  # nodes between looks at the clock and the stop signal
# In check within this many quiescence plies: every evasion is searched; deeper, the captures
QUIESCENCE_EVASION_PLIES: Final = 2
DELTA_MARGIN: Final = 150  # quiescence: a capture that cannot lift the score this near alpha waits
# per ply of depth: quiet moves when the static score is this far below alpha
FUTILITY_MARGIN: Final = 160
FUTILITY_DEPTH: Final = 3  # futility pruning at depths 1 to this
REVERSE_FUTILITY: Final = 130  # per ply of depth: static score this far above beta cuts
ASPIRATION: Final = 40
# no null move with fewer pieces than this besides the king, none in hand
NULL_MOVE_PIECES: Final = 3
# The checks-only mate search before the main search: its share of the budget, what one of
# its nodes (a move played, the defender's legal moves generated) counts for against a node
# budget (measured: it takes about twice the time of a node of the main search), and its
# node cap when the search has no budget (depth or infinite)
MATE_SHARE: Final = 0.1
MATE_NODE_COST: Final = 2
MATE_NODES_UNBOUNDED: Final = 20_000
# Non-PV nodes at depth 1, 2, 3 not in check: quiet moves after this many are skipped
LATE_MOVES: Final = (9999, 10, 16, 26)


class StopSignal(Protocol):
    """Anything with ``is_set()``: a ``threading.Event``, a ``multiprocessing`` manager's
    ``Event`` proxy (picklable, for process pools)."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class Limits:
    """What bounds one search: any of time (ms), nodes and depth; none of them (or
    ``infinite``) searches until stopped."""

    movetime_ms: int | None = None
    nodes: int | None = None
    depth: int | None = None
    infinite: bool = False


@dataclass(frozen=True)
class Progress:
    """One finished iteration, for ``info`` lines."""

    depth: int
    seldepth: int
    score: int
    nodes: int
    time_ms: int
    pv: tuple[Move, ...]

    @property
    def mate_plies(self) -> int | None:
        return mate_plies(self.score)

    @property
    def nps(self) -> int:
        return self.nodes * 1000 // max(1, self.time_ms)


@dataclass
class SearchResult:
    """What a search found: ``best`` is None only when there is no legal move."""

    best: Move | None
    score: int
    depth: int
    seldepth: int
    nodes: int
    time_ms: int
    pv: tuple[Move, ...] = ()
    only_move: bool = False
    stopped: bool = False  # ended by the budget or the stop signal, not by the depth
    iterations: list[Progress] = field(default_factory=list)


@lru_cache(maxsize=8)
def _variant_tables(variant: Variant) -> tuple[Evaluator, CheckTables, StagedMoves]:
    """The read-only tables of a variant, built once per process (a fresh Searcher for each
    move, as ``think`` makes, then costs little).  The quiescence generator and the static
    exchange keep scratch arrays, so each searcher has its own."""
    return Evaluator(variant), CheckTables(variant), StagedMoves(variant)


def _best_index(keys: list[int]) -> int:
    """The index that :func:`_best_first` puts first (the largest key, the last of equal
    ones), found without sorting: most nodes cut off at their first move."""
    best = 0
    top = keys[0]
    for i in range(1, len(keys)):
        key = keys[i]
        if key >= top:
            best = i
            top = key
    return best


def _best_first(keys: list[int]) -> list[int]:
    """The indices of ``keys``, largest key first and equal keys by falling index: the order
    of ``sorted(zip(keys, indices), reverse=True)``.  The indices go in falling, and a sort
    with ``reverse`` keeps equal keys in their order; the keys themselves are compared (ints
    below 2**30, which CPython's sort compares natively), with no tuple or new number a move."""
    return sorted(range(len(keys) - 1, -1, -1), key=keys.__getitem__, reverse=True)


def _moved(pos: Position, move: Move) -> int:
    """The signed value of the piece ``move`` moves or drops (before it is played)."""
    if move.drop:
        return move.drop if pos.side == SENTE else -move.drop
    return pos.board[move.from_sq]


class _Abort(Exception):
    """The budget is spent or a stop was asked for: unwind to the root."""


class Searcher:
    """A search engine for one variant, keeping its transposition table between searches
    (one game after another: call :meth:`new_game` between games)."""

    def __init__(self, variant: Variant, hash_mb: int = 16) -> None:
        self.variant = variant
        self.evaluator, self.checks, self.staged = _variant_tables(variant)
        self.tactical = TacticalMoves(variant, self.evaluator, MAX_PLY)
        self.exchange = StaticExchange(variant, self.evaluator)
        self.ordering = MoveOrdering(variant, self.evaluator, self.exchange, MAX_PLY)
        self.mate = MateSearch(variant, self.checks, self.staged)
        self.tt = TranspositionTable(hash_mb)
        self.z_side = variant.tables.z_side
        self.perpetual_check_loses = variant.repetition.perpetual_check_loses
        self.repetition_count = variant.repetition.count
        # impasse declarations inside the tree, not only at the root
        self.impasse = variant.impasse is not None
        self.zone = variant.tables.zone
        self.nodes = 0
        # what ``pos`` holds between searches (each search works on a copy of its position):
        # set up once, not from the start SFEN at every search
        self.idle = Position.start(variant)
        self._reset_search_state()

    def _reset_search_state(self) -> None:
        self.pos: Position = self.idle
        self.material = 0
        self.path_hashes: list[int] = []
        self.path_checks: list[bool] = []
        self.root_index = 0
        self.seldepth = 0
        self.next_poll = POLL_EVERY
        self.node_limit = 0  # the budget: nodes (0: none) and the clock's deadline (0.0: none)
        self.deadline = 0.0
        self.stop: StopSignal | None = None
        self.root_depth = 0
        self.iteration_best: tuple[Move, int] | None = None
        self.choice_cp = 0

    def new_game(self) -> None:
        """Forget what earlier games taught (transposition table, history, killers)."""
        self.tt.clear()
        self.ordering.clear()

    def resize(self, hash_mb: int) -> None:
        self.tt.resize(hash_mb)

    # --- the public search ----------------------------------------------------------------

    def search(
        self,
        position: Position,
        limits: Limits,
        level: Level = LEVELS[8],
        *,
        stop: StopSignal | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        rng: random.Random | None = None,
    ) -> SearchResult:
        """Search ``position`` (not changed) within ``limits`` at ``level``."""
        start = time.perf_counter()
        root_moves = legal_moves(position)
        if not root_moves:
            return SearchResult(None, -MATE, 0, 0, 0, 0)
        if len(root_moves) == 1:
            return SearchResult(root_moves[0], DRAW, 0, 0, 0, 0, (root_moves[0],), True)
        self._reset_search_state()
        self.nodes = 0
        self._set_budget(limits, start)
        self.stop = stop
        self.ordering.age()
        rng = rng if rng is not None else random.Random(0)
        # a weak level scores every root move (full window) and chooses loosely among them
        choosing = level.choice_cp > 0
        self.choice_cp = level.choice_cp
        scored: list[tuple[Move, int]] = []
        max_depth = min(level.max_depth, limits.depth or MAX_DEPTH, MAX_DEPTH)
        best: Move = root_moves[0]
        best_score = -INFINITE
        done_depth = 0
        pv: tuple[Move, ...] = (best,)
        iterations: list[Progress] = []
        stopped = False
        mate = self._root_mate(position, level, start)
        if mate is not None:
            if on_progress is not None:
                on_progress(mate.iterations[0])
            return mate
        order = self._initial_root_order(position, root_moves)
        best = order[0]
        for depth in range(1, max_depth + 1):
            self._arm_poll()
            self._prepare_root(position)
            self.root_depth = depth
            self.seldepth = 0
            try:
                this: list[tuple[Move, int]] | None = [] if choosing else None
                score = self._iterate(depth, order, this, best_score if done_depth else None)
            except _Abort:
                stopped = True
                if self.iteration_best is not None:
                    best, best_score = self.iteration_best
                    pv = (best,)
                break
            assert self.iteration_best is not None
            best, best_score = self.iteration_best
            done_depth = depth
            scored = this or []
            order.remove(best)
            order.insert(0, best)
            pv = self._principal_variation(position, best, depth)
            elapsed_ms = int((time.perf_counter() - start) * 1000)
            progress = Progress(depth, self.seldepth, score, self.nodes, elapsed_ms, pv)
            iterations.append(progress)
            if on_progress is not None:
                on_progress(progress)
            found = mate_plies(best_score)
            if found is not None and abs(found) <= depth and not choosing:
                break  # a mate inside the full-width horizon: no deeper search changes it
            if self._out_of_time():
                stopped = True
                break
        if scored and not is_decisive(best_score):
            chosen = loose_choice(
                position.copy(), scored, level.choice_cp, self.exchange, rng, rescue=level.rescues
            )
            if chosen != best:
                best, best_score, pv = chosen, dict(scored)[chosen], (chosen,)
        elapsed_ms = int((time.perf_counter() - start) * 1000)
        self.pos = self.idle  # drop the working copy
        return SearchResult(
            best,
            best_score,
            done_depth,
            max((p.seldepth for p in iterations), default=0),
            self.nodes,
            elapsed_ms,
            pv,
            False,
            stopped,
            iterations,
        )

    # --- budget --------------------------------------------------------------------------

    def _set_budget(self, limits: Limits, start: float) -> None:
        """The whole budget, for every iteration (a level stops at its ``max_depth``)."""
        self.deadline = 0.0
        if limits.movetime_ms is not None:
            self.deadline = start + max(1, limits.movetime_ms) / 1000
        self.node_limit = max(1, limits.nodes) if limits.nodes is not None else 0
        self._arm_poll()

    def _arm_poll(self) -> None:
        """Before an iteration: the next look at the clock, no later than the node limit."""
        self.next_poll = min(self.nodes + POLL_EVERY, self.node_limit or POLL_EVERY)

    def _out_of_time(self) -> bool:
        """Before another iteration: stop when stopped or the budget is spent.  A search goes
        on until its deadline (a cut-short iteration still improves the move)."""
        if self.stop is not None and self.stop.is_set():
            return True
        if self.node_limit and self.nodes >= self.node_limit:
            return True
        return bool(self.deadline) and time.perf_counter() >= self.deadline

    def _poll(self) -> None:
        """Unwind when stopped; when the budget is spent too, except in the first iteration
        (its few hundred nodes always finish, so that a tiny budget still gets a searched
        move, and a weak level its random choice)."""
        self.next_poll = self.nodes + POLL_EVERY
        if self.stop is not None and self.stop.is_set():
            raise _Abort
        if self.root_depth <= 1:
            return
        if self.node_limit:
            if self.nodes >= self.node_limit:
                raise _Abort
            self.next_poll = min(self.next_poll, self.node_limit)
        if self.deadline and time.perf_counter() >= self.deadline:
            raise _Abort

    # --- root ----------------------------------------------------------------------------

    def _root_mate(self, position: Position, level: Level, start: float) -> SearchResult | None:
        """A mate by checks alone within the level's length and a share of the budget: the
        move, at once.  Its nodes count against the node budget."""
        if not level.mate_plies:
            return None
        if self.node_limit:
            node_cap = max(1, int(self.node_limit * MATE_SHARE) // MATE_NODE_COST)
        else:
            node_cap = MATE_NODES_UNBOUNDED
        deadline = start + (self.deadline - start) * MATE_SHARE if self.deadline else 0.0
        probe = position.copy()
        stopped = self.stop.is_set if self.stop is not None else None
        found = self.mate.find(probe, level.mate_plies, node_cap, deadline, stopped)
        self.nodes += self.mate.nodes * MATE_NODE_COST
        if found is None:
            return None
        move, plies = found
        line = tuple(self.mate.line(probe, move, plies, MATE_NODES_UNBOUNDED))
        elapsed_ms = int((time.perf_counter() - start) * 1000)
        score = MATE - plies
        progress = Progress(plies, plies, score, self.nodes, elapsed_ms, line)
        return SearchResult(
            move, score, plies, plies, self.nodes, elapsed_ms, line, iterations=[progress]
        )

    def _prepare_root(self, position: Position) -> None:
        """A fresh working copy and the path of the game so far (hashes, checks); no best move
        of the iteration yet (reset here, not in ``search``, so that mypy does not narrow the
        attribute to None there: mypyc would compile that narrowing as a type check)."""
        self.iteration_best = None
        self.pos = position.copy()
        self.material = self.evaluator.material(self.pos)
        if not self.path_hashes:
            probe = position.copy()
            hashes = [probe.hash]
            checks = [probe.is_check()]
            while probe.ply:
                probe.pop()
                hashes.append(probe.hash)
                checks.append(probe.is_check())
            hashes.reverse()
            checks.reverse()
            self._history_hashes, self._history_checks = hashes, checks
        self.path_hashes = list(self._history_hashes)
        self.path_checks = list(self._history_checks)
        self.root_index = len(self.path_hashes) - 1

    def _initial_root_order(self, pos: Position, moves: list[Move]) -> list[Move]:
        keys = self.ordering.keys(pos, moves, self.tt.best_move(pos.hash), 0)
        return [moves[i] for i in _best_first(keys)]

    def _iterate(
        self,
        depth: int,
        order: list[Move],
        scored: list[tuple[Move, int]] | None,
        previous: int | None,
    ) -> int:
        """One iteration at ``depth``; aspiration window around the previous score.
        ``scored``: a list to fill with every root move's exact score (a weak level)."""
        if previous is None or depth < 4 or scored is not None or is_decisive(previous):
            return self._root(depth, -INFINITE, INFINITE, order, scored)
        window = ASPIRATION
        alpha, beta = previous - window, previous + window
        while True:
            score = self._root(depth, alpha, beta, order, None)
            if score <= alpha:
                alpha = max(-INFINITE, alpha - window * 4)
            elif score >= beta:
                beta = min(INFINITE, beta + window * 4)
            else:
                return score
            window *= 4
            if window > 2000:
                alpha, beta = -INFINITE, INFINITE

    def _root(
        self,
        depth: int,
        alpha: int,
        beta: int,
        order: list[Move],
        scored: list[tuple[Move, int]] | None,
    ) -> int:
        pos = self.pos
        ev = self.evaluator
        best = -INFINITE
        for i, move in enumerate(order):
            delta = ev.move_delta(pos, move)
            pos.make_unchecked(move)
            self.material += delta
            check = self.checks.gives_check(pos, move.from_sq, move.to_sq)
            self.path_hashes.append(pos.hash)
            self.path_checks.append(check)
            new_depth = depth - 1 + (1 if check else 0)
            if scored is not None:
                # exact scores for the moves within choice_cp of the best so far; a cheap
                # test at that floor for the others (their scores are then upper bounds)
                floor = best - self.choice_cp if best > -INFINITE else -INFINITE
                score = INFINITE  # the first move: the full window
                if floor > -INFINITE:
                    score = -self._search(new_depth, -floor - 1, -floor, 1, check, True)
                if score > floor:
                    score = -self._search(new_depth, -INFINITE, -floor, 1, check, True)
                scored.append((move, score))
            elif i == 0:
                score = -self._search(new_depth, -beta, -alpha, 1, check, True)
            else:
                score = -self._search(new_depth, -alpha - 1, -alpha, 1, check, True)
                if alpha < score < beta:
                    score = -self._search(new_depth, -beta, -alpha, 1, check, True)
            self.path_hashes.pop()
            self.path_checks.pop()
            pos.undo()
            self.material -= delta
            if score > best:
                best = score
                if score > alpha or self.iteration_best is None:
                    self.iteration_best = (move, score)
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    def _principal_variation(self, root: Position, first: Move, depth: int) -> tuple[Move, ...]:
        """The best line, following hash moves (each checked legal) from ``first``."""
        probe = root.copy()
        line = [first]
        probe.make_unchecked(first)
        seen = {probe.hash}
        while len(line) < max(depth, 1) + 4:
            move = self.tt.best_move(probe.hash)
            if move is None or move not in legal_moves(probe):
                break
            probe.make_unchecked(move)
            if probe.hash in seen:
                line.append(move)
                break
            seen.add(probe.hash)
            line.append(move)
        return tuple(line)

    # --- the tree ------------------------------------------------------------------------

    def _search(
        self, depth: int, alpha: int, beta: int, ply: int, in_check: bool, null_ok: bool
    ) -> int:
        pos = self.pos
        if pos.repetitions() >= 2 and (
            pos.repetitions() >= self.repetition_count
            or earlier_occurrence(self.path_hashes) >= self.root_index
        ):
            return repetition_score(
                self.path_hashes, self.path_checks, self.perpetual_check_loses, ply
            )
        if self.impasse and not in_check and self._may_declare(pos):
            return RULE_WIN - ply  # the side to move declares an impasse win
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, in_check, 0)
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self._poll()
        key = pos.hash
        if ply >= MAX_PLY:
            return self.evaluator.evaluate(pos, self.material)
        # mate distance: no line from here beats a mate already found nearer the root
        if alpha < -MATE + ply:
            alpha = -MATE + ply
            if alpha >= beta:
                return alpha
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
            if alpha >= beta:
                return beta
        pv_node = beta - alpha > 1
        hash_move: Move | None = None
        entry = self.tt.entries.get(key)
        if entry is not None:
            e_depth, e_flag, e_score, hash_move = entry
            if e_depth >= depth and not pv_node:
                e_score = score_from_table(e_score, ply)
                if (
                    e_flag == EXACT
                    or (e_flag == LOWER and e_score >= beta)
                    or (e_flag == UPPER and e_score <= alpha)
                ):
                    return e_score
        ev = self.evaluator
        futile = False
        late = (
            LATE_MOVES[depth] if depth < len(LATE_MOVES) and not pv_node and not in_check else 9999
        )
        if not in_check and not pv_node and not self._rival_may_declare(pos):
            static = ev.evaluate(pos, self.material)
            if depth <= 2 and static - REVERSE_FUTILITY * depth >= beta and beta < RULE_BOUND:
                return static
            if (
                null_ok
                and depth >= 3
                and static >= beta
                and beta < RULE_BOUND
                and self._null_move_safe(pos)
            ):
                score = self._null_move(depth, beta, ply)
                if score >= beta:
                    return beta
            if depth <= FUTILITY_DEPTH and static + FUTILITY_MARGIN * depth <= alpha:
                futile = True

        board = pos.board
        path_hashes, path_checks = self.path_hashes, self.path_checks
        extend_ok = ply < 2 * self.root_depth
        best = -INFINITE
        best_move: Move | None = None
        flag = UPPER
        searched = 0
        any_move = False
        checks = self.checks
        for move in self._moves_in_order(pos, hash_move, ply, in_check):
            frm, to = move.from_sq, move.to_sq
            unchecked = not in_check and not move.drop and move is not hash_move
            taken = board[to]
            quiet = move.drop != 0 or (not taken and not move.promote)
            if (
                quiet
                and searched
                and (futile or searched >= late)
                and not checks.quiet_move_checks(pos, move)
                and (
                    futile
                    or depth < 2
                    or not checks.threatens(pos, frm, to, _moved(pos, move), ev.piece_value)
                )
            ):
                continue  # futile, or a late quiet move near the leaves: not worth a search
            delta = ev.move_delta(pos, move)
            pos.make_unchecked(move)
            if unchecked and checks.exposed_own_king(pos, frm, to):
                pos.undo()
                continue
            any_move = True
            check = checks.gives_check(pos, frm, to)
            self.material += delta
            path_hashes.append(pos.hash)
            path_checks.append(check)
            new_depth = depth - 1
            # a check is searched a ply deeper, unless the piece that moved is simply lost
            # (most often the checker): such a sacrifice pays only if the search finds why
            if check and extend_ok and not self.exchange.mover_lost(pos, to, taken):
                new_depth += 1
            if searched == 0:
                score = -self._search(new_depth, -beta, -alpha, ply + 1, check, True)
            else:
                reduction = 0
                if (
                    depth >= 3
                    and searched >= 3
                    and quiet
                    and not check
                    and not in_check
                    and not checks.threatens(pos, frm, to, board[to], ev.piece_value)
                ):
                    reduction = 1 + (searched >= 8) + (depth >= 7)
                score = -self._search(
                    new_depth - reduction, -alpha - 1, -alpha, ply + 1, check, True
                )
                if score > alpha and reduction:
                    score = -self._search(new_depth, -alpha - 1, -alpha, ply + 1, check, True)
                if alpha < score < beta:
                    score = -self._search(new_depth, -beta, -alpha, ply + 1, check, True)
            path_hashes.pop()
            path_checks.pop()
            pos.undo()
            self.material -= delta
            searched += 1
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    flag = EXACT
                    if score >= beta:
                        flag = LOWER
                        if quiet:
                            self.ordering.reward(pos, move, depth, ply)
                        break
        if not any_move:
            return -MATE + ply  # checkmate, or no move at all: a loss either way
        self.tt.store(key, depth, best, flag, ply, best_move)
        return best

    def _moves_in_order(
        self, pos: Position, hash_move: Move | None, ply: int, in_check: bool
    ) -> Iterator[Move]:
        """The hash move first, before any generation (it often cuts the node off); then
        board moves, best first; then drops, generated only if the board moves did not cut
        the node off.  In check: the rules core's legal moves.  Only the board moves after
        the hash move, out of check, still need the own-king test."""
        if hash_move is not None and self._still_playable(pos, hash_move):
            yield hash_move
        for stage in range(1 if in_check else 2):
            if in_check:
                moves = legal_moves(pos)
            elif stage == 0:
                moves = self.staged.board_moves(pos)
            else:
                moves = self.staged.drops(pos)
            if not moves:
                continue
            keys = self.ordering.keys(pos, moves, hash_move, ply)
            first = _best_index(keys)
            move = moves[first]
            if hash_move is None or move != hash_move:
                yield move
            if len(moves) > 1:  # the rest sorted only when the first did not cut off
                for i in _best_first(keys):
                    if i != first:
                        move = moves[i]
                        if hash_move is None or move != hash_move:
                            yield move

    def _may_declare(self, pos: Position) -> bool:
        """The side to move, not in check, may declare an impasse win (tested in full only
        when its king stands in the promotion zone)."""
        king = pos.kings[pos.side]
        if king < 0 or not self.zone[pos.side][king]:
            return False
        return not impasse_report(pos).unmet

    def _rival_may_declare(self, pos: Position) -> bool:
        """The other side's king stands in its promotion zone: an impasse declaration, which
        the static score does not see, may be a move away (no pruning on that score)."""
        if not self.impasse:
            return False
        king = pos.kings[pos.side ^ 1]
        return king >= 0 and bool(self.zone[pos.side ^ 1][king])

    def _still_playable(self, pos: Position, move: Move) -> bool:
        """A hash move fits this position (only a 64-bit key collision could make it not):
        the mover's piece or hand piece is there, the target is free or an enemy's, and it
        does not leave the mover's king attacked."""
        frm, to, _promote, drop = move
        board = pos.board
        sign = 1 if pos.side == SENTE else -1
        if drop:
            if not pos.hands[pos.side][drop] or board[to]:
                return False
        elif board[frm] * sign <= 0 or board[to] * sign > 0 or to == pos.kings[pos.side ^ 1]:
            return False
        side = pos.side
        pos.make_unchecked(move)
        king = pos.kings[side]
        safe = king < 0 or not attacked(pos, king, side ^ 1)
        pos.undo()
        return safe

    def _null_move_safe(self, pos: Position) -> bool:
        """Passing is a fair test only when the side to move has moves to spare: a piece in
        hand, or at least ``NULL_MOVE_PIECES`` pieces besides the king (with fewer, as in a
        bare endgame without drops, having to move may be what loses: zugzwang)."""
        if any(pos.hands[pos.side]):
            return True
        board = pos.board
        count = 0
        if pos.side == SENTE:
            for v in board:
                if v > 0:
                    count += 1
        else:
            for v in board:
                if v < 0:
                    count += 1
        return count > NULL_MOVE_PIECES  # the king is one of them

    def _null_move(self, depth: int, beta: int, ply: int) -> int:
        """Let the other side move twice: if we still reach ``beta``, this node will too."""
        pos = self.pos
        z = self.z_side
        pos.side ^= 1
        pos.hash ^= z
        self.path_hashes.append(pos.hash)
        self.path_checks.append(False)
        reduction = 2 + depth // 6
        try:
            return -self._search(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False, False)
        finally:
            self.path_hashes.pop()
            self.path_checks.pop()
            pos.side ^= 1
            pos.hash ^= z

    def _quiesce(self, alpha: int, beta: int, ply: int, in_check: bool, qply: int) -> int:
        self.nodes += 1
        if self.nodes >= self.next_poll:
            self._poll()
        if ply > self.seldepth:
            self.seldepth = ply
        pos = self.pos
        ev = self.evaluator
        if in_check and qply < QUIESCENCE_EVASION_PLIES and ply < MAX_PLY:
            return self._evasions(alpha, beta, ply, qply)
        stand = ev.evaluate(pos, self.material)
        if stand >= beta or ply >= MAX_PLY:
            return stand
        # In check this deep: the static score is an estimate and only the captures are
        # searched (those that answer the check), such as taking the piece that just checked.
        if stand > alpha:
            alpha = stand
        best = stand
        checks = self.checks
        board = pos.board
        exchange = self.exchange
        worth = exchange.worth
        tactical = self.tactical
        n = tactical.fill(pos, qply == 0, ply)
        for _ in range(n):
            at = tactical.pick(ply, n)
            won = tactical.wons[at]
            if stand + won + DELTA_MARGIN <= alpha:
                break  # taken by gain first among captures: the rest gain even less
            move = tactical.moves[at]
            assert move is not None
            frm, to = move.from_sq, move.to_sq
            # the exchange on the square loses material: not worth a look unless it checks
            losing = worth[board[frm]] > won and exchange.value(pos, move) < 0
            delta = ev.move_delta(pos, move)
            pos.make_unchecked(move)
            if (
                attacked(pos, pos.kings[pos.side ^ 1], pos.side)
                if in_check
                else checks.exposed_own_king(pos, frm, to)
            ):
                pos.undo()
                continue
            check = checks.gives_check(pos, frm, to)
            if losing and not check:
                pos.undo()
                continue
            self.material += delta
            score = -self._quiesce(-beta, -alpha, ply + 1, check, qply + 1)
            pos.undo()
            self.material -= delta
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    def _evasions(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        """In check inside the quiescence search: every legal reply, captures first."""
        pos = self.pos
        moves = legal_moves(pos)
        if not moves:
            return -MATE + ply
        keys = self.ordering.keys(pos, moves, None, min(ply, MAX_PLY))
        ev = self.evaluator
        best = -INFINITE
        for i in _best_first(keys):
            move = moves[i]
            delta = ev.move_delta(pos, move)
            pos.make_unchecked(move)
            self.material += delta
            check = self.checks.gives_check(pos, move.from_sq, move.to_sq)
            score = -self._quiesce(-beta, -alpha, ply + 1, check, qply + 1)
            pos.undo()
            self.material -= delta
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best
