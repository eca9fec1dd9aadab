#!/usr/bin/env python3
"""Write sample images to ``gallery/`` (git-ignored) for people to look at.

    .venv/bin/python scripts/gallery.py [--out gallery]

Boards of every variant in both styles and both perspectives (mid-game, with hands, a check and
highlighted squares), a piece diagram for every piece, cheat sheets and a short replay.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from render.board import render_board  # noqa: E402
from render.cheatsheet import render_cheatsheet  # noqa: E402
from render.diagram import render_piece  # noqa: E402
from render.options import BoardOptions  # noqa: E402
from render.replay import render_replay  # noqa: E402
from rules import Position, available_variants, load_variant  # noqa: E402


def midgame(variant_id: str, plies: int, seed: int) -> tuple[Position, list[str]]:
    """A reproducible game that prefers captures and promotions, so hands and red pieces show."""
    rng = random.Random(seed)
    pos = Position.start(load_variant(variant_id))
    played: list[str] = []
    for _ in range(plies):
        moves = sorted(pos.legal_moves())
        if not moves:
            break
        lively = [m for m in moves if pos.board[m.to_sq] or m.promote]
        move = rng.choice(lively or moves)
        played.append(pos.usi(move))
        pos.push(move)
    return pos, played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "gallery")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    for vid in available_variants():
        pos, _ = midgame(vid, 50, seed=7)
        moves = [m for m in pos.legal_moves() if not m.drop]
        busiest = max(
            {m.from_sq for m in moves}, key=lambda sq: sum(m.from_sq == sq for m in moves)
        )
        targets = tuple(sorted({m.to_sq for m in moves if m.from_sq == busiest}))
        for style in ("kanji", "international"):
            for perspective in ("sente", "gote"):
                options = BoardOptions(
                    style=style,  # type: ignore[arg-type]
                    perspective=perspective,  # type: ignore[arg-type]
                    sente_name="Hanako",
                    gote_name="Алексей",
                )
                save(f"board-{vid}-{style}-{perspective}.png", render_board(pos, options))
        save(f"board-{vid}-start.png", render_board(Position.start(pos.variant)))
        save(
            f"board-{vid}-highlight.png",
            render_board(pos, BoardOptions(highlight=targets, show_last_move=False)),
        )
        save(f"cheatsheet-{vid}.png", render_cheatsheet(pos.variant))
    check = Position.from_sfen(load_variant("shogi"), "4k4/4G4/9/9/9/9/9/9/4K4 w RB2G3P2p 1")
    save("board-shogi-check.png", render_board(check))
    for vid in ("shogi", "wa"):
        variant = load_variant(vid)
        for piece in variant.pieces:
            if not piece.promoted:
                save(f"piece-{vid}-{piece.code}.png", render_piece(variant, piece.kind))
    _, moves = midgame("wa-drops", 40, seed=3)
    save("replay-wa-drops.gif", render_replay(load_variant("wa-drops"), None, moves))
    total = sum(p.stat().st_size for p in written)
    print(f"{len(written)} images, {total // 1024} KB in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
