"""``komabot variants``, ``moves`` and ``perft``: the rules core from the shell."""

from __future__ import annotations

import argparse
import sys

from rules import Position, RulesError, available_variants, load_variant
from rules.handicaps import find_handicap
from rules.perft import MAX_DEPTH, divide, perft

ORDER = 10


def add_position_args(parser: argparse.ArgumentParser) -> None:
    """``--variant`` and ``--sfen`` or ``--handicap``, shared by every command that takes a
    position."""
    parser.add_argument("--variant", default="shogi", help="variant id (see: komabot variants)")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--sfen", help="position as SFEN (default: the start position)")
    start.add_argument(
        "--handicap",
        metavar="ID",
        help="start from a handicap, by id or name (shogi: lance, bishop, rook, rook-lance, "
        "two-piece, four-piece, six-piece, eight-piece, ten-piece); gote, the giver, moves first",
    )


def position_from_args(args: argparse.Namespace) -> Position:
    variant = load_variant(args.variant)
    if getattr(args, "handicap", None):
        handicap = find_handicap(variant, args.handicap)
        if handicap is None:
            known = ", ".join(variant.handicaps) or "none"
            raise RulesError(
                f"{variant.names['en']} has no handicap {args.handicap!r} (its handicaps: {known})"
            )
        return Position.from_sfen(variant, handicap.sfen)
    return Position.from_sfen(variant, args.sfen) if args.sfen else Position.start(variant)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("variants", help="list the variants")
    p.set_defaults(func=cmd_variants)

    p = subparsers.add_parser("moves", help="print every legal move in USI, sorted")
    add_position_args(p)
    p.set_defaults(func=cmd_moves)

    p = subparsers.add_parser("perft", help="count the leaves of the legal move tree")
    add_position_args(p)
    p.add_argument("--depth", type=int, required=True, help=f"plies to search (1 to {MAX_DEPTH})")
    p.add_argument("--divide", action="store_true", help="also print the count per root move")
    p.set_defaults(func=cmd_perft)


def cmd_variants(args: argparse.Namespace) -> int:
    for vid in available_variants():
        print(f"{vid:<10} {load_variant(vid).description}")
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    pos = position_from_args(args)
    for text in sorted(pos.usi(m) for m in pos.legal_moves()):
        print(text)
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    if not 1 <= args.depth <= MAX_DEPTH:
        print(f"komabot perft: --depth must be from 1 to {MAX_DEPTH}", file=sys.stderr)
        return 2
    pos = position_from_args(args)
    if args.divide:
        rows = sorted((pos.usi(m), n) for m, n in divide(pos, args.depth))
        for usi, n in rows:
            print(f"{usi} {n}")
        print(sum(n for _, n in rows))
    else:
        print(perft(pos, args.depth))
    return 0
