"""Ratings through the service: what counts, the result line, /rating, rebuilds, races."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import main as cli_main
from bot.store import SqliteStore, VersionConflict
from bot.store.models import GameRow, RatingRow
from tests.bot.core.harness import ALICE, BOB, CAROL, MAIN, Harness

OPENING = ("7g7f", "3c3d", "2g2f", "8c8d")  # two moves by each side: enough to be rated
HERE = MAIN


async def rating(h: Harness, who: str, community: str = HERE.chat_id) -> RatingRow | None:
    return await h.store.rating("console", community, who, "shogi")


async def all_ratings(path: Path) -> list[tuple[object, ...]]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT * FROM ratings ORDER BY 1, 2, 3, 4").fetchall() + [
            ("changes", *row)
            for row in con.execute("SELECT * FROM rating_changes ORDER BY game_id, player")
        ]
    finally:
        con.close()


async def played(h: Harness, sente=ALICE, gote=BOB) -> GameRow:  # type: ignore[no-untyped-def]
    game = await h.start_game(sente, gote)
    await h.play(game, *OPENING)
    return game


async def test_a_win_by_resignation_rates_both_and_says_so(h: Harness) -> None:
    game = await played(h)
    done = await h.say(BOB, "resign", "yes")
    assert "Alice 1500? → 1662? (+162), Bob 1500? → 1338? (-162)" in done.text, done.text
    alice, bob = await rating(h, ALICE.key), await rating(h, BOB.key)
    assert alice is not None and bob is not None
    assert round(alice.rating) == 1662 and (alice.games, alice.wins, alice.losses) == (1, 1, 0)
    assert round(bob.rating) == 1338 and (bob.games, bob.losses) == (1, 1)
    overall = await rating(h, ALICE.key, "")
    assert overall is not None and overall.rating == alice.rating
    assert (await h.game(game.id)).rated
    again = await h.say(ALICE, "board", str(game.id))  # the finished game keeps its line
    assert "Alice 1500? → 1662? (+162)" in again.text


async def test_a_draw_by_agreement(h: Harness) -> None:
    await played(h)
    await h.say(ALICE, "draw")
    drawn = await h.say(BOB, "draw", "accept")
    assert "Alice 1500? → 1500? (+0)" in drawn.text, drawn.text
    alice = await rating(h, ALICE.key)
    assert alice is not None and (alice.games, alice.draws) == (1, 1)


async def test_a_timeout_rates_the_game_and_the_notice_says_so(h: Harness) -> None:
    game = await played(h)
    await h.clock.advance(86400 + 1)
    await h.service.fire_due()
    ended = await h.game(game.id)
    assert ended.termination == "timeout" and ended.winner == 1  # Alice to move: she lost
    alice, bob = await rating(h, ALICE.key), await rating(h, BOB.key)
    assert alice is not None and bob is not None and alice.losses == 1 and bob.wins == 1
    notices = await h.store.notices(game.id)
    payloads = " ".join(n.payload for n in notices if n.kind == "timeout")
    assert "Bob 1500? → 1662? (+162)" in payloads


async def test_casual_games_and_short_or_aborted_games_change_no_rating(h: Harness) -> None:
    card = await h.say(ALICE, "challenge", "shogi", "sente", "casual", target=BOB)
    assert "casual (not rated)" in card.text
    await h.say(BOB, "accept")
    game = await h.store.active_game(HERE, ALICE.key)
    assert game is not None and not game.rated
    await h.play(game, *OPENING)
    done = await h.say(BOB, "resign", "yes")
    assert "Ratings" not in done.text
    short = await h.start_game(ALICE, BOB)
    assert short.rated
    await h.play(short, "7g7f", "3c3d", "2g2f")  # only one move by gote
    await h.say(BOB, "resign", "yes")
    aborted = await h.start_game(ALICE, BOB)
    await h.say(ALICE, "abort")
    assert not (await h.game(aborted.id)).active
    assert await rating(h, ALICE.key) is None and await rating(h, BOB.key) is None
    assert "no rated games" in (await h.say(ALICE, "rating")).text


async def test_games_against_the_bot_are_never_rated(h: Harness) -> None:
    refused = await h.say(ALICE, "play", "rated")
    assert "never rated" in refused.text
    start = await h.say(ALICE, "play", "shogi", "level", "1", "sente")
    game = await h.store.active_game(HERE, ALICE.key)
    assert game is not None and not game.rated, start.text
    await h.say(ALICE, "resign", "yes")
    assert await rating(h, ALICE.key) is None


async def test_rating_command_in_english_and_russian(h: Harness) -> None:
    await played(h)
    await h.say(BOB, "resign", "yes")
    mine = await h.say(ALICE, "rating")
    assert "📊 Ratings of Alice" in mine.text
    assert "this chat: 1662? ±290 · games: 1 (1 W / 0 L / 0 D)" in mine.text
    assert "overall: 1662? ±290" in mine.text
    theirs = await h.say(ALICE, "rating", "shogi", target=BOB)
    assert "Ratings of Bob" in theirs.text and "1338?" in theirs.text
    assert "neither" in (await h.say(ALICE, "rating", "chess")).text
    assert "Carol has no rated games" in (await h.say(CAROL, "rating")).text
    await h.say(CAROL, "settings", "language", "ru")
    ru = await h.say(ALICE, "rating")
    assert "📊 Рейтинги: Alice" in ru.text
    assert "в этом чате: 1662? ±290 · партий: 1 (1 В / 0 П / 0 Н)" in ru.text
    assert "всего: 1662?" in ru.text


async def test_rebuild_and_first_open_reproduce_the_stored_ratings(h: Harness) -> None:
    for sente, gote, loser in ((ALICE, BOB, BOB), (BOB, CAROL, CAROL), (CAROL, ALICE, ALICE)):
        await played(h, sente, gote)
        await h.clock.advance(3 * 86400)  # time passes: deviations grow between games
        await h.say(loser, "resign", "yes")
    await h.start_game(ALICE, BOB)  # one still going
    await h.say(ALICE, "draw")
    stored = await all_ratings(h.path)
    assert len([r for r in stored if r[0] != "changes"]) == 6  # 3 players x (here, overall)
    assert await h.store.rebuild_ratings() == 3
    assert await all_ratings(h.path) == stored
    await h.close()
    assert await asyncio.to_thread(cli_main, ["ratings", "rebuild", "--db", str(h.path)]) == 0
    assert await all_ratings(h.path) == stored
    # A file from before ratings: the first open rates its games, once.
    con = sqlite3.connect(h.path)
    with con:
        con.execute("DELETE FROM ratings")
        con.execute("DELETE FROM rating_changes")
        con.execute("DELETE FROM ratings_state")
        con.execute("UPDATE games SET rated_seq = NULL")
    con.close()
    await h.open()
    assert await all_ratings(h.path) == stored


async def test_two_finishing_requests_rate_the_game_exactly_once(h: Harness) -> None:
    game = await played(h)
    answers = await asyncio.gather(h.say(ALICE, "resign", "yes"), h.say(BOB, "resign", "yes"))
    done = [a for a in answers if not a.ephemeral]  # the other lost the race: refused
    assert len(done) == 1 and "resigned" in done[0].text, [a.text for a in answers]
    assert "was not carried out" in next(a for a in answers if a.ephemeral).text
    alice = await rating(h, ALICE.key)
    assert alice is not None and alice.games == 1
    # The store itself: a second write of the finished game from the same version conflicts,
    # and a later write of it (any change) rates it no more.
    finished = await h.game(game.id)
    with pytest.raises(VersionConflict):
        await h.store.update_game(replace(finished, version=finished.version - 1))
    await h.store.update_game(replace(finished, updated_at=finished.updated_at + 1))
    again = await rating(h, ALICE.key)
    assert again == alice


async def test_rating_queries_use_indexes(tmp_path: Path, h: Harness) -> None:
    from tests.bot.store.test_scale import _scans

    await played(h)
    await h.say(BOB, "resign", "yes")
    con = sqlite3.connect(h.path)
    try:
        for sql in (
            "SELECT rated_seq FROM games WHERE id = 1",
            "SELECT max(rated_seq) FROM games INDEXED BY games_rated_seq "
            "WHERE rated_seq IS NOT NULL",
            "SELECT * FROM ratings WHERE platform = 'console' AND community = 'main' "
            "AND player = 'console:alice' AND variant = 'shogi'",
            "SELECT * FROM ratings WHERE platform = 'console' AND community = '' "
            "AND player = 'console:alice' ORDER BY variant",
            "SELECT * FROM rating_changes WHERE game_id = 1",
        ):
            assert _scans(con, sql) == [], sql
    finally:
        con.close()


async def test_a_store_without_ratings_yet_opens_read_only(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    await store.close()
    store = await SqliteStore.open(path, read_only=True)
    try:
        assert await store.ratings_of("console", "", ALICE.key) == []
    finally:
        await store.close()


async def test_leaderboard_and_history_queries_search_their_indexes(h: Harness) -> None:
    """Not a scan of a partial index either: the board is searched by community and variant,
    a player's games by player and community."""
    import bot.store.sql as store_sql

    board = store_sql._BOARD
    history, _ = store_sql._players_games("console", "main", ALICE.key, None)
    con = sqlite3.connect(h.path)
    try:
        for sql, index in (
            (f"SELECT * FROM ratings WHERE {board} ORDER BY rating DESC, player LIMIT 10", "board"),
            (f"SELECT count(*) FROM ratings WHERE {board} AND rating > ?", "board"),
            (f"{history} ORDER BY finished_at DESC, id DESC LIMIT 10", "finished_by"),
        ):
            plan = [r[3] for r in con.execute("EXPLAIN QUERY PLAN " + sql, [1] * sql.count("?"))]
            searches = [p for p in plan if p.startswith(("SEARCH", "SCAN"))]
            assert searches and all(
                p.startswith("SEARCH") and index in p and "=?" in p for p in searches
            ), plan
    finally:
        con.close()


MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # G*5b mates
ENTERED = "R7R/1B2K2B1/2+P+P1+P+P+P+P/9/9/9/9/9/4k4 b 2P 1"  # sente may declare, 28 points


async def from_position(h: Harness, sfen: str) -> GameRow:
    """A rated game that has had four quiet moves (king steps) and stands at ``sfen`` + them."""
    game = await h.start_game(ALICE, BOB)
    await h.store.update_game(replace(await h.game(game.id), start_sfen=sfen))
    h.service.games.positions.forget(game.id)
    return await h.game(game.id)


async def test_checkmate_rates_the_mating_side_the_winner(h: Harness) -> None:
    game = await from_position(h, MATE_IN_ONE)
    await h.play(game, "5i4h", "5a4a", "4h5i", "4a5a")  # two moves each, back where they were
    done = await h.say(ALICE, "move", "G*5b")
    assert "checkmate" in done.text and "Alice 1500? → 1662? (+162)" in done.text, done.text
    alice, bob = await rating(h, ALICE.key), await rating(h, BOB.key)
    assert alice is not None and bob is not None and (alice.wins, bob.losses) == (1, 1)


async def test_an_impasse_declaration_rates_the_declarer_the_winner(h: Harness) -> None:
    game = await from_position(h, ENTERED)
    await h.play(game, "5b5c", "5i4h", "5c5b", "4h5i")
    done = await h.say(ALICE, "impasse")
    assert "wins by impasse declaration" in done.text, done.text
    assert "Alice 1500? → 1662? (+162), Bob 1500? → 1338? (-162)" in done.text
    assert (await h.game(game.id)).termination == "impasse"


