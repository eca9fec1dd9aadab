"""Mining mate problems from engine self-play and from game records.

Positions are handed to the prover with a small node budget; the ones proven (a mate with a
single key move) become puzzles, and so do the positions their solutions let the defence
reach (see :func:`puzzles_around`).  From a self-play game that ended in mate, the positions of
its last plies with the winner to move are searched (a position without a mate costs the
whole budget, and self-play mates come at the end); from a record, every position is.  Self-play
uses the engine at a low level with a node limit and a seed per move, so that a seed gives
the same games, hence the same puzzles, on every machine: nothing depends on the clock.
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice

from engine import Engine, Limits
from puzzles.prover import Verdict, checking_moves, prove
from puzzles.puzzle import Puzzle, make_puzzle, position_key
from puzzles.settings import MiningSettings
from rules import Position, Termination, Variant, load_variant
from rules.records import GameRecord


def derived_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from ``seed`` and a path of names: the same everywhere (no ``hash``)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def self_play(variant: Variant, seed: int, settings: MiningSettings) -> Iterator[Position]:
    """The positions of one engine game from the start (a copy each), until it ends."""
    engine = Engine(variant, hash_mb=4)
    pos = Position.start(variant)
    limits = Limits(nodes=settings.engine_nodes)
    while pos.ply < settings.max_game_plies:
        yield pos.copy()
        if pos.outcome() is not None:
            return
        result = engine.think(
            pos, level=settings.level, limits=limits, seed=derived_seed(seed, pos.ply)
        )
        if result.best_move is None:
            return
        pos.push_usi(result.best_move)


def mating_tail(game: list[Position], plies: int) -> list[Position]:
    """The positions with the winner to move among the last ``plies`` plies of a game that
    ended in checkmate (none for any other ending)."""
    if not game:
        return []
    end = game[-1].outcome()
    if end is None or end.termination is not Termination.CHECKMATE:
        return []
    return [p for p in game[-plies - 1 : -1] if p.side == end.winner]


def record_positions(record: GameRecord) -> Iterator[Position]:
    """Every position of a game record, the start included (moves checked by the rules)."""
    pos = record.start_position()
    yield pos.copy()
    for text in record.moves:
        pos.push_usi(text)
        yield pos.copy()


def puzzle_at(pos: Position, settings: MiningSettings, source: str) -> Puzzle | None:
    """The position as a puzzle if the side to move has a proven mate with one key move."""
    checks = checking_moves(pos)
    if not checks:
        return None
    proof = prove(pos, settings.max_plies, settings.node_limit)
    if proof.verdict is not Verdict.MATE:
        return None
    sfen = position_key(pos.sfen()) + " 1"
    return make_puzzle(pos.variant.id, sfen, pos.side, proof, len(checks), source)


def puzzles_around(pos: Position, settings: MiningSettings, source: str) -> Iterator[Puzzle]:
    """The position as a puzzle, then, if it is one, the positions its solution lets the
    defence reach with the attacker to move again (every reply at every defender turn of the
    line), each proven on its own, and theirs in turn, nearest first: the neighbours of a
    mate are mates too, and often with a single key move of their own."""
    queue = deque([(pos, source)])
    seen = {position_key(pos.sfen())}
    while queue:
        here, where = queue.popleft()
        found = puzzle_at(here, settings, where)
        if found is None:
            continue
        yield found
        work = here.copy()
        played: list[str] = []
        for text in found.solution[:-1]:
            work.push_usi(text)
            played.append(text)
            if work.side == here.side:
                continue
            for reply in work.legal_moves():
                work.make_unchecked(reply)
                key = position_key(work.sfen())
                if key not in seen:
                    seen.add(key)
                    path = ",".join([*played, work.usi(reply)])
                    queue.append((work.copy(), f"{where}/{path}"))
                work.undo()


def mine_positions(
    positions: Iterable[tuple[Position, str]], settings: MiningSettings
) -> Iterator[Puzzle]:
    for pos, source in positions:
        yield from puzzles_around(pos, settings, source)


def game_puzzles(
    variant_id: str, seed: int, game: int, settings: MiningSettings
) -> Iterator[Puzzle]:
    """The puzzles of self-play game number ``game`` (lazily, in the order found)."""
    variant = load_variant(variant_id)
    source = f"selfplay:{seed}:{game}"
    played = list(self_play(variant, derived_seed(seed, variant_id, game), settings))
    positions = ((p, f"{source}:{p.ply}") for p in mating_tail(played, settings.tail_plies))
    return mine_positions(positions, settings)


_Task = tuple[str, int, int, MiningSettings]


def _first_puzzles(task: _Task) -> tuple[list[Puzzle], bool]:
    """In a worker: a game's first puzzles, ``per_game`` and two more (in case some are
    duplicates of earlier games' ones), and whether that is all of them."""
    limit = task[3].per_game + 2
    out = list(islice(game_puzzles(*task), limit + 1))
    return out[:limit], len(out) <= limit


