"""/analyse on Telegram: the progress card edited in place, then the graph as a photo."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.analysis import Budget
from tests.bot.telegram.fake_botapi import FakeBotApi
from tests.bot.telegram.test_telegram_games import ALICE, BOB, MATE, bot_over, start_game


async def test_analyse_edits_its_card_then_sends_the_graph(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    group = fake.group_chat(-1001, "Shogi club")
    async with bot_over(fake, tmp_path) as (service, _front):
        service.analyses.budget = Budget(nodes=300)  # repeatable and quick
        await start_game(fake, group)
        for number, move in enumerate(MATE):
            fake.send_text(group, (ALICE, BOB)[number % 2], f"/move {move}")
            await fake.expect(1)
        fake.send_text(group, BOB, "/analyse")
        (card,) = await fake.expect(1)
        assert card["text"] == f"Analysing game #1: move 0 of {len(MATE)}…"
        (graph,) = await fake.expect(1, timeout=60)
        await service.analyses.settle()
        async with asyncio.timeout(30):  # the card's last edit may come after the graph
            while fake.messages[(group["id"], card["message_id"])]["text"].endswith("…"):
                await asyncio.sleep(0.01)
        edited = fake.messages[(group["id"], card["message_id"])]
    assert graph["photo"] and graph["_upload"].data.startswith(b"\x89PNG")
    assert graph["caption"].startswith("Analysis of game #1, Alice vs Bob"), graph["caption"]
    assert edited["text"] == "Analysis of game #1 done."
    # the challenge card once; this card at least once as it went, then once when done
    assert len(fake.calls_of("editMessageText")) >= 3
