"""A storm of moves for the crash test: ``python -m tests.bot.core.storm DB GAMES``.

Plays random legal moves in several games through the game service and prints
``ACK <game> <ply> <usi>`` after each move the service acknowledged, until killed.
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


async def storm(path: Path, games: int) -> None:
    store = await SqliteStore.open(path)
    service = GameService(store, Config(), render_images=False, rng=random.Random(1))
    rng = random.Random(2)
    ids = []
    for i in range(games):
        chat = ChatKey("console", f"room{i}")
        a, b = User("console", f"a{i}", f"A{i}"), User("console", f"b{i}", f"B{i}")
        await service.handle(Request(chat, a, "challenge", ("shogi", "sente"), target=b))
        await service.handle(Request(chat, b, "accept"))
        game = await store.active_game(chat, a.key)
        assert game is not None
        ids.append(game.id)
    print("READY", flush=True)
    while True:
        gid = rng.choice(ids)
        game = await store.get_game(gid)
        if game is None or not game.active:
            continue
        pos = service.games.positions.position(game)
        move = rng.choice(pos.legal_moves())
        usi = pos.usi(move)
        mover = game.player(pos.side)
        user = User("console", mover.partition(":")[2], "x")
        chat = ChatKey("console", game.chat.chat_id)
        reply = await service.handle(Request(chat, user, "move", (usi, str(gid))))
        if " played " in reply.text and not reply.ephemeral:
            print(f"ACK {gid} {len(game.moves) + 1} {usi}", flush=True)


if __name__ == "__main__":
    asyncio.run(storm(Path(sys.argv[1]), int(sys.argv[2])))