def _selfplay_game(puzzle: Puzzle, seed: int) -> int:
    """The number of the self-play game of ``seed`` a puzzle comes from; ValueError if it
    comes from elsewhere."""
    kind, _, rest = puzzle.source.partition(":")
    their_seed, _, game = rest.partition(":")
    if kind != "selfplay" or their_seed != str(seed):
        raise ValueError(
            f"{puzzle.id} comes from {puzzle.source}, not a self-play game of seed {seed}"
        )
    return int(game.partition(":")[0])


def _game_streams(
    variant_id: str, seed: int, settings: MiningSettings, games: range, jobs: int
) -> Iterator[tuple[str, Iterable[Puzzle]]]:
    """Each game's puzzles in game order; with ``jobs`` > 1 the games are played by that
    many worker processes, and what the caller sees is the same as with one."""
    if jobs <= 1:
        for game in games:
            yield f"selfplay:{seed}:{game}", game_puzzles(variant_id, seed, game, settings)
        return
    tasks = ((variant_id, seed, game, settings) for game in games)
    with multiprocessing.Pool(jobs) as pool:
        for game, (first, complete) in zip(games, pool.imap(_first_puzzles, tasks), strict=False):
            rest: Iterable[Puzzle] = ()
            if not complete:  # duplicates may leave fewer than asked: find the rest here
                rest = islice(game_puzzles(variant_id, seed, game, settings), len(first), None)
            yield f"selfplay:{seed}:{game}", chain(first, rest)


def mine(
    variant_id: str,
    count: int,
    seed: int,
    settings: MiningSettings,
    records: Iterable[tuple[str, GameRecord]] = (),
    on_game: Callable[[str, int], None] | None = None,
    max_games: int = 100_000,
    on_puzzle: Callable[[Puzzle], object] | None = None,
    jobs: int = 1,
    resume: Sequence[Puzzle] = (),
) -> list[Puzzle]:
    """Up to ``count`` distinct puzzles: first from ``records`` (name, record), every
    position of each, then from self-play games numbered 0, 1, 2... (each seeded from
    ``seed`` and its number), the winner's positions of each game's last ``tail_plies``.
    At most ``per_game`` from each.  Sorted by length, difficulty and id.
    ``on_game(source, found so far)`` is told after each game, ``on_puzzle(puzzle)`` of each
    new puzzle as it is found; ``jobs``: worker processes for the self-play games (the
    result does not depend on it).  ``resume``: what an interrupted run with the same
    arguments found (its ``on_puzzle`` calls, in order, no records): the run goes on from
    there, mining again the last game it had puzzles from, with the same result (the kept
    ones are handed to ``on_puzzle`` again first)."""
    found: dict[str, Puzzle] = {}
    first_game = 0
    if resume:
        first_game = max(_selfplay_game(p, seed) for p in resume)
        for puzzle in resume:
            if _selfplay_game(puzzle, seed) < first_game and len(found) < count:
                found[position_key(puzzle.sfen)] = puzzle
                if on_puzzle is not None:
                    on_puzzle(puzzle)
        records = ()

    def take(puzzles: Iterable[Puzzle], source: str) -> bool:
        kept = 0
        for puzzle in puzzles:
            key = position_key(puzzle.sfen)
            if key in found:
                continue
            found[key] = puzzle
            kept += 1
            if on_puzzle is not None:
                on_puzzle(puzzle)
            if len(found) >= count or kept >= settings.per_game:
                break
        if on_game is not None:
            on_game(source, len(found))
        return len(found) >= count

    done = len(found) >= count
    for name, record in records:
        source = f"record:{name}"
        positions = ((p, f"{source}:{p.ply}") for p in record_positions(record))
        if take(mine_positions(positions, settings), source):
            done = True
            break
    if not done:
        games = range(first_game, max_games)
        for source, puzzles in _game_streams(variant_id, seed, settings, games, jobs):
            if take(puzzles, source):
                break
    return sorted(found.values(), key=lambda p: (p.mate_in, p.difficulty, p.id))
