"""Replays of long games: frames are sampled past a cap and streamed, never all held at once."""

from __future__ import annotations

import gc
import io
import itertools
import weakref
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageChops

from render import replay
from render.board import compose_board, palette_for
from render.captions import moves_played
from render.options import MIN_SIZE, BoardOptions
from render.replay import FINAL_MS, MAX_FRAMES, frame_plies, render_replay
from rules import Position, load_variant, move_to_usi
from tests.render.conftest import SHOGI_MOVES

SHUFFLE = ["5i4h", "5a4b", "4h5i", "4b5a"]  # kings step out and back: a game as long as wanted


def long_game(plies: int) -> list[str]:
    return (SHUFFLE * (plies // 4 + 1))[:plies]


def test_frame_plies_keep_the_first_and_last_and_spread_the_rest() -> None:
    assert frame_plies(3) == [0, 1, 2, 3]
    assert frame_plies(MAX_FRAMES - 1) == list(range(MAX_FRAMES))
    plies = frame_plies(6000)
    assert len(plies) == MAX_FRAMES and plies[0] == 0 and plies[-1] == 6000
    gaps = {b - a for a, b in itertools.pairwise(plies)}
    assert gaps <= {20, 21}
    assert frame_plies(10, max_frames=2) == [0, 10]
    with pytest.raises(ValueError):
        frame_plies(10, max_frames=1)


def test_a_long_game_is_sampled_to_at_most_max_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, str]] = []
    original = replay.compose_board

    def spy(pos: Position, options: BoardOptions) -> Any:
        drawn.append((moves_played(pos), options.result))
        return original(pos, options)

    monkeypatch.setattr(replay, "compose_board", spy)
    options = BoardOptions(size=MIN_SIZE, result="Resignation: Bob wins")
    data = render_replay(load_variant("shogi"), None, long_game(1000), options=options)
    assert [n for n, _ in drawn] == frame_plies(1000)
    assert drawn[-1] == (1000, "Resignation: Bob wins")
    assert {r for _, r in drawn[:-1]} == {""}
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == MAX_FRAMES
    gif.seek(MAX_FRAMES - 1)
    assert gif.info["duration"] == FINAL_MS


def test_frames_are_streamed_not_all_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the 40th frame is drawn, frames drawn earlier than the one before it are gone."""
    alive: list[weakref.ref[Image.Image]] = []
    most = [0]
    original = replay.compose_board

    def spy(pos: Position, options: BoardOptions) -> Any:
        gc.collect()
        most[0] = max(most[0], sum(ref() is not None for ref in alive))
        img = original(pos, options)
        quantize = img.quantize

        def tracked(*args: Any, **kwargs: Any) -> Image.Image:
            out = quantize(*args, **kwargs)
            alive.append(weakref.ref(out))
            return out

        img.quantize = tracked  # type: ignore[method-assign]
        return img

    monkeypatch.setattr(replay, "compose_board", spy)
    render_replay(load_variant("shogi"), None, long_game(40), options=BoardOptions(size=MIN_SIZE))
    assert len(alive) == 41
    assert most[0] <= 2


@pytest.mark.parametrize("variant_id", ["shogi", "wa-drops"])
def test_every_frame_decodes_to_the_board_drawn(variant_id: str) -> None:
    """Delta frames with transparent unchanged pixels add up to each position's board."""
    variant = load_variant(variant_id)
    pos = Position.start(variant)
    moves = list(SHOGI_MOVES) if variant_id == "shogi" else []
    if not moves:  # some Wa Shogi moves, captures first, so hands fill
        for _ in range(12):
            legal = sorted(pos.legal_moves())
            move = next((m for m in legal if pos.board[m.to_sq]), legal[len(legal) // 2])
            moves.append(move_to_usi(variant, move))
            pos.push(move)
        pos = Position.start(variant)
    options = BoardOptions(size=300, sente_name="Ōta", gote_name="Алёна", result="Game aborted")
    gif = Image.open(io.BytesIO(render_replay(variant, None, moves, options=options)))
    assert gif.n_frames == len(moves) + 1
    palette = palette_for(variant, options)
    played = [frame.played for frame in replay.replay_frames(variant, None, moves)]
    for i in range(len(moves) + 1):
        if i:
            pos.push_usi(moves[i - 1])
        shown = options if i == len(moves) else replace(options, result="")
        shown = replace(shown, last_move_text=played[i])  # the header names the move
        want = compose_board(pos, shown).quantize(palette=palette, dither=Image.Dither.NONE)
        gif.seek(i)
        got = gif.convert("RGB")
        assert ImageChops.difference(got, want.convert("RGB")).getbbox() is None, i
