"""``komabot usi``: Komabot's engine speaking USI on standard input and output."""

from __future__ import annotations

import argparse
import sys

from rules import available_variants

ORDER = 40


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "usi",
        help="run the engine as a USI engine on stdin/stdout (for shogi GUIs)",
        description="Speak USI on standard input and output: usi, isready, setoption, "
        "usinewgame, position, go, stop, ponderhit, gameover, quit.  Options: Level (1-8), "
        "USI_Hash (MB), MoveOverhead (ms), AllowResign.  For Wa the SFEN and moves are the "
        "11x11 forms (11k11j).",
    )
    p.add_argument(
        "--variant",
        default="shogi",
        choices=available_variants(),
        help="the variant to play (default shogi)",
    )
    p.set_defaults(func=cmd_usi)


def cmd_usi(args: argparse.Namespace) -> int:
    from engine.usi import run

    return run(args.variant, sys.stdin, sys.stdout)
