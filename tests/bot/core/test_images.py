"""Replies carry real images: boards, piece diagrams, cheat sheets, game GIFs."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from PIL import Image

from bot.core import pictures
from render.board_job import BoardJob, draw_board_job
from tests.bot.core.harness import ALICE, BOB, CAROL, Harness


def picture(data: bytes, fmt: str = "PNG") -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == fmt
    return img


async def test_boards_pieces_sheets_and_replays_are_images(h: Harness) -> None:
    h.service.pictures.enabled = True
    start = await h.start_game(variant="wa")
    reply = await h.play(start, "8h8g")
    assert reply.image is not None and reply.image.filename == "board.png"
    assert picture(reply.image.data).width >= 240
    moves = await h.say(CAROL, "moves", "4c")
    assert moves.image is not None and picture(moves.image.data)
    await h.say(CAROL, "settings", "style", "international")
    assert (await h.say(CAROL, "board")).image is not None
    vague = await h.say(CAROL, "piece", "falcon")
    assert "Several pieces fit" in vague.text and "/cheatsheet wa" in vague.text
    assert [b.action for b in vague.buttons[0]] == [
        "piece Flying Falcon",
        "piece Tenacious Falcon",
        "piece Raiding Falcon",
    ]
    piece = await h.say(CAROL, *vague.buttons[0][0].action.split())
    assert "Flying Falcon (飛鷹" in piece.text and piece.image is not None
    picture(piece.image.data)
    rook = await h.say(CAROL, "piece", "飛", "shogi")
    assert rook.text.startswith("Rook (飛")
    unknown = await h.say(CAROL, "piece", "zebra")
    assert unknown.ephemeral and "No piece is called 'zebra'" in unknown.text
    sheet = await h.say(CAROL, "cheatsheet", "wa")
    assert sheet.image is not None and picture(sheet.image.data).height > 100
    assert "not a variant" in (await h.say(CAROL, "cheatsheet", "chess")).text
    await h.play(await h.game(start.id), "4c4d")
    gif = await h.say(ALICE, "export", "gif")
    (anim,) = gif.files
    assert anim.filename == "game-1.gif" and picture(anim.data, "GIF").n_frames >= 2
    assert (await h.say(BOB, "resign", "yes")).image is not None


async def test_the_board_is_drawn_while_the_move_is_written(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's board image is under way before the write of the move has finished (the wait
    for the disk overlaps the drawing), and it shows the position after the move."""
    h.service.pictures.enabled = True
    start = await h.start_game()
    events: list[str] = []
    write = h.store.update_game

    async def slow_write(*args: Any, **kwargs: Any) -> Any:
        events.append("write starts")
        await asyncio.sleep(0.2)  # a slow disk
        saved = await write(*args, **kwargs)
        events.append("write done")
        return saved

    draw = draw_board_job

    def drawing(job: BoardJob) -> bytes:
        events.append(f"drawing after {job.move_number - 1} moves")
        return draw(job)

    monkeypatch.setattr(h.store, "update_game", slow_write)
    monkeypatch.setattr(pictures, "draw_board_job", drawing)
    reply = await h.play(start, "7g7f")
    assert reply.image is not None and picture(reply.image.data)
    assert events == ["write starts", "drawing after 1 moves", "write done"]
