"""What boards say to people: results on finished games' images, one move numbering, the
chat's coordinates, the text board's key, and /impasse's reasons, in English and Russian."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from bot.core import present
from bot.core.messages import CATALOGUE, LANGUAGES
from render import BoardOptions, board_job, replay
from render.captions import Caption, coordinate_labels, header_caption
from render.charset import label_chars
from render.fonts import printable
from rules import Position, Termination, load_variant
from tests.bot.core.harness import ALICE, BOB, CAROL, Harness
from tests.render.helpers import record_replay_headers

MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # G*5b mates
OPENING = [  # 22 moves, no capture, no repetition
    *("7g7f", "3c3d", "2g2f", "4c4d", "2f2e", "2b3c", "3i4h", "3a3b", "5i6h", "5a4b", "6h7h"),
    *("4b3a", "5g5f", "8b4b", "4i5h", "7a7b", "6i6h", "6c6d", "3g3f", "6a5b", "4h3g", "5c5d"),
]


@dataclass
class Drawn:
    """The position and options of every board image the service asked for."""

    boards: list[tuple[Position, BoardOptions]]

    @property
    def options(self) -> BoardOptions:
        return self.boards[-1][1]

    def caption(self) -> Caption:
        """The header of the last image, as ``render`` draws it."""
        pos, options = self.boards[-1]
        mover = options.sente_name if pos.side == 0 else options.gote_name
        return header_caption(pos, options, mover)


@pytest.fixture
def drawn(h: Harness, monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawn]:
    record = Drawn([])

    def recording_render(pos: Position, options: BoardOptions) -> bytes:
        record.boards.append((pos, options))
        return b"\x89PNG"

    monkeypatch.setattr(board_job, "render_board", recording_render)
    h.service.pictures.enabled = True
    yield record


# --- results on finished games' images ---------------------------------------------------


async def test_every_termination_has_a_caption_the_fonts_draw_in_every_language(
    h: Harness,
) -> None:
    game = await h.start_game()
    names = ("Alice", "Алёна")
    for lang in LANGUAGES:
        for term in Termination:
            assert f"board.result.{term.value}" in CATALOGUE[lang], (lang, term)
            for winner in (0, None):
                over = replace(game, termination=term.value, winner=winner)
                caption = present.result_caption(over, names, lang)
                assert caption and printable(caption) == caption, (lang, term, caption)
                assert set(caption) <= label_chars()
    assert present.result_caption(game, names, "en") == ""  # still going


async def test_a_mated_game_shows_the_result_on_the_image_board_and_replay(
    h: Harness, drawn: Drawn, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await h.start_game()
    await h.store.update_game(replace(await h.game(game.id), start_sfen=MATE_IN_ONE))
    mate = await h.say(ALICE, "move", "G*5b")
    assert "Alice wins by checkmate" in mate.text
    caption = drawn.caption()
    assert (caption.status, caption.move, caption.check) == ("Checkmate: Alice wins", "Move 1", "")
    assert drawn.boards[-1][0].is_check()  # the king still shows in check; the words do not
    await h.say(CAROL, "board", "1")
    assert drawn.caption().status == "Checkmate: Alice wins"
    frames: list[str] = []
    original = replay.compose_board

    def spy(pos: Position, options: BoardOptions) -> Any:
        frames.append(options.result)
        return original(pos, options)

    monkeypatch.setattr(replay, "compose_board", spy)
    await h.say(CAROL, "export", "gif", "1")
    assert frames == ["", "Checkmate: Alice wins"]


@pytest.mark.parametrize(
    ("lang", "ending", "caption"),
    [
        ("en", [(BOB, "resign", "yes")], "Resignation: Alice wins"),
        ("en", [(ALICE, "draw"), (BOB, "draw", "accept")], "Draw by agreement"),
        ("en", [(ALICE, "abort")], "Game aborted"),
        ("ru", [(ALICE, "resign", "yes")], "Сдача: Bob побеждает"),
        ("ru", [(ALICE, "draw"), (BOB, "draw", "accept")], "Ничья по соглашению"),
    ],
)
async def test_ending_commands_show_the_result_in_the_chats_language(
    h: Harness, drawn: Drawn, lang: str, ending: list[tuple[Any, ...]], caption: str
) -> None:
    await h.start_game()
    await h.say(CAROL, "settings", "language", lang)
    for user, *words in ending:
        await h.say(user, *words)
    assert drawn.caption().status == caption
    await h.say(CAROL, "board", "1")
    assert drawn.caption().status == caption


async def test_a_game_lost_on_time_shows_the_result(h: Harness, drawn: Drawn) -> None:
    game = await h.start_game(time="1d")
    await h.play(game, "7g7f")
    await h.clock.advance(86400)
    await h.service.fire_due()  # a reminder, then the deadline
    assert "Bob ran out of time" in h.outbox.sent[-1][1].text
    assert drawn.caption().status == "Time out: Alice wins"


# --- one move numbering -------------------------------------------------------------------


async def test_board_text_image_text_board_and_games_agree_on_the_move_number(
    h: Harness, drawn: Drawn
) -> None:
    game = await h.start_game()
    await h.play(game, *OPENING)
    board = await h.say(CAROL, "board")
    assert "· move 22" in board.text
    assert drawn.caption().move == "Move 22"  # the board after 22 moves, move 22 highlighted
    assert board.text_board is not None and board.text_board.splitlines()[0] == "Move 22"
    assert "· move 22 ·" in (await h.say(ALICE, "games")).text
    await h.say(CAROL, "settings", "language", "ru")
    board = await h.say(CAROL, "board")
    assert "· ход 22" in board.text and drawn.caption().move == "Ход 22"


async def test_no_move_number_before_the_first_move(h: Harness, drawn: Drawn) -> None:
    await h.start_game()
    board = await h.say(CAROL, "board")
    assert "· move 0" in board.text and drawn.caption().move == ""
    assert board.text_board is not None and "Move" not in board.text_board


# --- coordinates as the chat's notation writes them -------------------------------------


@pytest.mark.parametrize(
    ("variant", "notation", "files", "ranks"),
    [
        ("shogi", "western", ("9", "1"), ("a", "i")),
        ("shogi", "usi", ("9", "1"), ("a", "i")),
        ("shogi", "japanese", ("９", "１"), ("一", "九")),
        ("wa", "western", ("11", "1"), ("a", "k")),
        ("wa", "japanese", ("１１", "１"), ("一", "十一")),
    ],
)
async def test_image_coordinates_follow_the_chats_notation(
    h: Harness,
    drawn: Drawn,
    variant: str,
    notation: str,
    files: tuple[str, str],
    ranks: tuple[str, str],
) -> None:
    await h.say(CAROL, "settings", "notation", notation)
    await h.start_game(variant=variant)
    board = await h.say(CAROL, "board")
    file_labels, rank_labels = coordinate_labels(load_variant(variant), drawn.options.coordinates)
    assert (file_labels[0], file_labels[-1]) == files
    assert (rank_labels[0], rank_labels[-1]) == ranks
    # the text board labels its ranks the same way (its files stay ASCII digits, for alignment)
    assert board.text_board is not None
    rows = [line for line in board.text_board.splitlines() if line.startswith(" |")]
    assert {rows[0].rsplit("| ", 1)[1], rows[-1].rsplit("| ", 1)[1]} == set(ranks)


# --- the text board's key ------------------------------------------------------------------


async def test_the_text_board_key_explains_the_star(h: Harness) -> None:
    game = await h.start_game()
    start = await h.say(CAROL, "board")
    assert start.text_board is not None and "*" not in start.text_board  # nothing marked
    played = await h.play(game, "7g7f")
    assert played.text_board is not None
    assert played.text_board.count("*") == 3  # two squares and the key
    assert played.text_board.endswith("\n* marks the last move")
    moves = await h.say(CAROL, "moves", "3c")
    assert moves.text_board is not None
    assert moves.text_board.endswith("\n* marks where the piece can go")
    await h.say(CAROL, "settings", "language", "ru")
    board = await h.say(CAROL, "board")
    assert board.text_board is not None and board.text_board.endswith("\n* — поля последнего хода")


# --- /impasse -------------------------------------------------------------------------------


async def test_impasse_refusal_says_each_fact_once(h: Harness) -> None:
    game = await h.start_game()
    refused = await h.say(ALICE, "impasse")
    assert refused.text == (
        "Impasse declaration refused: your king is not in the promotion zone; only 0 of your "
        "other pieces are in the zone (at least 10 needed); you have 0 points (28 needed)."
    )
    few_points = "+P+P+P+P+P+P+P+P+P/4K4/+P8/9/9/9/9/9/4k4 b - 1"  # only the points fall short
    await h.store.update_game(replace(await h.game(game.id), start_sfen=few_points))
    h.service.games.positions.forget(game.id)
    refused = await h.say(ALICE, "impasse")
    assert refused.text == "Impasse declaration refused: you have 10 points (28 needed)."
    await h.say(CAROL, "settings", "language", "ru")
    refused = await h.say(ALICE, "impasse")
    assert refused.text == "Объявление дзисёги отклонено: у вас 10 очков, а нужно 28."


async def test_impasse_refusal_in_russian_has_no_english(h: Harness) -> None:
    await h.start_game()
    await h.say(CAROL, "settings", "language", "ru")
    refused = await h.say(ALICE, "impasse")
    assert refused.text == (
        "Объявление дзисёги отклонено: ваш король не в зоне превращения; других ваших фигур "
        "в зоне: 0, а нужно не меньше 10; у вас 0 очков, а нужно 28."
    )


@pytest.mark.parametrize(
    ("lang", "notation", "headers"),
    [
        ("en", "western", ["1. ☗P-7f", "2. ☖P-3d", "3. ☗P-2f"]),
        ("ru", "usi", ["1. ☗7g7f", "2. ☖3c3d", "3. ☗2g2f"]),
        ("ja", "japanese", ["1手目 ☗７六歩", "2手目 ☖３四歩", "3手目 ☗２六歩"]),
        ("pl", "western", ["1. ☗P-7f", "2. ☖P-3d", "3. ☗P-2f"]),
    ],
)
async def test_replay_frames_name_each_move_as_the_chat_writes_moves(
    h: Harness, monkeypatch: pytest.MonkeyPatch, lang: str, notation: str, headers: list[str]
) -> None:
    game = await h.start_game()
    await h.play(game, *OPENING[:3])
    await h.say(CAROL, "settings", "language", lang)
    await h.say(CAROL, "settings", "notation", notation)
    drawn = record_replay_headers(monkeypatch)
    reply = await h.say(CAROL, "export", "gif", str(game.id))
    assert reply.files and reply.files[0].data.startswith(b"GIF89a")
    assert drawn == ["", *headers]
    assert set("".join(drawn)) <= label_chars()  # the fonts draw every letter


async def test_a_replay_made_in_one_notation_is_not_sent_again_for_another(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """USI and western draw the same board (western coordinates): only the frames' moves
    differ, so the remembered GIF of one is not the other's."""
    game = await h.start_game()
    await h.play(game, "7g7f")
    drawn = record_replay_headers(monkeypatch)
    western = await h.say(CAROL, "export", "gif", str(game.id))
    await h.say(CAROL, "settings", "notation", "usi")
    usi = await h.say(CAROL, "export", "gif", str(game.id))
    assert drawn == ["", "1. ☗P-7f", "", "1. ☗7g7f"]
    assert western.files[0].data != usi.files[0].data
