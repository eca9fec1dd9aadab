"""One bot process of the soak test (see test_soak.py), on a PostgreSQL database.

``play URL WORKER GAMES LOG``: start GAMES games in chats of their own and play them, writing
each move the service acknowledged (``move CHAT PLY MOVE``) to LOG as it comes.
``fire URL WORKER START LOG [stuck | after STUCK_LOG]``: once connected, make the file
``LOG.ready`` and wait for the file START, which holds the wall-clock time T0 (the test writes
it when every firing process is ready, however slowly a loaded machine started them); from T0
on, fire the due timers and deliver the notices for :data:`FIRE_FOR` seconds of bot time,
writing each reminder sent (``sent CHAT``); ``stuck`` never returns from its first send (the
test kills it there).  ``after STUCK_LOG`` starts firing only once the stuck process has
written its first attempt there: else, on a loaded machine, the other two can claim every
due timer before the stuck one looks, and it ends with nothing claimed.

Playing processes run on a fake clock standing at :data:`START`, so every game has its
reminder due at the same moment.  Firing processes share one clock: bot time runs from when the
reminders are due, :data:`SPEED` times as fast as the wall clock from T0 on, so that leases
(a minute for a message, two for timers) end in every process at once, within seconds.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import TextIO

from bot.config import Config
from bot.core.api import ChatKey, Reply, Request, User
from bot.core.clock import FakeClock
from bot.core.service import GameService
from bot.store.postgres import PostgresStore

START = 1_750_000_000.0
DAY, HOUR = 86400, 3600
MOVES = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e")
CONFIG = Config(reminders=(HOUR,))
SPEED = 60.0  # bot seconds per wall-clock second while firing
FIRE_FOR = 600.0  # bot seconds of firing: well past the leases of a process that died holding
# work (two minutes), so that a loaded machine still has seconds of wall time to take it up


class SharedClock:
    """Bot time from the moment the reminders are due, running SPEED times as fast as the wall
    clock from ``t0`` on (the same in every process given the same ``t0``)."""

    def __init__(self, t0: float) -> None:
        self.t0 = t0
        self.due = START + DAY - HOUR + 1  # the reminders, an hour before the deadlines

    def now(self) -> float:
        return self.due + max(0.0, time.time() - self.t0) * SPEED

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / SPEED)

    async def sleep_until(self, when: float) -> None:
        await self.sleep(when - self.now())


class LoggingOutbox:
    """Writes each reminder it sends to the log (the line is the acknowledgement)."""

    shows_text_board = False

    def __init__(self, log: TextIO, stuck: bool) -> None:
        self.log = log
        self.stuck = stuck

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        if self.stuck:
            print("attempt", file=self.log, flush=True)
            await asyncio.Event().wait()
        if reply.text.startswith("⏰"):  # the reminder (messages: clock.reminder)
            print(f"sent {chat.chat_id}", file=self.log, flush=True)

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        return None


async def play(service: GameService, worker: int, games: int, log: TextIO) -> None:
    for g in range(games):
        chat = ChatKey("console", f"w{worker}g{g}")
        sente, gote = (User("console", f"w{worker}g{g}{side}", side) for side in "sg")
        await service.handle(
            Request(chat, sente, "challenge", ("shogi", "sente", "1d"), target=gote)
        )
        await service.handle(Request(chat, gote, "accept", ()))
        for ply, move in enumerate(MOVES[: 1 + g % len(MOVES)]):
            reply = await service.handle(Request(chat, (sente, gote)[ply % 2], "move", (move,)))
            if " played " in reply.text:
                print(f"move {chat.chat_id} {ply} {move}", file=log, flush=True)


async def fire(service: GameService, clock: SharedClock, after: Path | None) -> None:
    while after is not None and not lines_in(after):  # the stuck process has claimed first
        await asyncio.sleep(0.02)
    while clock.now() < clock.due + FIRE_FOR:
        await service.fire_due()
        await asyncio.sleep(0.05)


def lines_in(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0


async def start_time(log_path: str, start: Path) -> float:
    """Say this process is ready (``LOG.ready``), then wait for T0 in the file ``start``."""
    Path(f"{log_path}.ready").touch()
    while not start.exists():
        await asyncio.sleep(0.02)
    return float(start.read_text(encoding="utf-8"))


async def main(
    mode: str, url: str, worker: int, number: str, log_path: str, extra: list[str]
) -> None:
    stuck = extra == ["stuck"]
    after = Path(extra[1]) if extra[:1] == ["after"] else None
    store = await PostgresStore.open(url, pool_size=4)
    if mode == "play":
        clock: FakeClock | SharedClock = FakeClock(START)
    else:
        clock = SharedClock(await start_time(log_path, Path(number)))
    with open(log_path, "a", buffering=1, encoding="utf-8") as log:
        service = GameService(
            store,
            CONFIG,
            clock=clock,
            outboxes={"console": LoggingOutbox(log, stuck)},
            render_images=False,
        )
        try:
            if mode == "play":
                await play(service, worker, int(number), log)
            else:
                assert isinstance(clock, SharedClock)
                await fire(service, clock, after)
        finally:
            await service.bot_player.close(timeout=0)
            await store.close()
    print("done", file=sys.stderr)


if __name__ == "__main__":
    mode, url, worker, number, log_path, *rest = sys.argv[1:]
    asyncio.run(main(mode, url, int(worker), number, log_path, rest))