async def test_a_draw_by_repetition_rates_both_as_a_draw(h: Harness) -> None:
    game = await h.start_game(ALICE, BOB)
    done = await h.play(game, *(["5i4h", "5a4b", "4h5i", "4b5a"] * 3))
    assert "fourfold repetition" in done.text and "Alice 1500? → 1500? (+0)" in done.text
    alice = await rating(h, ALICE.key)
    assert alice is not None and (alice.games, alice.draws) == (1, 1)


async def test_games_in_every_channel_of_a_server_share_its_ratings(h: Harness) -> None:
    from bot.core.api import ChatKey

    first = ChatKey("console", "general", community="server-1")
    second = ChatKey("console", "shogi-room", community="server-1")
    for chat in (first, second):
        game = await h.start_game(ALICE, BOB, chat=chat)
        await h.play(game, *OPENING)
        await h.say(BOB, "resign", "yes", chat=chat)
        assert (await h.game(game.id)).chat.community_id == "server-1"
    alice = await rating(h, ALICE.key, "server-1")
    assert alice is not None and alice.games == 2
    assert await rating(h, ALICE.key, "general") is None
    overall = await rating(h, ALICE.key, "")
    assert overall is not None and overall.games == 2
    mine = await h.say(ALICE, "rating", chat=second)
    assert "this server: " in mine.text and "games: 2 (2 W / 0 L / 0 D)" in mine.text
    stored = await all_ratings(h.path)
    assert await h.store.rebuild_ratings() == 2
    assert await all_ratings(h.path) == stored


async def test_killed_mid_update_every_finished_game_is_rated_exactly_once(tmp_path: Path) -> None:
    """SIGKILL while rated games finish one after another: every game whose result was
    answered is rated, every finished game is rated once (its players' game counts add up) and
    the rebuild gives the stored numbers: no half-applied rating survives."""
    from tests.bot.core.killing import run_and_kill

    db = tmp_path / "ratings.sqlite3"
    lines = run_and_kill(
        "tests.bot.core.rating_storm",
        [str(db)],
        lambda lines: sum(line.startswith("RATED") for line in lines) >= 12,
    )
    answered = {int(line.split()[1]) for line in lines if line.startswith("RATED")}
    assert len(answered) >= 12
    store = await SqliteStore.open(db)
    try:
        con = sqlite3.connect(db)
        try:
            finished = {
                gid: seq
                for gid, seq in con.execute(
                    "SELECT id, rated_seq FROM games WHERE status = 'finished'"
                )
            }
            changes = con.execute(
                "SELECT game_id, count(*) FROM rating_changes GROUP BY game_id"
            ).fetchall()
            games_counted = con.execute(
                "SELECT sum(games) FROM ratings WHERE community = 'server'"
            ).fetchone()[0]
        finally:
            con.close()
        assert answered <= set(finished)
        assert all(seq is not None for seq in finished.values())
        assert dict(changes) == {gid: 2 for gid in finished}
        assert games_counted == 2 * len(finished)
        stored = await all_ratings(db)
        assert await store.rebuild_ratings() == len(finished)
        assert await all_ratings(db) == stored
    finally:
        await store.close()
