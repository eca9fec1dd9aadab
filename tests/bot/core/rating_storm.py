"""Rated games finished one after another, for the ratings crash test:
``python -m tests.bot.core.rating_storm DB``.

Two players start a game, play two moves each, and one resigns, again and again; after each
finished game whose reply showed the rating line it prints ``RATED <game>``, until killed.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from bot.config import Config
from bot.core.api import ChatKey, Request, User
from bot.core.service import GameService
from bot.store import SqliteStore

OPENING = ("7g7f", "3c3d", "2g2f", "8c8d")


async def storm(path: Path) -> None:
    store = await SqliteStore.open(path)
    service = GameService(store, Config(), render_images=False, rng=random.Random(1))
    rng = random.Random(3)
    chat = ChatKey("console", "room", community="server")
    people = [User("console", name, name.capitalize()) for name in ("ann", "ben", "cid")]
    while True:
        sente, gote = rng.sample(people, 2)
        await service.handle(Request(chat, sente, "challenge", ("shogi", "sente"), target=gote))
        await service.handle(Request(chat, gote, "accept"))
        for n, move in enumerate(OPENING):
            await service.handle(Request(chat, (sente, gote)[n % 2], "move", (move,)))
        loser = rng.choice((sente, gote))
        reply = await service.handle(Request(chat, loser, "resign", ("yes",)))
        if "Ratings" in reply.text:
            print("RATED", reply.text.split("#", 1)[1].split(" ", 1)[0], flush=True)


if __name__ == "__main__":
    asyncio.run(storm(Path(sys.argv[1])))
