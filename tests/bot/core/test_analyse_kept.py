"""/analyse across restarts and beside the bot's games: results kept in the database, an
analysis cut short by a restart (clean, or a crash whose claim runs out) taken up and its card
edited to the end, and the engine's workers shared with the bot's moves."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.config import Config
from bot.core.api import ChatKey
from bot.core.clock import FakeClock
from bot.core.renewed_claims import LEASE, PICKUP_EVERY
from engine.analysis import Budget, BuiltinEvaluator, analyse_game
from tests.bot.core.harness import ALICE, DAVE, QUICK_MOVETIME_MS, Harness
from tests.bot.core.test_analyse import OPENING, finished_game, results

SLOW = Budget(movetime_ms=250)  # an analysis of OPENING takes ~3 s: long enough to cut short


async def wait_for(condition: Callable[[], object], timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


def card_edits(h: Harness, game_id: int) -> list[str]:
    return [r.text for _, card, r in h.outbox.edits if card == f"analysis:{game_id}"]


def progressed(h: Harness, game_id: int) -> bool:
    return any(re.search(r"move [1-9]\d* of", e) for e in card_edits(h, game_id))


async def test_the_analysis_is_kept_across_a_restart(h: Harness) -> None:
    game_id = await finished_game(h)
    await h.say(ALICE, "analyse", str(game_id))
    await h.service.analyses.settle()
    (first,) = results(h, game_id)
    await h.restart()
    edits = len(h.outbox.edits)
    again = await h.say(DAVE, "analyse", str(game_id))  # after the restart: at once
    assert again.card is None and again.text == first.text and again.image is not None
    assert len(h.outbox.edits) == edits  # no card: nothing analysed again
    kif = (await h.say(ALICE, "export", "kif", str(game_id))).files[0].data.decode("cp932")
    assert sum(line.startswith("*評価値 ") for line in kif.splitlines()) == len(OPENING)
    kept = await h.store.get_analysis(game_id, "nodes:300", "builtin")
    assert kept is not None and len(kept.scores) == len(OPENING) + 1


async def test_the_workers_judge_as_one_process_does(h: Harness) -> None:
    """The positions went to the engine's worker (one, in order): the same scores and moves
    as the built-in engine gives analysing the game in this process, at a budget in nodes."""
    game_id = await finished_game(h)
    await h.say(ALICE, "analyse", str(game_id))
    await h.service.analyses.settle()
    assert h.service.analyses.workers is not None and h.service.bot_player.engine.parallel == 1
    game = await h.game(game_id)
    kept = await h.service.analyses.kept(game)
    here = BuiltinEvaluator("shogi", Budget(nodes=300))
    alone = analyse_game("shogi", game.start_sfen, game.moves, here)
    assert kept is not None and kept.scores == alone.scores
    assert kept.best_moves == alone.best_moves


@pytest.mark.parametrize("crash", [False, True], ids=["clean", "crash"])
async def test_a_restart_mid_analysis_finishes_it_on_its_card(
    tmp_path: Path, clock: FakeClock, crash: bool
) -> None:
    config = Config(engine_movetime_ms=QUICK_MOVETIME_MS)
    h = await Harness(tmp_path / "k.sqlite3", clock, config, analysis_budget=SLOW).open()
    try:
        game_id = await finished_game(h)
        reply = await h.say(ALICE, "analyse", str(game_id))
        assert reply.card == f"analysis:{game_id}"
        await wait_for(lambda: progressed(h, game_id))
        await h.service.analyses.close(release=not crash)  # a crash gives nothing up
        assert results(h, game_id) == []  # cut short
        await h.restart()
        edits = len(h.outbox.edits)
        h.service.analyse.start()
        if crash:  # the dead process's claim lasts: nothing yet, then it runs out
            await asyncio.sleep(1.0)
            assert len(h.outbox.edits) == edits
            await clock.advance(LEASE + PICKUP_EVERY)
        await wait_for(lambda: results(h, game_id))
        await h.service.analyses.settle()
        assert card_edits(h, game_id)[-1] == f"Analysis of game #{game_id} done."
        assert len(results(h, game_id)) == 1
        busy_again = await h.say(ALICE, "analyse", str(game_id))  # kept, and the chat is free
        assert busy_again.card is None and busy_again.image is not None
    finally:
        await h.close()


async def test_a_bot_move_is_not_held_up_by_an_analysis(tmp_path: Path, clock: FakeClock) -> None:
    config = Config(engine_movetime_ms=QUICK_MOVETIME_MS, engine_workers=1)
    h = await Harness(tmp_path / "k.sqlite3", clock, config, analysis_budget=SLOW).open()
    try:
        game_id = await finished_game(h)
        await h.say(ALICE, "analyse", str(game_id))
        await wait_for(lambda: progressed(h, game_id))  # the one worker is analysing
        other = ChatKey("console", "other")
        start = await h.say(DAVE, "play", "shogi", "gote", "level", "1", chat=other)
        assert "is thinking" in start.text, start.text
        bot_game = await h.store.active_game(other, DAVE.key)
        assert bot_game is not None
        async with asyncio.timeout(60):
            while not (await h.game(bot_game.id)).moves:  # the bot's first move
                await asyncio.sleep(0.02)
        assert results(h, game_id) == []  # the analysis still runs: the bot did not wait for it
        assert not [e for e in card_edits(h, game_id) if e.endswith("done.")]
        await h.service.analyses.settle()
        assert len(results(h, game_id)) == 1
    finally:
        await h.close()
