"""A replay that has to shrink to fit its byte limit still shows the game: its frames are boards
(many colours, not one plain background) and they change from move to move; a replay that
cannot fit fails with a message instead of writing an empty animation."""

from __future__ import annotations

import io
import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageSequence

from render.replay import render_replay
from rules import Position, load_variant

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "import sys; from bot.cli import main; sys.exit(main())"  # the ``komabot`` script


def random_game(plies: int, seed: int = 7) -> list[str]:
    """``plies`` legal moves of a game that goes on (no mate, no repetition's end meanwhile)."""
    rng = random.Random(seed)
    variant = load_variant("shogi")
    while True:
        pos = Position.start(variant)
        moves: list[str] = []
        while len(moves) < plies and pos.outcome() is None:
            move = rng.choice(pos.legal_moves())
            moves.append(pos.usi(move))
            pos.push(move)
        if len(moves) == plies:
            return moves


def frames_of(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as gif:
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]


def assert_shows_a_game(data: bytes) -> None:
    frames = frames_of(data)
    assert len(frames) >= 2, len(frames)
    first, last = frames[0], frames[-1]
    assert first.width >= 100 and first.height >= 100, first.size
    colours = first.getcolors(1 << 16)
    assert colours is not None and len(colours) >= 8, "the first frame is (almost) one colour"
    assert ImageChops.difference(first, last).getbbox() is not None, "the game never moves"
    changed = sum(
        ImageChops.difference(a, b).getbbox() is not None for a, b in itertools.pairwise(frames)
    )
    assert changed >= len(frames) // 2, (changed, len(frames))


@pytest.mark.parametrize("max_bytes", [1_000_000, 400_000, 150_000])
def test_a_replay_squeezed_under_its_limit_still_shows_the_game(max_bytes: int) -> None:
    moves = random_game(150)
    data = render_replay(load_variant("shogi"), None, moves, max_bytes)
    assert len(data) <= max_bytes
    assert_shows_a_game(data)


def test_komabot_replay_writes_a_game_or_says_why_not(tmp_path: Path) -> None:
    out = tmp_path / "r.gif"
    args = ["replay", "--variant", "shogi", "--moves", *random_game(150), "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *args, "--max-bytes", "1000000"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert_shows_a_game(out.read_bytes())
    tiny = tmp_path / "tiny.gif"
    args[-1] = str(tiny)
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, *args, "--max-bytes", "10000"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    if done.returncode == 0:
        assert_shows_a_game(tiny.read_bytes())
    else:
        assert "Traceback" not in done.stderr and "10000 bytes" in done.stderr, done.stderr
        assert not tiny.exists()
