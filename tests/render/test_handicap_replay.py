"""Replays and board images of a handicap game: gote (the giver) moves first, so the first
frame says gote is to move, the move numbers count from the giver's first move, and every
frame of the GIF is the board drawn for its position."""

from __future__ import annotations

import io
from dataclasses import replace

from PIL import Image, ImageChops

from render.board import compose_board, palette_for
from render.captions import header_caption, moves_played
from render.options import BoardOptions
from render.replay import render_replay, replay_frames
from rules import GOTE, SENTE, Position, load_variant
from tests.rules.records.endings import ROOK_HANDICAP_GAME

SHOGI = load_variant("shogi")
ROOK = SHOGI.handicaps["rook"].sfen
MOVES = ROOK_HANDICAP_GAME[:10]
OPTIONS = BoardOptions(size=300, sente_name="Taker", gote_name="Giver", result="Taker won")


def test_frames_start_with_the_giver_to_move_and_count_its_move_as_move_1() -> None:
    frames = replay_frames(SHOGI, ROOK, MOVES)
    assert len(frames) == len(MOVES) + 1
    for ply, frame in enumerate(frames):
        pos = Position.from_sfen(SHOGI, frame.sfen)
        assert pos.side == (GOTE if ply % 2 == 0 else SENTE)
        assert moves_played(pos) == ply
        caption = header_caption(pos, replace(OPTIONS, result=""), ("Taker", "Giver")[pos.side])
        assert caption.move == (f"Move {ply}" if ply else "")
        assert caption.status == ("Giver to move" if ply % 2 == 0 else "Taker to move")
        named = replace(OPTIONS, result="", last_move_text=frame.played)
        mark = "☖" if ply % 2 == 1 else "☗"  # the giver (gote) played move 1
        played = header_caption(pos, named, "").move
        assert played == (f"{ply}. {mark}{frame.played}" if ply else "")
    first_move = frames[1].last_move
    assert first_move is not None and SHOGI.tables.parse_square("3d") == first_move.to_sq


def test_every_replay_frame_is_the_handicap_board_drawn() -> None:
    gif = Image.open(io.BytesIO(render_replay(SHOGI, ROOK, MOVES, options=OPTIONS)))
    assert gif.n_frames == len(MOVES) + 1
    palette = palette_for(SHOGI, OPTIONS)
    pos = Position.from_sfen(SHOGI, ROOK)
    played = [frame.played for frame in replay_frames(SHOGI, ROOK, MOVES)]
    for i in range(len(MOVES) + 1):
        if i:
            pos.push_usi(MOVES[i - 1])
        shown = OPTIONS if i == len(MOVES) else replace(OPTIONS, result="")
        shown = replace(shown, last_move_text=played[i])
        want = compose_board(pos, shown).quantize(palette=palette, dither=Image.Dither.NONE)
        gif.seek(i)
        assert ImageChops.difference(gif.convert("RGB"), want.convert("RGB")).getbbox() is None
