"""What a board image says: coordinates in the chosen notation, the move number, the result."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from render import board, parts, replay
from render.board import compose_board, render_board
from render.captions import coordinate_labels, header_caption, moves_played
from render.options import BoardOptions
from render.replay import render_replay
from rules import Position, load_variant
from tests.render.conftest import SHOGI_MOVES

MATE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # G*5b mates


@pytest.fixture
def drawn_labels(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the board drawing centres (coordinates), with the cached boards emptied."""
    board.empty_board.cache_clear()
    texts: list[str] = []
    original = board.draw_centered

    def spy(draw: Any, text: str, *args: Any, **kwargs: Any) -> None:
        texts.append(text)
        original(draw, text, *args, **kwargs)

    monkeypatch.setattr(board, "draw_centered", spy)
    yield texts
    board.empty_board.cache_clear()


@pytest.mark.parametrize(
    ("variant_id", "coordinates", "files", "ranks"),
    [
        ("shogi", "western", "9 8 7 6 5 4 3 2 1", "a b c d e f g h i"),
        ("shogi", "japanese", "９ ８ ７ ６ ５ ４ ３ ２ １", "一 二 三 四 五 六 七 八 九"),
        ("wa", "western", "11 10 9 8 7 6 5 4 3 2 1", "a b c d e f g h i j k"),
        (
            "wa",
            "japanese",
            "１１ １０ ９ ８ ７ ６ ５ ４ ３ ２ １",
            "一 二 三 四 五 六 七 八 九 十 十一",
        ),
    ],
)
def test_coordinate_labels_are_written_as_the_notation_writes_squares(
    variant_id: str, coordinates: Any, files: str, ranks: str
) -> None:
    assert coordinate_labels(load_variant(variant_id), coordinates) == (
        tuple(files.split()),
        tuple(ranks.split()),
    )


def test_the_image_draws_the_chosen_coordinates(drawn_labels: list[str]) -> None:
    pos = Position.start(load_variant("shogi"))
    compose_board(pos, BoardOptions(style="international"))
    assert set("abcdefghi") <= set(drawn_labels) and "一" not in drawn_labels
    drawn_labels.clear()
    compose_board(pos, BoardOptions(style="international", coordinates="japanese"))
    assert set("一二三四五六七八九") <= set(drawn_labels) and "a" not in drawn_labels


def test_japanese_coordinates_on_11x11_draw_every_character(drawn_labels: list[str]) -> None:
    compose_board(Position.start(load_variant("wa")), BoardOptions(coordinates="japanese"))
    assert {"十", "一", "１"} <= set(drawn_labels)  # 十一 and １１ a character at a time


def test_bad_coordinates_are_refused() -> None:
    with pytest.raises(ValueError, match="coordinates"):
        BoardOptions(coordinates="roman")  # type: ignore[arg-type]


def test_the_move_number_counts_the_moves_played(shogi_game: Position) -> None:
    start = Position.start(load_variant("shogi"))
    assert moves_played(start) == 0
    assert header_caption(start, BoardOptions(), "Alice").move == ""  # no "Move 0"
    assert moves_played(shogi_game) == len(SHOGI_MOVES)
    caption = header_caption(shogi_game, BoardOptions(), "Bob")
    assert (caption.status, caption.move) == ("Bob to move", f"Move {len(SHOGI_MOVES)}")
    late = Position.from_sfen(load_variant("shogi"), "4k4/9/9/9/9/9/9/9/4K4 b - 41")
    assert header_caption(late, BoardOptions(), "Alice").move == "Move 40"  # SFEN's numbering


def test_a_finished_game_shows_its_result_not_whose_turn_or_check() -> None:
    pos = Position.from_sfen(load_variant("shogi"), MATE)
    pos.push_usi("G*5b")
    assert pos.is_check()
    playing = header_caption(pos, BoardOptions(), "Bob")
    assert (playing.status, playing.check, playing.finished) == ("Bob to move", "Check!", False)
    over = header_caption(pos, BoardOptions(result="Checkmate: Alice wins"), "Bob")
    assert (over.status, over.move, over.check) == ("Checkmate: Alice wins", "Move 1", "")
    assert over.finished
    shown = render_board(pos, BoardOptions(result="Checkmate: Alice wins"))
    assert shown != render_board(pos, BoardOptions())


def test_only_the_last_replay_frame_shows_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    results: list[str] = []
    original = replay.compose_board

    def spy(pos: Position, options: BoardOptions) -> Any:
        results.append(options.result)
        return original(pos, options)

    monkeypatch.setattr(replay, "compose_board", spy)
    options = replace(BoardOptions(size=300), result="Resignation: Bob wins")
    render_replay(load_variant("shogi"), None, SHOGI_MOVES[:3], options=options)
    assert results == ["", "", "", "Resignation: Bob wins"]


@pytest.mark.parametrize(
    ("notation", "played"),
    [
        ("western", ["P-7f", "P-3d", "Bx2b+", "Sx2b", "B*4e", "P-8d", "Bx3d", "P-8e", "Bx2c+"]),
        (
            "japanese",
            [
                *("７六歩", "３四歩", "２二角成", "同 銀", "４五角"),
                *("８四歩", "３四角", "８五歩", "２三角成"),
            ],
        ),
        ("usi", SHOGI_MOVES),
    ],
)
def test_replay_frames_name_the_move_just_played_in_the_notation_asked(
    notation: str, played: list[str]
) -> None:
    frames = replay.replay_frames(load_variant("shogi"), None, SHOGI_MOVES, notation=notation)
    assert [f.played for f in frames] == ["", *played]
    sampled = replay.replay_frames(load_variant("shogi"), None, SHOGI_MOVES, 4, notation)
    assert [f.played for f in sampled] == ["", played[2], played[5], played[8]]  # plies 3, 6, 9


def test_a_header_with_the_move_in_words_names_it_with_the_movers_mark(
    shogi_game: Position,
) -> None:
    options = BoardOptions(last_move_text="Bx2c+")
    caption = header_caption(shogi_game, options, "Bob")
    assert (caption.status, caption.move) == ("Bob to move", "9. ☗Bx2c+")
    shogi_game.push_usi("2b2c")  # gote's silver takes the horse
    gote = header_caption(shogi_game, replace(options, last_move_text="Sx2c"), "Alice")
    assert gote.move == "10. ☖Sx2c"
    start = Position.start(load_variant("shogi"))
    assert header_caption(start, options, "Alice").move == ""  # no move yet: nothing to name
    own = replace(options, labels=replace(options.labels, played="{n}手目 {mark}{move}"))
    assert header_caption(shogi_game, replace(own, last_move_text="同 銀"), "A").move == (
        "10手目 ☖同 銀"
    )


def test_every_replay_frame_draws_the_move_just_played_in_its_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts: list[str] = []
    original = parts.draw_text

    def spy(img: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        texts.append(text)
        original(img, xy, text, *args, **kwargs)

    monkeypatch.setattr(parts, "draw_text", spy)
    options = BoardOptions(size=300, result="Resignation: Bob wins")
    render_replay(load_variant("shogi"), None, SHOGI_MOVES[:4], options=options)
    assert [t for t in texts if ". " in t] == ["1. ☗P-7f", "2. ☖P-3d", "3. ☗Bx2b+", "4. ☖Sx2b"]
    texts.clear()
    shogi = load_variant("shogi")
    render_replay(shogi, None, SHOGI_MOVES[:2], options=options, notation="japanese")
    assert [t for t in texts if t.startswith(("1.", "2."))] == ["1. ☗７六歩", "2. ☖３四歩"]
