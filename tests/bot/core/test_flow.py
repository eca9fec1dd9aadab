"""The whole flow per command through bot/core on a real SQLite file."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.core.api import ChatKey, Request
from bot.store import ChallengeStatus, GameStatus
from tests.bot.core.harness import ALICE, BOB, CAROL, DAVE, MAIN, Harness

MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # G*5b mates


async def test_challenge_accept_play_to_checkmate(h: Harness) -> None:
    card = await h.say(ALICE, "challenge", "shogi", "sente", "3d", target=BOB)
    assert card.card == "challenge:1"
    assert [b.action for b in card.buttons[0]] == ["accept 1", "decline 1", "cancel 1"]
    assert card.mentions == (BOB,)
    start = await h.say(BOB, "accept")
    assert "Game #1 begins" in start.text and "Alice (sente" in start.text
    assert start.mentions == (ALICE,)
    assert "deadline" in start.text and start.text_board is not None
    assert h.outbox.edits[-1][1] == "challenge:1"
    game = await h.game(1)
    reply = await h.play(game, "7g7f", "3c3d")
    assert "Bob played P-3d" in reply.text and reply.mentions == (ALICE,)
    # Continue from a position one move from mate (same game row, new start, no moves).
    game = await h.game(1)
    await h.store.update_game(replace(game, start_sfen=MATE_IN_ONE, moves=()))
    reply = await h.say(ALICE, "move", "G*5b")
    assert "Alice played G*5b" in reply.text
    assert "Game #1 is over: Alice wins by checkmate" in reply.text
    assert any(b.action == "export kif 1" for row in reply.buttons for b in row)
    finished = await h.game(1)
    assert finished.status is GameStatus.FINISHED
    assert (finished.termination, finished.winner) == ("checkmate", 0)
    assert await h.store.pending_timers(1) == []
    late = await h.say(BOB, "move", "K-4a")
    assert late.ephemeral and "Game #1 is over (Alice wins by checkmate)" in late.text


async def test_moves_in_each_notation_and_chat_setting(h: Harness) -> None:
    game = await h.start_game()
    assert "P-7f" in (await h.say(ALICE, "move", "７六歩")).text
    await h.say(CAROL, "settings", "notation", "japanese")
    assert "３四歩" in (await h.say(BOB, "move", "3c3d")).text
    await h.say(CAROL, "settings", "usi")
    assert "played 2g2f" in (await h.say(ALICE, "move", "P-2f")).text
    assert len((await h.game(game.id)).moves) == 3


async def test_bad_moves_get_specific_answers_and_change_nothing(h: Harness) -> None:
    game = await h.start_game()
    cases = {
        "7g7e": "Not played",
        "zz9": "",
        "K-1a": "",
    }
    for text in cases:
        reply = await h.say(ALICE, "move", text)
        assert reply.ephemeral and reply.text, text
        assert "went wrong" not in reply.text
    assert "Which move" in (await h.say(ALICE, "move")).text
    assert "Bob's turn" not in (await h.say(ALICE, "move", "7g7f")).text
    assert "It's Bob's turn" in (await h.say(ALICE, "move", "2g2f")).text
    assert (await h.game(game.id)).moves == ("7g7f",)


async def test_promotion_choice_offers_buttons(h: Harness) -> None:
    game = await h.start_game()
    await h.play(game, "7g7f", "3c3d")
    reply = await h.say(ALICE, "move", "Bx2b")
    assert reply.ephemeral and "promote" in reply.text
    actions = sorted(b.action for row in reply.buttons for b in row)
    assert actions == ["move 8h2b 1", "move 8h2b+ 1"]
    pressed = await h.say(ALICE, *actions[1].split())
    assert "Bx2b+" in pressed.text


async def test_spectators_watch_but_cannot_play(h: Harness) -> None:
    game = await h.start_game()
    for command, args in [
        ("move", ("7g7f", "1")),
        ("resign", ("yes", "1")),
        ("draw", ("1",)),
        ("abort", ("1",)),
        ("takeback", ("1",)),
        ("impasse", ("1",)),
    ]:
        reply = await h.say(CAROL, command, *args)
        assert reply.ephemeral and "Only Alice and Bob play game #1" in reply.text, command
    board = await h.say(CAROL, "board")
    assert "Game #1" in board.text and board.text_board
    assert (await h.game(game.id)).moves == ()
    assert (await h.game(game.id)).status is GameStatus.ACTIVE


async def test_only_the_challenged_accepts_and_only_the_challenger_cancels(h: Harness) -> None:
    await h.say(ALICE, "challenge", "wa", target=BOB)
    assert "is for Bob" in (await h.say(CAROL, "accept", "1")).text
    elsewhere = MAIN.__class__("console", "lounge")
    assert "made in another chat" in (await h.say(BOB, "accept", "1", chat=elsewhere)).text
    assert "own challenge" in (await h.say(ALICE, "accept", "1")).text
    assert "Only Alice can withdraw" in (await h.say(BOB, "cancel", "1")).text
    declined = await h.say(BOB, "decline")
    assert "Bob declined challenge #1" in declined.text
    assert "no longer open (declined)" in (await h.say(BOB, "accept", "1")).text
    await h.say(ALICE, "challenge", target=BOB)
    assert "withdrew" in (await h.say(ALICE, "cancel")).text
    assert (await h.store.get_challenge(2)).status is ChallengeStatus.CANCELLED  # type: ignore[union-attr]


async def test_open_challenge_taken_by_anyone(h: Harness) -> None:
    card = await h.say(ALICE, "challenge", "wa-drops", "gote", "none")
    assert "anyone" in card.text and card.mentions == ()
    assert "open challenge" in (await h.say(CAROL, "decline", "1")).text
    reply = await h.say(CAROL, "accept")
    assert "Game #1 begins: Carol (sente" in reply.text and "no time limit" in reply.text
    game = await h.game(1)
    assert (game.sente, game.gote, game.variant, game.deadline) == (
        CAROL.key,
        ALICE.key,
        "wa-drops",
        None,
    )


async def test_one_active_game_per_player_per_chat_but_many_per_chat(h: Harness) -> None:
    await h.start_game(ALICE, BOB)
    assert "already have game #1" in (await h.say(ALICE, "challenge", target=CAROL)).text
    assert "Bob already has game #1" in (await h.say(CAROL, "challenge", target=BOB)).text
    second = await h.start_game(CAROL, DAVE)
    assert second.id == 2
    # Each player's command goes to their own game; spectators must name one.
    assert "Carol played" in (await h.say(CAROL, "move", "7g7f")).text
    assert (await h.game(1)).moves == ()
    several = await h.say(DAVE.__class__("console", "erin", "Erin"), "board")
    assert "Several games" in several.text and "#1" in several.text and "#2" in several.text
    # Another chat is another place: Alice may play there too.
    lounge = MAIN.__class__("console", "lounge")
    third = await h.start_game(ALICE, CAROL, chat=lounge)
    games = await h.say(ALICE, "games")
    assert "#1 vs Bob" in games.text and f"#{third.id} vs Carol" in games.text
    assert "chat lounge" in games.text


async def test_accept_refused_when_a_player_started_another_game(h: Harness) -> None:
    await h.say(ALICE, "challenge", target=BOB)
    await h.say(CAROL, "challenge", target=DAVE)
    await h.say(DAVE, "accept")  # Carol-Dave game
    assert "already have game" in (await h.say(CAROL, "challenge", target=ALICE)).text
    assert "already has game" in (await h.say(BOB, "challenge", target=CAROL)).text
    card = await h.say(DAVE.__class__("console", "erin", "Erin"), "challenge", target=ALICE)
    assert card.card == "challenge:3"
    assert "begins" in (await h.say(ALICE, "accept", "3")).text  # Alice accepts Erin's
    reply = await h.say(BOB, "accept", "1")
    assert "Alice has started game" in reply.text


async def test_resign_asks_for_confirmation(h: Harness) -> None:
    game = await h.start_game()
    ask = await h.say(BOB, "resign")
    assert ask.ephemeral and "Really resign" in ask.text
    assert ask.buttons[0][0].action == f"resign confirm {game.id}"
    assert (await h.game(game.id)).active
    done = await h.say(BOB, *ask.buttons[0][0].action.split())
    assert "Bob resigned" in done.text and "Alice wins by resignation" in done.text
    assert (await h.game(game.id)).winner == 0
    again = await h.start_game(ALICE, BOB)
    assert "Alice resigned" in (await h.say(ALICE, "resign", "yes")).text
    assert (await h.game(again.id)).winner == 1
    assert "/resign yes" in (await h.say(ALICE, "resign", "maybe")).text


async def test_draw_offer_decline_then_accept(h: Harness) -> None:
    game = await h.start_game()
    offer = await h.say(ALICE, "draw")
    assert "Alice offers a draw" in offer.text and offer.mentions == (BOB,)
    assert [b.action for b in offer.buttons[0]] == ["draw accept 1", "draw decline 1"]
    assert "already offered" in (await h.say(ALICE, "draw", "offer")).text
    assert "no draw offer from Bob" in (await h.say(ALICE, "draw", "accept")).text
    assert "declined" in (await h.say(BOB, "draw", "decline")).text
    await h.say(BOB, "draw")
    board = await h.say(ALICE, "board")
    assert "Bob offers a draw" in board.text
    # A move withdraws a pending offer.
    await h.play(game, "7g7f")
    assert (await h.game(game.id)).draw_offer is None
    await h.say(ALICE, "draw")
    done = await h.say(BOB, "draw", "accept")
    assert "Game #1 is over: draw by agreement" in done.text
    final = await h.game(game.id)
    assert (final.termination, final.winner) == ("agreed_draw", None)


async def test_abort_only_before_both_sides_moved(h: Harness) -> None:
    game = await h.start_game()
    await h.play(game, "7g7f")
    done = await h.say(BOB, "abort")
    assert "Bob aborted game #1" in done.text and "aborted" in done.text
    assert (await h.game(game.id)).termination == "aborted"
    second = await h.start_game()
    await h.play(second, "7g7f", "3c3d")
    assert "can no longer be aborted" in (await h.say(ALICE, "abort")).text
    assert (await h.game(second.id)).active


async def test_takeback_needs_the_opponents_consent(h: Harness) -> None:
    game = await h.start_game()
    assert "no move to take back" in (await h.say(ALICE, "takeback")).text
    await h.play(game, "7g7f", "3c3d")
    ask = await h.say(BOB, "takeback")
    assert "Bob asks to take back P-3d" in ask.text
    assert "refused" in (await h.say(ALICE, "takeback", "decline")).text
    assert (await h.game(game.id)).moves == ("7g7f", "3c3d")
    await h.say(ALICE, "takeback")  # Alice asks for her own last move: two plies
    done = await h.say(BOB, "takeback", "accept")
    assert "P-7f, P-3d taken back" in done.text
    after = await h.game(game.id)
    assert after.moves == () and after.takeback_offer is None
    assert "Alice played" in (await h.say(ALICE, "move", "2g2f")).text


async def test_impasse_refused_with_reasons_and_absent_in_wa(h: Harness) -> None:
    await h.start_game()
    reply = await h.say(ALICE, "impasse")
    assert "refused" in reply.text and "king is not in the promotion zone" in reply.text
    assert "It's" not in reply.text
    await h.say(ALICE, "resign", "yes")
    await h.start_game(variant="wa")
    assert "Wa Shogi has no impasse rule" in (await h.say(ALICE, "impasse")).text


async def test_moves_board_help_and_unknown_commands(h: Harness) -> None:
    await h.start_game()
    moves = await h.say(CAROL, "moves", "7g")
    assert moves.text == "Alice's Pawn on 7g (sente) can go to: P-7f."
    assert moves.text_board
    assert "no piece on 5e" in (await h.say(CAROL, "moves", "5e")).text
    assert "Which piece" in (await h.say(CAROL, "moves")).text
    assert (await h.say(CAROL, "moves", "zz")).ephemeral
    help_all = await h.say(CAROL, "help")
    assert "/challenge" in help_all.text and "/settings" in help_all.text
    assert "Example: /move 7g7f" in (await h.say(CAROL, "help", "m")).text
    assert "Did you mean /challenge" in (await h.say(CAROL, "chalenge")).text


async def test_export_offers_every_record_format(h: Harness) -> None:
    game = await h.start_game()
    await h.play(game, "7g7f", "3c3d")
    for fmt in ("kif", "kifu", "csa", "usi"):
        reply = await h.say(CAROL, "export", fmt, str(game.id))
        assert reply.files and reply.files[0].filename == f"game-1.{fmt}", reply.text
        assert reply.files[0].data
    usi = (await h.say(ALICE, "export", "usi")).files[0].data.decode()
    assert "7g7f 3c3d" in usi
    assert "not a format" in (await h.say(ALICE, "export", "pdf")).text
    await h.say(ALICE, "resign", "yes")
    wa = await h.start_game(variant="wa")
    await h.play(wa, "8h8g")
    assert "can't be written as csa" in (await h.say(ALICE, "export", "csa")).text
    kifu = (await h.say(ALICE, "export")).files[0]
    assert kifu.filename == f"game-{wa.id}.kifu" and "萑歩" in kifu.data.decode()
    done = await h.say(ALICE, "resign", "yes")
    assert [b.action for b in done.buttons[-1]] == [
        f"export kifu {wa.id}",
        f"export usi {wa.id}",
        f"export gif {wa.id}",
    ]


async def test_challenge_arguments_are_checked(h: Harness) -> None:
    assert "can't read 'blitz'" in (await h.say(ALICE, "challenge", "blitz")).text
    assert "both say the variant" in (await h.say(ALICE, "challenge", "wa", "shogi")).text
    assert "between 1m and 30d" in (await h.say(ALICE, "challenge", "90d")).text
    assert "don't know @zed" in (await h.say(ALICE, "challenge", "@zed")).text
    assert "can't challenge yourself" in (await h.say(ALICE, "challenge", target=ALICE)).text
    await h.say(BOB, "help")  # Bob is now known by name
    card = await h.say(ALICE, "challenge", "@bob", "wa")
    assert "Alice challenges Bob to Wa Shogi" in card.text


async def test_challenges_expire_after_a_day(h: Harness) -> None:
    await h.say(ALICE, "challenge", target=BOB)
    await h.clock.advance(86400 + 1)
    assert await h.service.fire_due() == 1
    assert h.outbox.edits[-1][1] == "challenge:1"
    assert "expired" in h.outbox.edits[-1][2].text
    assert "no longer open (expired)" in (await h.say(BOB, "accept", "1")).text
    assert await h.service.fire_due() == 0


async def test_settings_show_change_and_refuse(h: Harness) -> None:
    shown = await h.say(CAROL, "settings")
    assert "notation: western" in shown.text
    changed = await h.say(CAROL, "settings", "style", "international", "perspective", "sente")
    assert "style international, perspective sente" in changed.text
    assert "not a setting" in (await h.say(CAROL, "settings", "colour")).text
    assert "choose one of western" in (await h.say(CAROL, "settings", "notation", "x")).text
    settings = await h.store.get_settings(MAIN)
    assert (settings.piece_style, settings.perspective) == ("international", "sente")


async def test_two_moves_racing_exactly_one_wins(h: Harness) -> None:
    game = await h.start_game()
    replies = await asyncio.gather(
        h.say(ALICE, "move", "7g7f"), h.say(ALICE, "move", "2g2f"), h.say(ALICE, "move", "5g5f")
    )
    played = [r for r in replies if "Alice played" in r.text]
    assert len(played) == 1
    for r in replies:
        if r not in played:
            assert r.ephemeral and ("changed at the same moment" in r.text or "turn" in r.text)
    assert len((await h.game(game.id)).moves) == 1


async def test_two_processes_racing_on_one_file(h: Harness) -> None:
    """Two services on one database file (two bot processes): the version check decides."""
    from bot.core.service import GameService
    from bot.store import SqliteStore

    game = await h.start_game()
    other_store = await SqliteStore.open(h.path, sync="normal")
    try:
        other = GameService(other_store, h.config, clock=h.clock, render_images=False)
        from bot.core.api import Request

        replies = await asyncio.gather(
            h.service.handle(Request(MAIN, ALICE, "move", ("7g7f",))),
            other.handle(Request(MAIN, ALICE, "move", ("2g2f",))),
        )
    finally:
        await other_store.close()
    played = [r for r in replies if "Alice played" in r.text]
    assert len(played) == 1, [r.text for r in replies]
    assert len((await h.game(game.id)).moves) == 1


async def test_every_button_fits_telegram_and_names_a_command(h: Harness) -> None:
    from bot.core.commands import split_command_text

    replies = [await h.say(ALICE, "challenge", target=BOB)]
    replies.append(await h.say(BOB, "accept"))
    game = await h.game(1)
    await h.play(game, "7g7f", "3c3d")
    replies += [await h.say(ALICE, "move", "Bx2b"), await h.say(ALICE, "draw")]
    replies += [await h.say(ALICE, "resign")]
    replies += [await h.say(ALICE, "resign", "yes")]
    actions = [b.action for r in replies for row in r.buttons for b in row]
    assert len(actions) >= 8
    for action in actions:
        assert len(action.encode()) <= 64
        parsed = split_command_text("/" + action)
        assert parsed is not None and parsed[0] in {
            "accept",
            "decline",
            "cancel",
            "move",
            "draw",
            "resign",
            "export",
        }


async def test_autocomplete_suggests_moves_squares_games_and_challenges(h: Harness) -> None:
    game = await h.start_game()
    moves = await h.say(ALICE, "complete", "move", "move", "P-7")
    assert [(b.label, b.action) for b in moves.buttons[0]] == [("P-7f", "P-7f")]
    every = await h.say(ALICE, "complete", "move", "move", "")
    assert len(every.buttons[0]) == 25  # 30 legal moves, cut to what Discord takes
    squares = await h.say(ALICE, "complete", "moves", "square", "7")
    # alice's own movable pieces first, then bob's (/moves answers for either side)
    assert [b.action for b in squares.buttons[0]] == ["7g", "7i", "7a", "7c"]
    games = await h.say(BOB, "complete", "board", "game", "")
    assert [(b.label, b.action) for b in games.buttons[0]] == [(f"#{game.id} vs Alice", "1")]
    await h.say(CAROL, "challenge", target=DAVE)
    challenges = await h.say(DAVE, "complete", "accept", "challenge", "")
    assert challenges.buttons[0][0].action == "2"
    assert (await h.say(CAROL, "complete", "nothing", "here", "x")).buttons == ()


async def test_moving_from_a_private_chat_is_announced_in_the_games_chat(h: Harness) -> None:
    game = await h.start_game()
    private = MAIN.__class__("console", "dm-alice")
    reply = await h.say(ALICE, "move", "7g7f", str(game.id), chat=private)
    assert "Alice played P-7f" in reply.text
    ((chat, copy),) = h.outbox.sent
    assert chat.chat_id == "main" and copy.text == reply.text
    assert "another chat" in (await h.say(CAROL, "board", str(game.id), chat=private)).text
    assert (await h.say(BOB, "board", str(game.id), chat=private)).text_board  # players may look


async def test_all_digit_moves_are_moves_not_game_numbers(h: Harness) -> None:
    game = await h.start_game()
    assert "Alice played P-7f" in (await h.say(ALICE, "move", "76")).text
    assert "Bob played P-3d" in (await h.say(BOB, "move", "33", "34")).text
    assert "Alice played P-2f" in (await h.say(ALICE, "move", "2g2f", str(game.id))).text
    assert "Bob played P-8d" in (await h.say(BOB, "move", "8c8d", f"#{game.id}")).text


async def test_a_damaged_record_is_reported_not_played_on(h: Harness) -> None:
    game = await h.start_game()
    await h.play(game, "7g7f")
    game = await h.game(game.id)
    await h.store.update_game(replace(game, moves=("7g7f", "7g7f")))  # a second, illegal move
    h.service.games.positions.forget(game.id)
    for user, command in ((CAROL, "board"), (BOB, "move")):
        reply = await h.say(user, command, *(("3c3d",) if command == "move" else ()))
        assert "record of game #1 is damaged (move 2: 7g7f" in reply.text, reply.text
    assert (await h.game(game.id)).moves == ("7g7f", "7g7f")


async def test_a_valid_impasse_declaration_wins(h: Harness) -> None:
    game = await h.start_game()
    entered = "R7R/1B2K2B1/2+P+P1+P+P+P+P/9/9/9/9/9/4k4 b 2P 1"  # 10 pieces in, 28 points
    await h.store.update_game(replace(await h.game(game.id), start_sfen=entered))
    assert "Declare impasse on your own turn" in (await h.say(BOB, "impasse")).text
    done = await h.say(ALICE, "impasse")
    assert "Alice declared impasse with 28 points" in done.text
    assert "Alice wins by impasse declaration" in done.text
    assert (await h.game(game.id)).termination == "impasse"


async def test_fourfold_repetition_ends_in_a_draw(h: Harness) -> None:
    game = await h.start_game()
    reply = await h.play(game, *(["5i4h", "5a4b", "4h5i", "4b5a"] * 3))
    assert "Game #1 is over: draw by fourfold repetition (sennichite)" in reply.text
    final = await h.game(game.id)
    assert (final.termination, final.winner) == ("repetition", None)


async def test_private_chat_moves_go_to_the_authors_only_game(h: Harness) -> None:
    await h.start_game(ALICE, BOB)
    dm = ChatKey("console", "alice-private")
    private = {"chat": "private"}
    played = await h.service.handle(Request(dm, ALICE, "move", ("7g7f",), options=private))
    assert "Alice played P-7f" in played.text
    assert (await h.game(1)).moves == ("7g7f",)
    # Not in a private chat: the author has no game in this chat.
    other = await h.say(BOB, "move", "3c3d", chat=dm)
    assert other.ephemeral and (await h.game(1)).moves == ("7g7f",)
    # With two games the number is needed, and the answer lists them.
    await h.start_game(ALICE, CAROL, chat=ChatKey("console", "lounge"))
    both = await h.service.handle(Request(dm, ALICE, "board", (), options=private))
    assert both.ephemeral and "several games" in both.text
    assert "#1" in both.text and "#2" in both.text


async def test_a_move_naming_a_game_that_does_not_exist_says_so(h: Harness) -> None:
    game = await h.start_game()
    dm = ChatKey("console", "alice-private")
    private = {"chat": "private"}
    expected = (await h.say(ALICE, "board", "999")).text
    assert expected == "There is no game #999."
    asked = [
        await h.say(ALICE, "move", "7i7h", "999"),  # the author plays a game here
        await h.say(ALICE, "move", "7i7h", "#999"),
        await h.say(CAROL, "move", "7i7h", "999"),  # no game of the author's here
        await h.service.handle(Request(dm, ALICE, "move", ("7i7h", "999"), options=private)),
    ]
    for reply in asked:
        assert reply.ephemeral and reply.text == expected, reply.text
    assert (await h.game(game.id)).moves == ()
    # A number that is the move's own square still is: "33 34" is 3c3d in game 1.
    await h.play(game, "7g7f")
    assert "Bob played P-3d" in (await h.say(BOB, "move", "33", "34")).text


async def test_moves_of_the_side_not_to_move_are_those_of_its_turn(h: Harness) -> None:
    await h.start_game()
    waiting = await h.say(ALICE, "moves", "3c")  # sente to move; the pawn is gote's
    assert waiting.text == (
        "It is not gote's turn; on its turn Bob's Pawn on 3c (gote) could go to: P-3d."
    )
    assert not waiting.ephemeral and waiting.text_board
    assert waiting.text_board != (await h.say(ALICE, "board")).text_board  # 3d is marked
    stuck = await h.say(BOB, "moves", "8a")  # the knight's squares hold gote's own pawns
    assert stuck.ephemeral and stuck.text == (
        "It is not gote's turn, and even on it Bob's Knight on 8a (gote) would have no legal move."
    )
    await h.say(CAROL, "settings", "language", "ru")
    russian = await h.say(BOB, "moves", "3c")
    assert russian.text.startswith("Сейчас ходит не готэ; в свой ход фигура")


async def test_a_checking_piece_of_the_side_not_to_move_shows_its_threat(h: Harness) -> None:
    game = await h.start_game()
    checked = "4k4/9/9/9/4R4/9/9/9/8K w - 1"  # gote to move, in check from the rook on 5e
    await h.store.update_game(replace(await h.game(game.id), start_sfen=checked))
    rook = await h.say(BOB, "moves", "5e")
    assert rook.text.startswith("It is not sente's turn; on its turn Alice's Rook on 5e (sente)")
    assert "Rx5a" in rook.text  # taking the king: never played, but it is the threat
    assert (await h.game(game.id)).moves == ()
