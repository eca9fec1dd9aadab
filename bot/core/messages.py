"""Every user-facing string of the bot, keyed, one table per language (English, Russian,
Japanese, Polish).

``text(key, lang, **params)`` formats a message; a language that lacks a key falls back to
English.  Keys are dotted: ``area.what``.  Messages that count something (``2 дня``,
``5 очков``) live in a second table per language, one template per CLDR plural category the
language has (``one``/``other`` in English; ``one``/``few``/``many``/``other`` in Russian), and
``plural(key, lang, n)`` picks the form by Babel's plural rules for ``lang``.  Add a language by
adding both tables with the same keys (``tests/bot/core/test_messages.py`` checks that every key
used in the code exists, that every language has every message with the same placeholders, and
every plural form its rules need).

The catalogue stays in Python rather than gettext ``.po`` files: the keys are stable dotted
names the tests check against the code, the templates use ``str.format`` fields that the tests
compare across languages, and Babel supplies what gettext would (plural rules, and the CLDR
date and month names in ``present.format_when``) without an extraction and compile step.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from babel import Locale

from bot.core.messages_ja import JA, JA_PLURAL
from bot.core.messages_pl import PL, PL_PLURAL
from bot.core.messages_ru import RU, RU_PLURAL

EN: dict[str, str] = {
    # --- command summaries (help, slash-command descriptions) ----------------------------
    "cmd.challenge": "Challenge someone (or anyone) to a game",
    "cmd.play": "Play a game against me, Komabot (levels 1 to 8)",
    "cmd.accept": "Accept a challenge",
    "cmd.decline": "Decline a challenge made to you",
    "cmd.cancel": "Withdraw your challenge",
    "cmd.move": "Play a move in your game",
    "cmd.board": "Show the board",
    "cmd.moves": "Show where the piece on a square can move",
    "cmd.resign": "Resign your game (asks to confirm)",
    "cmd.draw": "Offer, accept or decline a draw",
    "cmd.abort": "Call off a game before both sides have moved",
    "cmd.takeback": "Ask to take back your last move (your opponent must agree)",
    "cmd.impasse": "Declare impasse (27-point rule, Standard Shogi)",
    "cmd.games": "List your games in progress",
    "cmd.export": "Download a game record (KIF, KIFU, CSA, USI) or an animated GIF",
    "cmd.rating": "Show a rating (yours or someone's) in this chat and overall",
    "cmd.leaderboard": "Show the best ratings of this server or group, and your place",
    "cmd.history": "Show the last games of a player here, with rating changes",
    "cmd.piece": "Show how a piece moves",
    "cmd.cheatsheet": "Show every piece of a variant",
    "cmd.settings": "Show or change this chat's settings and where your reminders go",
    "cmd.help": "List the commands or explain one",
    "cmd.complete": "Suggest values for a half-typed argument (for front ends)",
    # --- general ------------------------------------------------------------------------
    "error.internal": (
        "Something went wrong on my side while handling /{command}. "
        "/board shows where the game stands; please try again."
    ),
    "error.unknown_command": "I don't know the command /{command}. {hint}",
    "error.unknown_command.hint_similar": "Did you mean {options}? /help lists every command.",
    "error.unknown_command.hint": "/help lists every command.",
    "error.shutting_down": "I'm restarting; please send that again in a minute.",
    "error.read_only": (
        "I can't save anything just now: my database is read-only, so nothing was changed. "
        "/board, /games and /help still work; please tell whoever runs me."
    ),
    "error.disk_full": (
        "I can't save that: the disk my database is on is full, so nothing was changed. "
        "/board, /games and /help still work; please tell whoever runs me."
    ),
    "list.more": "… and {count} more",
    "error.conflict": (
        "That was not done: game #{game} changed at the same moment ({reason}). "
        "Here is the board now; try again if it still makes sense."
    ),
    "conflict.reason": "{first}; {lost}",
    "conflict.first.moved": "{name} moved first",
    "conflict.first.took_back": "a takeback was made first",
    "conflict.first.offer": "a draw or takeback offer (or its answer) came first",
    "conflict.first.resigned": "{name} resigned first",
    "conflict.first.timeout": "{name} ran out of time first",
    "conflict.first.drawn": "a draw was agreed first",
    "conflict.first.aborted": "the game was aborted first",
    "conflict.first.impasse": "an impasse was declared first",
    "conflict.lost.move": "your move was not played",
    "conflict.lost.other": "your /{command} was not carried out",
    "conflict.other": (
        "That was not done: something changed at the same moment. Please try again if it "
        "still makes sense."
    ),
    "error.record_damaged": (
        "The record of game #{game} is damaged (move {ply}: {problem}); it cannot be played on. "
        "Please report this."
    ),
    "color.sente": "sente",
    "color.gote": "gote",
    "color.random": "random colours",
    "time.none": "no time limit",
    "time.per_move": "{time} per move",
    "time.in": "in {delta}",
    "time.deadline": "deadline {when} ({relative})",
    "unit.less_than_minute": "less than a minute",
    # --- picking a game / challenge -----------------------------------------------------
    "game.none_here": (
        "You have no game in progress in this chat. Start one with /challenge, "
        "or name a game number."
    ),
    "game.none_in_chat": "No game is in progress in this chat. Start one with /challenge.",
    "game.several_in_chat": "Several games are in progress here; name one:\n{games}",
    "game.several_of_yours": (
        "You have several games in progress; add the game's number (like 7g7f 12):\n{games}"
    ),
    "game.not_found": "There is no game #{game}.",
    "game.other_chat": "Game #{game} is played in another chat; ask there.",
    "game.not_player": (
        "Only {sente} and {gote} play game #{game}; you can watch with /board {game}."
    ),
    "game.finished": "Game #{game} is over ({result}).",
    "game.bad_number": "{text!r} is not a game number (like 12 or #12).",
    "game.line": "#{game} {sente} vs {gote} · {variant} · {turn}",
    "game.turn": "{name} to move",
    "challenge.not_found": "There is no challenge #{challenge}.",
    "challenge.other_chat": "Challenge #{challenge} was made in another chat; answer it there.",
    "challenge.bad_number": "{text!r} is not a challenge number (like 12 or #12).",
    "challenge.none_for_you": "No challenge here is waiting for you.",
    "challenge.several": "Several challenges are open here; name one:\n{challenges}",
    "challenge.line": "#{challenge} {challenger} → {challenged} · {variant} · {time}",
    "challenge.anyone": "anyone",
    # --- challenge ----------------------------------------------------------------------
    "challenge.bad_arg": (
        "I can't read {word!r} in a challenge. Write /challenge [@user] "
        "[shogi|wa|wa-drops] [random|sente|gote] [1d|3d|7d|none] [rated|casual]; "
        "to play me, /challenge bot "
        "with a level from 1 to 8 (or /play)."
    ),
    "challenge.twice": "{word!r} and {other!r} both say the {what}; pick one.",
    "challenge.what.variant": "variant",
    "challenge.what.color": "colour",
    "challenge.what.time": "time per move",
    "challenge.what.opponent": "opponent",
    "challenge.what.level": "level",
    "challenge.what.rated": "rated or casual",
    "challenge.casual": "casual (not rated)",
    "bot.unrated": "Games against me are never rated: leave out “rated”.",
    "challenge.time_range": (
        "Time per move must be between {low} and {high} (or none); {time} is not."
    ),
    "challenge.unknown_user": (
        "I don't know {name} yet on this platform: they need to send me any command first "
        "(for example /help), or reply to one of their messages with /challenge."
    ),
    "challenge.ambiguous_user": (
        "Several people I know are called {name}: {people}. Anyone can take a name, so "
        "mention the one you mean: pick them from the list your app offers as you type @ "
        "(or the opponent option of the slash command), or reply to one of their messages "
        "with /challenge."
    ),
    "challenge.number_name": (
        "I don't take {name} for a person: a number could be anyone's name. Mention them: "
        "pick them from the list your app offers as you type @ (or the opponent option of "
        "the slash command), or reply to one of their messages with /challenge."
    ),
    "challenge.by_name": (
        "Challenging {who}, the only person called {name} I know. Someone else? "
        "/cancel {challenge} and mention them instead."
    ),
    "challenge.self": "You can't challenge yourself; leave out the name for an open challenge.",
    "challenge.you_busy": (
        "You already have game #{game} in this chat; finish it first (one game per player "
        "per chat)."
    ),
    "challenge.they_busy": "{name} already has game #{game} in this chat; challenge them later.",
    "challenge.already_open": (
        "You already have challenge #{challenge} open here; /cancel {challenge} it first."
    ),
    "challenge.card": (
        "⚔️ Challenge #{challenge}: {challenger} challenges {challenged} to {variant}.\n"
        "{challenger} plays {color} · {time} · open until {expires}.\n"
        "{challenged}: /accept {challenge} or /decline {challenge}"
    ),
    "challenge.card_open": (
        "⚔️ Open challenge #{challenge}: {challenger} wants to play {variant} with anyone.\n"
        "{challenger} plays {color} · {time} · open until {expires}.\n"
        "Anyone: /accept {challenge}"
    ),
    "challenge.closed.accepted": "Challenge #{challenge} was accepted by {name}: game #{game}.",
    "challenge.closed.declined": "{name} declined challenge #{challenge}.",
    "challenge.closed.cancelled": "{name} withdrew challenge #{challenge}.",
    "challenge.closed.expired": "Challenge #{challenge} expired: nobody accepted it in time.",
    "challenge.not_open": "Challenge #{challenge} is no longer open ({status}).",
    "challenge.status.accepted": "accepted",
    "challenge.status.declined": "declined",
    "challenge.status.cancelled": "withdrawn",
    "challenge.status.expired": "expired",
    "challenge.status.open": "open",
    "challenge.not_for_you": "Challenge #{challenge} is for {name}, not you.",
    "challenge.own": "That is your own challenge; /cancel {challenge} to withdraw it.",
    "challenge.decline_open": "Nobody needs to decline an open challenge; just leave it.",
    "challenge.cancel_not_yours": "Only {name} can withdraw challenge #{challenge}.",
    "challenge.accepter_busy": (
        "You already have game #{game} in this chat; finish it before accepting another."
    ),
    "challenge.challenger_busy": "{name} has started game #{game} here meanwhile; try later.",
    "button.accept": "Accept",
    "button.decline": "Decline",
    "button.cancel": "Withdraw",
    # --- game start / moves -------------------------------------------------------------
    "game.started": (
        "🎌 Game #{game} begins: {sente} (sente ☗) vs {gote} (gote ☖), {variant}, {time}."
    ),
    "move.played": "{mover} played {move}.",
    "move.check": "Check!",
    "move.next": "{name} ({color}) to move.",
    "move.next_deadline": "{name} ({color}) to move — {deadline}.",
    "move.missing": "Which move? For example /move {example}.",
    "move.not_your_turn": "It's {name}'s turn in game #{game}, not yours.",
    "move.malformed": "{problem}",
    "move.illegal": "Not played: {problem}",
    "move.ambiguous": "{text!r} fits several moves; pick one:",
    "move.promotion_choice": "{text!r}: promote or not? Pick one:",
    "move.example.shogi": "7g7f or P-7f",
    "move.example.wa": "8h8g or SP-8g",
    "offer.draw_pending": "{name} offers a draw: /draw accept or /draw decline.",
    "offer.takeback_pending": (
        "{name} asks to take back a move: /takeback accept or /takeback decline."
    ),
    # --- results ------------------------------------------------------------------------
    "result.checkmate": "checkmate",
    "result.no_legal_moves": "stalemate (no legal move left)",
    "result.repetition": "fourfold repetition (sennichite)",
    "result.perpetual_check": "perpetual check (sennichite)",
    "result.impasse": "impasse declaration",
    "result.resignation": "resignation",
    "result.timeout": "time forfeit",
    "result.agreed_draw": "agreement",
    "result.aborted": "aborted",
    "result.illegal_move": "the opponent's illegal move",
    "result.wins": "{winner} wins by {reason}",
    "result.draw": "draw by {reason}",
    "result.aborted_line": "aborted",
    "game.over": "🏁 Game #{game} is over: {result}.",
    "game.over.export": "Download the record:",
    "rating.changes": "📈 Ratings: {changes}.",
    "rating.change": "{name} {before} → {after} ({delta})",
    "rating.bad_arg": "Write /rating [@user] [shogi|wa|wa-drops]; {word!r} is neither.",
    "rating.no_games": "{name} has no rated games yet.",
    "rating.title": "📊 Ratings of {name} (? provisional)",
    "rating.variant": "{variant}:",
    "rating.line": (
        "  {where}: {rating} ±{deviation} · games: {games} ({wins} W / {losses} L / {draws} D)"
    ),
    "rating.none_here": "  {where}: no rated games",
    "rating.where.here": "this chat",
    "rating.where.overall": "overall",
    "rating.where.server": "this server",
    "rating.best_win": "    best win: {rating} ({name}, game #{game})",
    "rating.streak": "    current streak: {streak}",
    "page.range": "Page {page!r} is not one I can show: pages are numbered 1 to {most}.",
    "page.missing": "There is no page {page}: there are {pages}.",
    "button.page_back": "◀ Page {page}",
    "button.page_next": "Page {page} ▶",
    "leaderboard.bad_arg": (
        "Write /leaderboard [shogi|wa|wa-drops] [page]; {word!r} is neither a variant nor a "
        "page number."
    ),
    "leaderboard.title": "{variant} leaderboard, {where} (page {page} of {pages})",
    "leaderboard.line": "{place}. {name} {rating} ±{deviation} · games: {games}",
    "leaderboard.head.player": "Player",
    "leaderboard.head.rating": "Rating",
    "leaderboard.head.games": "Games",
    "leaderboard.empty": (
        "No one here has a settled {variant} rating yet: a rating joins the leaderboard when it "
        "is no longer provisional (after about five rated games)."
    ),
    "leaderboard.you": "Your place: {place} of {total} ({rating}).",
    "leaderboard.you_provisional": (
        "Your rating {rating} is still provisional (±{deviation}): it joins the leaderboard "
        "below ±{threshold}."
    ),
    "leaderboard.you_none": "You have no rated games in this variant here yet.",
    "history.bad_arg": "Write /history [@user] [page]; {word!r} is neither.",
    "history.none": "{name} has no finished games in {where} yet.",
    "history.title": "📜 Games of {name} in {where}, newest first (page {page} of {pages}):",
    "history.line": "#{game} · {opponent} · {variant} · {result} · {rating}",
    "history.won": "won by {reason}",
    "history.lost": "lost by {reason}",
    "history.drawn": "draw by {reason}",
    "history.aborted": "aborted",
    "history.change": "{before} → {after} ({delta})",
    "history.unrated": "not rated",
    "history.export": "Download a record: /export NUMBER.",
    # --- why a move is illegal (rules error codes; English replies use the rules core's own
    # wording, which these templates mirror: they are the reference for other languages) ---
    "rules.no_piece": "there is no piece on {square}",
    "rules.not_your_piece": "the {piece} on {square} belongs to your opponent",
    "rules.own_piece_on_target": "your own {piece} is on {square}",
    "rules.bad_pattern": "a {piece} cannot move from {origin} to {square}",
    "rules.path_blocked": (
        "the {piece} on {origin} cannot reach {square}: the way is blocked by {blocker_side}'s "
        "{blocker_piece} on {blocker}"
    ),
    "rules.cannot_promote.never_promotes": "a {piece} cannot promote",
    "rules.promotion_outside_zone": (
        "a piece may promote only on a move that starts or ends in the promotion zone (the far "
        "{depth} ranks); {origin}-{square} does neither"
    ),
    "rules.must_promote": (
        "a {piece} on {square} could never move again, so it must promote (add +)"
    ),
    "rules.not_in_hand": "you have no {piece} in hand",
    "rules.dead_drop": (
        "a {piece} dropped on {square} could never move, so it may not be dropped there"
    ),
    "rules.nifu": (
        "you already have an unpromoted {piece} on this file (on {other}): two on one file is "
        "forbidden (nifu)"
    ),
    "rules.uchifuzume": "dropping a {piece} to give checkmate is forbidden (uchifuzume)",
    "rules.leaves_king_in_check": (
        "this move would leave your king on {king} in check from {attackers}"
    ),
    "rules.still_in_check": (
        "you are in check, and after this move your king on {king} would still be attacked "
        "from {attackers}"
    ),
    "rules.foreign_piece": (
        "{written} is a piece of another variant, not of this game; here {pieces} moves like "
        "it: did you mean {example}?"
    ),
    "rules.foreign_piece_unmatched": (
        "{written} is a piece of another variant, not of this game, and no piece here moves "
        "like it; the pieces of this game are {pieces}"
    ),
    "rules.no_drops": "{variant} has no drops: captured pieces leave the game",
    "rules.not_droppable": "a {piece} cannot be dropped",
    "rules.square_occupied": "{square} is occupied by {side}'s {piece}",
    "rules.cannot_promote.already_promoted": "a {piece} is already promoted",
    "rules.illegal_move": "that move is not legal here",
    "rules.drop_cannot_promote": (
        "{text!r}: a piece dropped from the hand cannot promote on the drop; write {suggestion}"
    ),
    "rules.no_matching_move": "{text!r} fits no legal move; did you mean {texts}?",
    "rules.not_droppable.kind_not_droppable": (
        "{text!r}: {kinds} cannot be dropped (only unpromoted pieces from the hand)"
    ),
    "rules.no_piece_reaches": "none of your pieces can move to {square}",
    "rules.piece_cannot_reach.one": "your {kinds} on {origins} cannot move to {square}",
    "rules.piece_cannot_reach.many": "none of your {count} {kinds}s can move to {square}",
    "rules.no_such_piece.on_board": "you have no {kinds}",
    "rules.no_such_piece.with_drops": "you have no {kinds} on the board or in hand",
    # a move that cannot be read at all
    "rules.malformed_move.unreadable_move": "cannot read {text!r} as a move",
    "rules.malformed_move.plus_without_piece": (
        "cannot read {text!r} as a move: a + before the piece needs the piece letter, like +R-3c"
    ),
    "rules.malformed_move.drop_with_origin": (
        "cannot read {text!r} as a move: a drop has no origin square: write it like S*5e"
    ),
    "rules.malformed_move.drop_without_piece": (
        "cannot read {text!r} as a move: a drop needs the piece: write it like P*5e"
    ),
    "rules.malformed_move.drop_promotes": (
        "cannot read {text!r} as a move: a dropped piece never promotes on the drop: leave out "
        "+ or ="
    ),
    "rules.all_digit_square": (
        "{text!r}: on a {files}x{ranks} board a square needs its rank letter (like 11k or 6h), "
        "or its rank as a kanji numeral, so numbers never run together; all-digit squares are "
        "for 9x9 only"
    ),
    "rules.malformed_move.same_square": "{text!r}: origin and destination are the same square",
    "rules.bad_square.no_such_square": (
        "{text!r}: {square} is not a square: files are 1-{files} and ranks a-{last}"
    ),
    "rules.unknown_piece.unknown_piece_code": (
        "{text!r}: no piece {token!r} in {variant} (pieces: {letters}; codes: {codes}; a "
        "promoted piece has + in front, like +R)"
    ),
    "rules.malformed_move.japanese_after_piece": (
        "{text!r}: cannot read {rest!r} after the piece (expected 右 左 直 上 引 寄, then 成, 不成 "
        "or 打)"
    ),
    "rules.malformed_move.japanese_marks": "{text!r}: at most one of 右/左 and one of 上/引/寄/直",
    "rules.malformed_move.japanese_drop_origin": "{text!r}: a drop (打) has no origin or direction",
    "rules.unknown_piece.japanese_piece_expected": (
        "{text!r}: after the square comes the piece's name ({sample}...)"
    ),
    "rules.bad_square.japanese_square_first": (
        "{text!r}: a Japanese move starts with the square (file then rank, like ７六) or 同"
    ),
    "rules.bad_square.square_too_long": (
        "{text!r}: {run!r} is too long for a square (file then rank, like ７六 or １１十一)"
    ),
    "rules.bad_square.ambiguous_square": (
        "{text!r}: the square {run!r} can be read more than one way; write the file in digits "
        "and the rank in kanji, like １０三"
    ),
    "rules.bad_square.bad_origin": (
        "{text!r}: ({token}) is not an origin square here; write it like {form}"
    ),
    "rules.no_previous_move": (
        "{text!r}: 同 means the square of the previous move, and there is none"
    ),
    "rules.malformed_move.bad_usi": (
        "{text!r} is not a USI move: write origin and destination like 7g7f, add + to promote "
        "(8h2b+), or a drop like P*5e"
    ),
    "rules.malformed_move.bad_usi_drop": (
        "{text!r}: {token!r} is not a piece that can be dropped in {variant} (one of {letters})"
    ),
    "rules.empty_move": "no move given",
    "rules.move_too_long": "that is too long for a move ({length} characters)",
    "rules.bad_square": (
        "{text!r} is not a square: write the file 1-{width} then the rank a-{last}, like {example}"
    ),
    "rules.examples": (
        ". Write a move like {usi} (USI), {western} (Western) or {japanese} (Japanese)"
    ),
    "rules.examples.drop": "; a drop: {drop}",
    # a piece name /piece cannot find
    "rules.unknown_piece.piece_name_missing": "Give a piece name, kanji, letter or code.",
    "rules.unknown_piece.close_names": "No piece is called {query!r}. Did you mean: {candidates}?",
    "rules.unknown_piece.no_close_name": "No piece is called {query!r}.",
    # --- board / moves ------------------------------------------------------------------
    "board.sente": "Sente",
    "board.gote": "Gote",
    "board.move": "Move {n}",
    "board.to_move": "{name} to move",
    "board.header": "Game #{game}: {sente} ☗ vs {gote} ☖ · {variant} · move {ply}",
    "board.last_move": "Last move: {move}.",
    # a finished game's board image says how it ended (one per rules.Termination)
    "board.result.checkmate": "Checkmate: {winner} wins",
    "board.result.no_legal_moves": "No legal moves: {winner} wins",
    "board.result.repetition": "Draw by repetition",
    "board.result.perpetual_check": "Perpetual check: {winner} wins",
    "board.result.impasse": "Impasse: {winner} wins",
    "board.result.resignation": "Resignation: {winner} wins",
    "board.result.timeout": "Time out: {winner} wins",
    "board.result.agreed_draw": "Draw by agreement",
    "board.result.aborted": "Game aborted",
    "board.result.illegal_move": "Illegal move: {winner} wins",
    "textboard.sente": "☗ sente",
    "textboard.gote": "☖ gote",
    "textboard.hand": "hand",
    "textboard.legend": "{keys}; +X promoted, vX gote's",
    "textboard.marks.last_move": "* marks the last move",
    "textboard.marks.targets": "* marks where the piece can go",
    "moves.missing": "Which piece? Name its square, for example /moves 7g.",
    "moves.bad_square": "{problem}",
    "moves.empty_square": "There is no piece on {square}.",
    "moves.none": "{owner}'s {piece} on {square} ({color}) has no legal move now.",
    "moves.none_waiting": (
        "It is not {color}'s turn, and even on it {owner}'s {piece} on {square} ({color}) "
        "would have no legal move."
    ),
    "moves.list": "{owner}'s {piece} on {square} ({color}) can go to: {moves}.",
    "moves.list_waiting": (
        "It is not {color}'s turn; on its turn {owner}'s {piece} on {square} ({color}) "
        "could go to: {moves}."
    ),
    # --- resign / draw / abort / takeback / impasse --------------------------------------
    "resign.confirm": (
        "Really resign game #{game} against {opponent}? Press Resign or type /resign yes."
    ),
    "resign.bad_arg": "Type /resign to be asked, then /resign yes to confirm.",
    "resign.done": "{name} resigned.",
    "button.resign": "Resign",
    "draw.offered": "{name} offers a draw in game #{game}. {opponent}: accept or decline?",
    "draw.already": "You have already offered a draw; wait for {opponent}'s answer.",
    "draw.none_to_answer": "There is no draw offer from {opponent} to answer.",
    "draw.declined": "{name} declined the draw offer in game #{game}. Play goes on.",
    "draw.agreed": "{name} accepted the draw.",
    "draw.bad_arg": "Write /draw (offer), /draw accept or /draw decline; {word!r} is none of them.",
    "button.draw_accept": "Accept draw",
    "button.draw_decline": "Decline draw",
    "abort.too_late": (
        "Game #{game} can no longer be aborted: both sides have moved. Resign or offer a draw."
    ),
    "abort.done": "{name} aborted game #{game}.",
    "takeback.nothing": "You have no move to take back in game #{game}.",
    "takeback.asked": "{name} asks to take back {moves} in game #{game}. {opponent}: agree?",
    "takeback.already": "You have already asked; wait for {opponent}'s answer.",
    "takeback.none_to_answer": "There is no takeback request from {opponent} to answer.",
    "takeback.declined": "{name} refused the takeback in game #{game}.",
    "takeback.done": "{name} agreed: {moves} taken back.",
    "takeback.bad_arg": (
        "Write /takeback (ask), /takeback accept or /takeback decline; {word!r} is none of them."
    ),
    "button.takeback_accept": "Allow takeback",
    "button.takeback_decline": "Refuse",
    "impasse.not_your_turn": "Declare impasse on your own turn; it is {name}'s turn.",
    "impasse.none": "{variant} has no impasse rule.",
    "impasse.refused": "Impasse declaration refused: {reasons}.",
    "impasse.unmet.king_in_zone": "your king is not in the promotion zone",
    "impasse.unmet.pieces_in_zone": (
        "only {pieces} of your other pieces are in the zone (at least {pieces_needed} needed)"
    ),
    "impasse.unmet.not_in_check": "you are in check",
    "impasse.unmet.points": "you have {points} ({needed} needed)",
    "impasse.done": "{name} declared impasse with {points}.",
    # --- games --------------------------------------------------------------------------
    "games.none": "You have no game in progress. Start one with /challenge.",
    "games.title": "Your games in progress:",
    "games.line": "#{game} vs {opponent} · {variant} · move {n} · {turn}{deadline} · {where}",
    "games.your_turn": "your move",
    "games.their_turn": "{name}'s move",
    "games.here": "this chat",
    "games.elsewhere": "chat {chat}",
    # --- export -------------------------------------------------------------------------
    "export.event": "Komabot game #{game}",  # the record's event (棋戦) field
    "export.bad_format": "{fmt!r} is not a format I export; use one of {formats}.",
    "export.none": "You have no game in this chat to export; name a game number.",
    "export.done": "Game #{game} as {fmt}.",
    "export.not_for_variant": "{variant} games can't be written as {fmt}; use one of {formats}.",
    "export.unavailable": "Exporting {fmt} is not available: {problem}",
    "export.too_big": "The animation of game #{game} is too large to send; try KIF or CSA.",
    "export.busy": (
        "Other animations are being made right now; ask for /export gif {game} again in a "
        "minute (records such as KIF come at once)."
    ),
    "export.replaced": (
        "Shift-JIS cannot hold {chars}, so this {fmt} file has ? in their place; "
        "/export kifu {game} (UTF-8) keeps them."
    ),
    # --- piece / cheatsheet -------------------------------------------------------------
    "piece.missing": "Which piece? For example /piece rook, /piece SP or /piece 飛.",
    "piece.not_found": "{problem} ({sheets} shows every piece.)",
    "piece.caption": (
        "{name} ({kanji}, {romaji}) — {variant}. Moves: {moves} (Betza: {betza}).{promotes}"
    ),
    "piece.which": (
        "Several pieces fit {query!r}: {names}. Which one? ({sheets} shows every piece.)"
    ),
    # how pieces move, in words (rules.movement's parts); {directions} is a list of describe.dir
    "describe.step": "one step {directions}",
    "describe.slide": "any distance {directions}",
    "describe.range": "up to {limit} squares {directions}",
    "describe.jump": "jumps {n} squares {directions}, over any piece",
    "describe.knight": "jumps to the square {long} {along} and {short} {across}",
    "describe.knight_wide": "jumps to the square {long} {across} and {short} {along}",
    "describe.repeat": "{move}, again and again in a line while the squares are empty",
    "describe.repeat_up_to": "{move}, up to {limit} times in a line while the squares are empty",
    "describe.or": " or ",
    "describe.list": ", ",
    "describe.parts": "; ",
    "describe.dir.any": "in any direction",
    "describe.dir.forward": "forward",
    "describe.dir.backward": "backward",
    "describe.dir.sideways": "sideways",
    "describe.dir.left": "to the left",
    "describe.dir.right": "to the right",
    "describe.dir.diagonal": "diagonally",
    "describe.dir.diagonally_forward": "diagonally forward",
    "describe.dir.diagonally_backward": "diagonally backward",
    "describe.dir.forward_left": "diagonally forward to the left",
    "describe.dir.forward_right": "diagonally forward to the right",
    "describe.dir.backward_left": "diagonally backward to the left",
    "describe.dir.backward_right": "diagonally backward to the right",
    "describe.along.forward": "ahead",
    "describe.along.backward": "back",
    "describe.across.side": "to the side",
    "describe.across.left": "to the left",
    "describe.across.right": "to the right",
    "describe.n.1": "one",
    "describe.n.2": "two",
    "describe.n.3": "three",
    "describe.n.4": "four",
    "piece.promotes": " Promotes to {name}.",
    "piece.promoted_from": " Promoted form of the {name}.",
    "variant.unknown": "{word!r} is not a variant; use shogi, wa or wa-drops.",
    "cheatsheet.caption": "Every piece of {variant}.",
    # words drawn on piece diagrams and cheat sheets
    "diagram.pieces_and_promotions": "pieces and promotions",
    "diagram.promoted": "promoted: {name}",
    "diagram.does_not_promote": "does not promote",
    "diagram.king": "king",
    "diagram.one_step": "one step",
    "diagram.jump": "jump over pieces",
    "diagram.slide": "slide any distance",
    "diagram.slide_at_most": "slide at most {n}",
    # --- settings -----------------------------------------------------------------------
    "settings.show": (
        "Settings of this chat:\n"
        "• language: {language} (en: English, ru: Russian, ja: Japanese, pl: Polish)\n"
        "• notation: {notation} (western, japanese or usi)\n"
        "• style: {style} (kanji or international)\n"
        "• perspective: {perspective} (mover: the player to move at the bottom; sente: always "
        "sente)\n"
        "• bare: {bare} (on: a message that is only a move, like 7g7f, plays it; Discord "
        "channels with text commands)\n"
        "• threads: {threads} (on: each challenge and its game get a thread of their own; "
        "Discord channels)\n"
        "Yours, in every chat:\n"
        "• reminders: {reminders} (chat: in the game's chat; dm: a direct message from the bot)"
        "\n"
        "Change with /settings language ru, /settings notation japanese, /settings bare on, "
        "/settings reminders dm..."
    ),
    "settings.changed": "Settings changed: {changes}.",
    "settings.bad_key": (
        "{word!r} is not a setting; the settings are language, notation, style, perspective, "
        "bare, threads and reminders."
    ),
    "settings.which_key": (
        "{word!r} could be {keys}: name the setting first, like /settings threads {word}."
    ),
    "settings.not_admin": (
        "Only someone who may manage this chat can change its settings; "
        "/settings reminders dm|chat is yours to choose anywhere."
    ),
    "settings.admin_unknown": (
        "I could not check that you administer this group; try again in a moment."
    ),
    "settings.bad_value": "{value!r} is not a {key}; choose one of {choices}.",
    "settings.missing_value": "Give a value for {key}: one of {choices}.",
    # --- clocks -------------------------------------------------------------------------
    "clock.reminder": "⏰ {name}, it's your move in game #{game} against {opponent}: {left} left.",
    "clock.timeout": "{name} ran out of time.",
    # --- playing the bot ----------------------------------------------------------------
    "bot.brand": "Komabot",
    "bot.name": "Komabot, level {level}",
    "bot.mention": "the mention of me",
    "bot.started": (
        "{name} answers each move within seconds and never runs out of time; the time per "
        "move is yours alone."
    ),
    "bot.to_move": "{name} ({color}) is thinking…",
    "bot.thinking": (
        "{name} is thinking about its move in game #{game}; its answer comes in a few seconds."
    ),
    "bot.no_draw": (
        "{name} declines the draw in game #{game}: it plays every game to the end. Play on, "
        "or /resign."
    ),
    "bot.failed": (
        "{name} could not move in game #{game}: its engine failed. Nothing is lost; it tries "
        "again in {delay} (and after a restart)."
    ),
    "bot.level_range": (
        "{word!r} is not a level: choose one from {low} (weakest) to {high} (strongest), "
        "like /play wa level 4."
    ),
    "bot.level_missing": "After {word!r} give my level, a number from 1 to 8: /play wa level 4.",
    "bot.level_for_bot": (
        "Level {level} is for games against me: /play level {level}, or /challenge bot level "
        "{level}. A time per move is written 1d, 3d or 7d."
    ),
    "play.bad_arg": (
        "I can't read {word!r} in /play. Write /play [shogi|wa|wa-drops] [level 1-8] "
        "[random|sente|gote] [1d|3d|7d|none], like /play wa level 4 sente."
    ),
    "play.person": (
        "/play is a game against me; to play {name}, write /challenge and mention them."
    ),
    "button.play_bot": "Play the bot",
    "help.play_bot": "Play me now: /play [variant] [level 1-8], or the button below.",
    # --- front ends ---------------------------------------------------------------------
    "button.not_yours": "That button is for someone else.",
    "console.only_you": "(only you see this)",
    "console.image": "image: {path}",
    "console.file": "file: {path}",
    "console.banner": (
        "Komabot console: you can act as any user.\n"
        "  @alice /challenge @bob wa     speak as alice (any name), challenge bob to Wa Shogi\n"
        "  @bob /accept                  bob accepts;  @alice /move 8h8g  alice moves\n"
        "  /play wa level 4              play the bot (or /challenge @komabot wa level 4)\n"
        "  /as bob                       speak as bob from now on (now: {user})\n"
        "  /chat NAME                    go to another chat (now: {chat})\n"
        "  /help                         the bot's commands;  /quit or Ctrl-D leaves\n"
        "Buttons print as [label: /command]; type the command to press one.\n"
        "Images and files go to {out}"
    ),
    "console.say_something": "(say something as {user}, e.g. @{user} /board)",
    "console.not_a_command": "(not a command: {line}; commands start with /, e.g. /help)",
    "console.write_as": "(write /as NAME)",
    "console.write_chat": "(write /chat NAME)",
    "console.you_are": "(you are now {user})",
    "console.in_chat": "(now in chat {chat})",
    "console.to_chat": "[bot in chat {chat}]",
    "console.to_user": "[bot to @{user} privately]",
    "console.updates": "[bot updates {card} in chat {chat}]",
    "discord.activity": "/shogi help",
    "discord.group": "Play Standard Shogi and Wa Shogi by correspondence",
    # Discord's names of the slash subcommands and options (the English ones are canonical)
    "slash.command.challenge": "challenge",
    "slash.command.play": "play",
    "slash.command.accept": "accept",
    "slash.command.decline": "decline",
    "slash.command.cancel": "cancel",
    "slash.command.move": "move",
    "slash.command.board": "board",
    "slash.command.moves": "moves",
    "slash.command.resign": "resign",
    "slash.command.draw": "draw",
    "slash.command.abort": "abort",
    "slash.command.takeback": "takeback",
    "slash.command.impasse": "impasse",
    "slash.command.games": "games",
    "slash.command.rating": "rating",
    "slash.command.leaderboard": "leaderboard",
    "slash.command.history": "history",
    "slash.command.export": "export",
    "slash.command.piece": "piece",
    "slash.command.cheatsheet": "cheatsheet",
    "slash.command.settings": "settings",
    "slash.command.help": "help",
    "slash.option.opponent": "opponent",
    "slash.option.variant": "variant",
    "slash.option.color": "color",
    "slash.option.time": "time",
    "slash.option.rating": "rating",
    "slash.option.level": "level",
    "slash.option.challenge": "challenge",
    "slash.option.move": "move",
    "slash.option.game": "game",
    "slash.option.square": "square",
    "slash.option.answer": "answer",
    "slash.option.user": "user",
    "slash.option.page": "page",
    "slash.option.format": "format",
    "slash.option.name": "name",
    "slash.option.language": "language",
    "slash.option.notation": "notation",
    "slash.option.style": "style",
    "slash.option.perspective": "perspective",
    "slash.option.bare": "bare",
    "slash.option.threads": "threads",
    "slash.option.reminders": "reminders",
    "slash.option.command": "command",
    "discord.bad_option": "I could not read the option {option!r}: {problem}",
    "discord.too_big": "({files} left out: larger than the {limit} this chat accepts.)",
    "discord.intent_missing": (
        "Discord refused the Message Content intent: switch it on in the developer portal "
        "(your application, Bot, Privileged Gateway Intents) or set DISCORD_MESSAGE_CONTENT=0."
    ),
    "challenge.thread_name": "Shogi: {name}'s challenge",
    "discord.thread_opened": "Challenge posted in {thread}; the game will be played there.",
    # --- Telegram: the bot's profile (setMyDescription, setMyShortDescription) ---------------
    "telegram.description": (
        "I am Komabot: play Standard Shogi and Wa Shogi by correspondence, here or in your groups. "
        "Challenge someone with /challenge or play me with /play; type moves as 7g7f, P-7f or ７六"
        "歩 and get the board after every move. /piece and /cheatsheet show how the pieces move; "
        "/help lists every command."
    ),
    "telegram.short_description": (
        "Standard Shogi and Wa Shogi by correspondence: challenges, board images, ratings."
    ),
    # --- slash-command options and the names of their choices (Discord) ------------------
    "arg.game": "game number, when you have several or watch another game",
    "arg.challenge.opponent": "who to challenge (me too); leave out for an open challenge",
    "arg.challenge.variant": "shogi, wa (no drops) or wa-drops",
    "arg.challenge.color": "your side: random, sente (first) or gote",
    "arg.challenge.time": "time per move",
    "arg.challenge.rating": "rated (the default) or casual",
    "arg.challenge.level": "when you challenge me: my strength, 1 to 8",
    "arg.play.level": "my strength: 1 (weakest) to 8 (strongest)",
    "arg.play.time": "your time per move",
    "arg.challenge": "challenge number",
    "arg.move.move": "the move: 7g7f, P-7f, ７六歩, SP-6h...",
    "arg.moves.square": "the square of the piece, like 7g",
    "arg.draw.answer": "offer, accept or decline",
    "arg.takeback.answer": "ask, accept or decline",
    "arg.rating.user": "whose rating (yours when left out)",
    "arg.rating.variant": "only this variant",
    "arg.leaderboard.variant": "which variant (the one played here last)",
    "arg.leaderboard.page": "page number (ten players a page)",
    "arg.history.user": "whose games (yours when left out)",
    "arg.history.page": "page number (ten games a page)",
    "arg.export.format": "file format",
    "arg.piece.name": "a piece name, code or kanji: rook, SP, 飛, sparrow",
    "arg.piece.variant": "where to look",
    "arg.cheatsheet.variant": "which variant",
    "arg.settings.language": "the bot's language in this chat",
    "arg.settings.notation": "how moves are written",
    "arg.settings.style": "how pieces look",
    "arg.settings.perspective": "board from the side to move, or always sente",
    "arg.settings.bare": "a message that is only a move plays it",
    "arg.settings.threads": "a thread for each game in this channel",
    "arg.settings.reminders": "your reminders: in the game's chat or by DM",
    "arg.help.command": "a command name",
    "choice.variant.shogi": "Standard Shogi",
    "choice.variant.wa": "Wa Shogi (no drops)",
    "choice.variant.wa-drops": "Wa Shogi with drops",
    "choice.color.random": "random",
    "choice.color.sente": "sente (moves first)",
    "choice.color.gote": "gote",
    "choice.time.1d": "1 day per move",
    "choice.time.3d": "3 days per move",
    "choice.time.7d": "7 days per move",
    "choice.time.none": "no time limit",
    "choice.rating.rated": "rated",
    "choice.rating.casual": "casual",
    "choice.answer.offer": "offer",
    "choice.answer.ask": "ask",
    "choice.answer.accept": "accept",
    "choice.answer.decline": "decline",
    "choice.language.en": "English",
    "choice.language.ru": "Russian",
    "choice.language.ja": "Japanese",
    "choice.language.pl": "Polish",
    "choice.notation.western": "Western (P-7f)",
    "choice.notation.japanese": "Japanese (７六歩)",
    "choice.notation.usi": "USI (7g7f)",
    "choice.style.kanji": "kanji",
    "choice.style.international": "international (Western symbols)",
    "choice.perspective.mover": "the side to move at the bottom",
    "choice.perspective.sente": "always sente at the bottom",
    "choice.bare.on": "on",
    "choice.bare.off": "off",
    "choice.threads.on": "on",
    "choice.threads.off": "off",
    "choice.reminders.chat": "in the game's chat",
    "choice.reminders.dm": "direct message",
    # --- help ---------------------------------------------------------------------------
    "help.title": "Komabot plays Standard Shogi and Wa Shogi by correspondence. Commands:",
    "help.footer": "Details: /help COMMAND. Moves may be written 7g7f, P-7f or ７六歩.",
    # the placeholders of a command's syntax in /help (the words a player types stay)
    "syntax.user": "user",
    "syntax.challenge": "challenge",
    "syntax.game": "game",
    "syntax.page": "page",
    "syntax.command": "command",
    "syntax.move": "MOVE",
    "syntax.square": "SQUARE",
    "syntax.name": "NAME",
    "help.command": "/{name} {syntax}\n{summary}\nExample: {example}{aliases}",
    "help.aliases": "\nAlso: {aliases}",
    "help.unknown": "There is no command {word!r}. /help lists them all.",
    "help.move_extra": (
        "\nNotations: USI (7g7f, P*5e, 8h2b+), Western (P-7f, Bx2b+, S*5e, SP-6h) or "
        "Japanese (７六歩, 同　歩, ２二角成)."
    ),
}

# Counted messages: CLDR plural category -> template; ``{n}`` is the count.
EN_PLURAL: dict[str, dict[str, str]] = {
    # durations: deadlines, reminders, time per move ("2d 5h", "3d per move")
    "unit.d": {"one": "{n}d", "other": "{n}d"},
    "unit.h": {"one": "{n}h", "other": "{n}h"},
    "unit.m": {"one": "{n}m", "other": "{n}m"},
    "rating.streak.wins": {"one": "{n} won in a row", "other": "{n} won in a row"},
    "rating.streak.losses": {"one": "{n} lost in a row", "other": "{n} lost in a row"},
    "rating.streak.draws": {"one": "{n} drawn in a row", "other": "{n} drawn in a row"},
    "impasse.points": {"one": "{n} point", "other": "{n} points"},
}

CATALOGUE: dict[str, Mapping[str, str]] = {"en": EN, "ru": RU, "ja": JA, "pl": PL}
PLURAL_CATALOGUE: dict[str, Mapping[str, Mapping[str, str]]] = {
    "en": EN_PLURAL,
    "ru": RU_PLURAL,
    "ja": JA_PLURAL,
    "pl": PL_PLURAL,
}
LANGUAGES: tuple[str, ...] = tuple(CATALOGUE)


def text(key: str, lang: str = "en", /, **params: Any) -> str:
    """The message ``key`` in ``lang`` (falling back to English) with ``params`` filled in."""
    template = CATALOGUE.get(lang, EN).get(key) or EN[key]
    return template.format(**params) if params else template


@cache
def locale(lang: str) -> Locale:
    """Babel's CLDR data for a catalogue language (unknown ones: English)."""
    return Locale.parse(lang if lang in CATALOGUE else "en")


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of ``n`` in ``lang``: ``one``, ``few``, ``many``, ``other``..."""
    return locale(lang).plural_form(n)


def plural_categories(lang: str) -> frozenset[str]:
    """Every plural category ``lang`` distinguishes (``other`` always among them)."""
    return locale(lang).plural_form.tags | {"other"}


def plural(key: str, lang: str, n: int, /, **params: Any) -> str:
    """The counted message ``key`` for ``n`` in ``lang`` (falling back to English), in the
    grammatical form Babel's plural rules choose: ``2 дня``, ``5 дней``, ``21 день``."""
    if key not in PLURAL_CATALOGUE.get(lang, {}):
        lang = "en"
    forms = PLURAL_CATALOGUE[lang][key]
    template = forms.get(plural_category(lang, n)) or forms["other"]
    return template.format(n=n, **params)


def has(key: str) -> bool:
    return key in EN or key in EN_PLURAL
