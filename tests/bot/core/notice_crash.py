"""A timer pass that dies while sending: ``python -m tests.bot.core.notice_crash DB NOW MODE``.

It fires what is due at time NOW on the database DB through an outbox that announces each send
on stdout and then hangs, waiting for the SIGKILL the test sends: MODE ``before`` prints
``SENDING <chat> <first line>`` (the platform never got the message); MODE ``after`` prints
``SENT <chat> <first line>`` (the platform has it; the database does not know yet).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.config import Config
from bot.core.api import ChatKey, Reply
from bot.core.clock import FakeClock
from bot.core.service import GameService
from bot.store import SqliteStore


class HangingOutbox:
    def __init__(self, mode: str) -> None:
        self.mode = mode

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        word = "SENT" if self.mode == "after" else "SENDING"
        print(word, chat.chat_id, reply.text.splitlines()[0], flush=True)
        await asyncio.Event().wait()  # until killed

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        """Challenge cards are not what this is about."""


async def main(db: Path, now: float, mode: str) -> None:
    store = await SqliteStore.open(db, sync="normal")
    service = GameService(
        store,
        Config(),
        clock=FakeClock(now),
        outboxes={"console": HangingOutbox(mode)},
        render_images=False,
    )
    await service.fire_due()
    print("DONE", flush=True)  # nothing was sent at all
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3]))
