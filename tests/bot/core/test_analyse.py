"""/analyse: refused during a game, the graph and the text after it, kept, one per chat,
progress edits, and /export kif with the analysis as comments."""

from __future__ import annotations

import re
import time

from bot.core.api import Reply, User
from bot.core.messages import text
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, Harness

# a quiet opening, then sente resigns: every move is judged, up to three worst shown per side
OPENING = ("7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "8b2b", "5i6h", "3a3b")


async def finished_game(h: Harness, sente: User = ALICE, gote: User = BOB) -> int:
    game = await h.start_game(sente=sente, gote=gote)
    await h.play(game, *OPENING)
    await h.say(sente, "resign", "yes", str(game.id))
    assert not (await h.game(game.id)).active
    return game.id


def results(h: Harness, game_id: int) -> list[Reply]:
    return [r for _, r in h.outbox.sent if r.text.startswith(f"Analysis of game #{game_id},")]


async def test_a_game_in_progress_is_refused(h: Harness) -> None:
    game = await h.start_game()
    await h.play(game, "7g7f", "3c3d")
    reply = await h.say(CAROL, "analyse", str(game.id))
    assert reply.ephemeral
    assert reply.text == text("analysis.in_progress", game=game.id)
    assert reply.card is None
    assert not [card for _, card, _ in h.outbox.edits if card.startswith("analysis:")]
    assert await h.service.analyses.kept(await h.game(game.id)) is None  # nothing started


async def test_a_finished_game_gives_the_graph_and_the_text(h: Harness) -> None:
    game_id = await finished_game(h)
    first = await h.say(ALICE, "analyze")  # her last game, by the alias
    assert first.text == f"Analysing game #{game_id}: move 0 of {len(OPENING)}…"
    assert first.card == f"analysis:{game_id}"
    await h.service.analyses.settle()
    (final,) = results(h, game_id)
    assert final.image is not None and final.image.data.startswith(b"\x89PNG")
    lines = final.text.splitlines()
    assert "Komabot" in lines[0] and "300 nodes per position" in lines[0], lines[0]
    sente = lines.index(
        next(line for line in lines if line.startswith("☗ Alice (sente): accuracy"))
    )
    gote = lines.index(next(line for line in lines if line.startswith("☖ Bob (gote): accuracy")))
    worst_sente, worst_gote = lines[sente + 1 : gote], lines[gote + 1 : -1]
    # up to three each: the moves that lost win chance in the engine's view (at this tiny
    # budget a move the engine would play too loses nothing and is not listed)
    assert 1 <= len(worst_sente) <= 3 and 1 <= len(worst_gote) <= 3
    # where to look: the position before the costliest move, with /board GAME MOVE
    analysis = await h.service.analyses.kept(await h.game(game_id))
    assert analysis is not None
    shown_worst = [r for p in analysis.players for r in p.worst]
    plies = sorted(int(line.split()[2].rstrip(":")) for line in worst_sente + worst_gote)
    assert plies == sorted(r.ply for r in shown_worst)
    costliest = max(shown_worst, key=lambda r: (r.loss, -r.ply)).ply
    assert lines[-1] == text(
        "analysis.see_board", game=game_id, ply=costliest, before=costliest - 1
    )
    shown = await h.say(CAROL, "board", str(game_id), str(costliest - 1))
    assert f"after move {costliest - 1} of {len(OPENING)}" in shown.text
    for line in worst_sente + worst_gote:
        assert re.match(r"• move \d+: .+ \(.+, win chance −\d+\.\d%\), better .+", line), line
    # the moves in the chat's notation (western by default): sente's moves are odd plies
    assert all(int(line.split()[2].rstrip(":")) % 2 == 1 for line in worst_sente)
    # progress: edits of the card, counting up, then "done"
    edits = [r.text for _, card, r in h.outbox.edits if card == f"analysis:{game_id}"]
    assert edits[-1] == f"Analysis of game #{game_id} done."
    counts = [int(m[1]) for e in edits if (m := re.search(r"move (\d+) of", e))]
    assert counts and counts == sorted(counts) and max(counts) < len(OPENING)


async def test_a_game_both_players_agreed_to_end_is_analysed(h: Harness) -> None:
    game = await h.start_game()
    await h.play(game, *OPENING[:4])
    await h.say(ALICE, "draw", str(game.id))
    refused = await h.say(ALICE, "analyse", str(game.id))  # a draw offered is not yet agreed
    assert refused.text == text("analysis.in_progress", game=game.id)
    await h.say(BOB, "draw", "accept", str(game.id))
    reply = await h.say(ALICE, "analyse", str(game.id))
    assert reply.card == f"analysis:{game.id}", reply.text
    await h.service.analyses.settle()
    assert len(results(h, game.id)) == 1


async def test_a_second_analysis_is_instant(h: Harness) -> None:
    game_id = await finished_game(h)
    await h.say(ALICE, "analyse", str(game_id))
    await h.service.analyses.settle()
    (first,) = results(h, game_id)
    edits = len(h.outbox.edits)
    started = time.perf_counter()
    again = await h.say(CAROL, "analyse", f"#{game_id}")
    took = time.perf_counter() - started
    assert again.text == first.text and again.image is not None  # the answer itself
    assert len(h.outbox.edits) == edits and len(results(h, game_id)) == 1  # nothing rerun
    assert took < 5  # no engine search: only the graph is drawn (generous for a loaded machine)


async def test_one_analysis_per_chat(h: Harness) -> None:
    one = await finished_game(h)
    two = await finished_game(h, sente=CAROL, gote=DAVE)
    first = await h.say(ALICE, "analyse", str(one))
    assert first.card is not None
    second = await h.say(CAROL, "analyse", str(two))
    assert second.text == text("analysis.busy") and second.ephemeral
    await h.service.analyses.settle()
    third = await h.say(CAROL, "analyse", str(two))  # the chat is free again
    assert third.card == f"analysis:{two}"
    await h.service.analyses.settle()
    assert len(results(h, two)) == 1


async def test_export_kif_carries_the_analysis(h: Harness) -> None:
    game_id = await finished_game(h)
    plain = (await h.say(ALICE, "export", "kif", str(game_id))).files[0].data.decode("cp932")
    assert "\n*" not in plain
    await h.say(ALICE, "analyse", str(game_id))
    await h.service.analyses.settle()
    kif = (await h.say(ALICE, "export", "kif", str(game_id))).files[0].data.decode("cp932")
    scores = [line for line in kif.splitlines() if line.startswith("*評価値 ")]
    assert len(scores) == len(OPENING), kif  # one evaluation after every move
    kifu = (await h.say(ALICE, "export", "kifu", str(game_id))).files[0].data.decode()
    assert kifu.count("\n*評価値 ") == len(OPENING)


async def test_the_reply_in_russian(h: Harness) -> None:
    game_id = await finished_game(h)
    await h.say(CAROL, "settings", "language", "ru")
    reply = await h.say(ALICE, "analyse", str(game_id))
    assert reply.text == f"Разбираю партию #{game_id}: ход 0 из {len(OPENING)}…"
    await h.service.analyses.settle()
    final = h.outbox.sent[-1][1]
    assert final.text.startswith(f"Разбор партии #{game_id},") and "точность" in final.text


async def test_no_game_to_analyse(h: Harness) -> None:
    reply = await h.say(CAROL, "analyse")
    assert reply.text == text("analysis.none")
    reply = await h.say(CAROL, "analyse", "abc")
    assert reply.ephemeral and "abc" in reply.text


async def test_autocomplete_offers_finished_games(h: Harness) -> None:
    done = await finished_game(h)
    playing = await h.start_game()
    offered = await h.say(BOB, "complete", "analyse", "game", "")
    assert [b.action for b in offered.buttons[0]] == [str(done)]
    board = await h.say(BOB, "complete", "board", "game", "")
    assert [b.action for b in board.buttons[0]] == [str(playing.id)]
