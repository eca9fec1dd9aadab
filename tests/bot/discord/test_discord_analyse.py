"""/analyse through Discord: the progress card edited in place, then the graph and the text."""

from __future__ import annotations

from pathlib import Path

from discord_harness import running_front
from fake_discord import FakeDiscord
from test_discord_service import message_text as shown

from bot.config import Config
from bot.core.clock import FakeClock
from bot.core.service import GameService
from bot.store.sqlite import SqliteStore
from engine.analysis import Budget

MOVES = ("7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c")


async def test_analyse_edits_its_card_then_posts_the_graph(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "komabot.sqlite3", sync="normal")
    config = Config(db_path=tmp_path / "komabot.sqlite3", reminders=())
    service = GameService(
        store, config, clock=FakeClock(), render_images=False, analysis_budget=Budget(nodes=300)
    )
    try:
        async with FakeDiscord() as fake:
            alice, bob = fake.user(111, "alice"), fake.user(222, "bob")
            async with running_front(fake, service.handle, tmp_path, state=store) as front:
                service.outboxes["discord"] = front
                await fake.slash(alice, "challenge", opponent=bob, color="sente")
                card = [m for m in fake.messages.values() if "_interaction_id" in m][-1]
                await fake.click(bob, card, "accept 1")
                for n, move in enumerate(MOVES):
                    await fake.slash((alice, bob)[n % 2], "move", move=move)
                refused = await fake.slash(alice, "analyse")
                assert refused["data"]["flags"] & 64  # ephemeral: the game goes on
                assert "still being played" in refused["data"]["content"]
                await fake.slash(alice, "resign")
                confirm = [m for m in fake.messages.values() if "_interaction_id" in m][-1]
                await fake.click(alice, confirm, "resign confirm 1")
                # the resignation is answered as a follow-up, after the click: wait for it
                await fake.wait_for(
                    lambda: any("alice resigned." in shown(m) for m in fake.messages.values())
                )
                seen = set(fake.messages)
                started = await fake.slash(bob, "analyse", game="1")
                assert started["data"]["content"] == "Analysing game #1: move 0 of 6…"
                (progress,) = [
                    m for i, m in fake.messages.items() if i not in seen and "_interaction_id" in m
                ]
                final = await fake.wait_for(
                    lambda: next(
                        (m for m in fake.messages.values() if "Analysis of game #1," in shown(m)),
                        None,
                    ),
                    timeout=60,
                )
                assert final["attachments"][0]["filename"] == "analysis-1.png"
                assert "☗ alice (sente): accuracy" in shown(final), shown(final)
                # the card's last edit may reach Discord after the graph was posted
                edited = await fake.wait_for(
                    lambda: next(
                        (
                            m
                            for m in [fake.messages[int(progress["id"])]]
                            if shown(m).strip() == "Analysis of game #1 done."
                        ),
                        None,
                    ),
                    timeout=30,
                )
                assert edited["_edits"] >= 2  # at least one progress step, then done
    finally:
        await service.drain(10)  # the analysis's engine worker
        await store.close()
