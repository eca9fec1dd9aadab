"""A game service on a real SQLite file with a fake clock and a recording outbox."""

from __future__ import annotations

import asyncio
import inspect
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.config import Config
from bot.core.api import ChatKey, Reply, Request, User
from bot.core.clock import FakeClock
from bot.core.games import new_game
from bot.core.opponent.engine_runner import Engine
from bot.core.puzzle_book import PuzzleBook
from bot.core.service import GameService
from bot.store import GameRow, SqliteStore
from bot.store.models import ENGINE_PLAYER
from engine.analysis import Budget

MAIN = ChatKey("console", "main")
QUICK_MOVETIME_MS = 50  # the bot's time per move in tests: real searches, quickly
ANALYSIS_BUDGET = Budget(nodes=300)  # /analyse in tests: real searches, repeatable, quick


def person(name: str) -> User:
    return User("console", name, name.capitalize())


ALICE, BOB, CAROL, DAVE = (person(n) for n in ("alice", "bob", "carol", "dave"))


@dataclass
class RecordingOutbox:
    """Keeps what the service sends on its own; shows text boards, as the console does."""

    shows_text_board = True

    sent: list[tuple[ChatKey, Reply]] = field(default_factory=list)
    edits: list[tuple[ChatKey, str, Reply]] = field(default_factory=list)

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        self.sent.append((chat, reply))

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        self.edits.append((chat, card, reply))


class Harness:
    def __init__(
        self,
        path: Path,
        clock: FakeClock,
        config: Config,
        engine: Engine | None = None,
        *,
        open_store: Callable[[], Awaitable[Any]] | None = None,
        analysis_budget: Budget = ANALYSIS_BUDGET,
        puzzle_book: PuzzleBook | None = None,
    ) -> None:
        self.path = path
        self.open_store = open_store  # None: the SQLite file at ``path``
        self.clock = clock
        self.config = config
        self.engine = engine  # None: the engine the configuration says (worker processes)
        self.analysis_budget = analysis_budget
        self.puzzle_book = puzzle_book  # None: the shipped collections
        self.outbox = RecordingOutbox()
        self.store: SqliteStore
        self.service: GameService

    async def open(self) -> Harness:
        if self.open_store is not None:
            self.store = await self.open_store()
        else:
            self.store = await SqliteStore.open(self.path, sync="normal")
        self.service = GameService(
            self.store,
            self.config,
            clock=self.clock,
            outboxes={"console": self.outbox},
            rng=random.Random(7),
            render_images=False,
            engine=self.engine,
            analysis_budget=self.analysis_budget,
            puzzle_book=self.puzzle_book,
        )
        return self

    async def restart(self) -> None:
        """Close and reopen the database with a fresh service (as after a process restart)."""
        await self.close()
        await self.open()

    async def close(self) -> None:
        await self.service.analyses.close()  # analyses under way: given up for the next start
        await self.service.bot_player.close(timeout=0)  # the bot's turns left for the restart
        await self.store.close()

    async def say(
        self, user: User, command: str, *args: str, chat: ChatKey = MAIN, target: User | None = None
    ) -> Reply:
        return await self.service.handle(Request(chat, user, command, args, target=target))

    async def start_game(
        self,
        sente: User = ALICE,
        gote: User = BOB,
        variant: str = "shogi",
        time: str = "1d",
        chat: ChatKey = MAIN,
    ) -> GameRow:
        reply = await self.say(sente, "challenge", variant, "sente", time, chat=chat, target=gote)
        assert reply.card is not None, reply.text
        reply = await self.say(gote, "accept", chat=chat)
        assert "begins" in reply.text, reply.text
        game = await self.store.active_game(chat, sente.key)
        assert game is not None
        return game

    async def game(self, game_id: int) -> GameRow:
        game = await self.store.get_game(game_id)
        assert game is not None
        return game

    async def play(self, game: GameRow, *moves: str) -> Reply:
        """Play ``moves`` alternately by the game's players, each one checked as played."""
        reply = Reply("")
        for text in moves:
            current = await self.game(game.id)
            side = len(current.moves) % 2
            user = ALICE if current.player(side) == ALICE.key else _by_key(current.player(side))
            reply = await self.say(user, "move", text, str(game.id))
            assert "played" in reply.text, reply.text
        return reply


async def until(check: Callable[[], bool | Awaitable[bool]], timeout: float = 10.0) -> None:
    """Wait until ``check()`` (a test, or a coroutine function) holds: polled every 10 ms, for
    at most ``timeout`` seconds of wall time (a loaded machine may take a while)."""
    async with asyncio.timeout(timeout):
        while True:
            result = check()
            if await result if inspect.isawaitable(result) else result:
                return
            await asyncio.sleep(0.01)


def bot_to_move(chat: ChatKey = MAIN, human: User = ALICE, variant: str = "shogi") -> GameRow:
    """A new game of ``variant`` against the bot, level 1, the bot to move (sente)."""
    return new_game(chat, variant, (ENGINE_PLAYER, human.key), None, time.time(), engine_level=1)


def _by_key(key: str) -> User:
    return person(key.partition(":")[2])
