"""Positions rebuilt from a game's start SFEN and USI moves, every move checked, and cached."""

from __future__ import annotations

from collections import OrderedDict

from bot.store.models import GameRow
from rules import Position, RulesError, load_variant


class DamagedRecordError(Exception):
    """A stored game does not replay: its start SFEN or a move is not legal."""

    def __init__(self, game_id: int, ply: int, problem: str) -> None:
        super().__init__(f"game {game_id}, move {ply}: {problem}")
        self.game_id = game_id
        self.ply = ply
        self.problem = problem


class PositionCache:
    """Current positions by game id and version; hands out copies callers may change."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._entries: OrderedDict[int, tuple[int, Position]] = OrderedDict()

    def position(self, game: GameRow) -> Position:
        """The position after every move of ``game`` (a fresh copy).  A miss replays the
        whole game here: on the event loop, prefer ``ServiceBase.position_of``."""
        pos = self.cached(game)
        if pos is None:
            pos = replay(game)
            self.put(game, pos)  # keeps its own copy
        return pos

    def cached(self, game: GameRow) -> Position | None:
        """A fresh copy of the position of ``game`` at its version, if cached."""
        entry = self._entries.get(game.id)
        if entry is None or entry[0] != game.version:
            return None
        self._entries.move_to_end(game.id)
        return entry[1].copy()

    def put(self, game: GameRow, pos: Position) -> None:
        """Remember ``pos`` as the position of ``game`` at its version (keeps a copy)."""
        self._entries[game.id] = (game.version, pos.copy())
        self._entries.move_to_end(game.id)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def forget(self, game_id: int) -> None:
        self._entries.pop(game_id, None)


def replay(game: GameRow) -> Position:
    """Set up the start position and play every stored move, checking each."""
    try:
        pos = Position.from_sfen(load_variant(game.variant), game.start_sfen)
    except RulesError as exc:
        raise DamagedRecordError(game.id, 0, exc.message) from None
    for ply, usi in enumerate(game.moves, 1):
        try:
            pos.push_usi(usi)
        except RulesError as exc:
            raise DamagedRecordError(game.id, ply, f"{usi}: {exc.message}") from None
    return pos
