"""``komabot render``, ``piece``, ``cheatsheet`` and ``replay``: images from the shell."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from bot.cli.rules_cmds import add_position_args, position_from_args
from render.options import (
    DEFAULT_MAX_BYTES,
    DEFAULT_SIZE,
    MAX_SIZE,
    MIN_SIZE,
    PERSPECTIVES,
    STYLES,
    BoardOptions,
)
from rules import RulesError, load_variant
from rules.notation import Style

# The drawing modules (and Pillow) are imported by the commands that draw: the other komabot
# commands start without them.

ORDER = 30
NOTATIONS = tuple(style.value for style in Style)


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels") from None
    if not MIN_SIZE <= value <= MAX_SIZE:
        raise argparse.ArgumentTypeError(f"must be between {MIN_SIZE} and {MAX_SIZE} pixels")
    return value


IMAGE_FORMATS = {"": "PNG", ".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}
"""What each file name ending gets (the pictures are drawn as PNG, and converted for others)."""


def _image_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in IMAGE_FORMATS:
        raise argparse.ArgumentTypeError(
            f"{path.name}: name a .png file (or .jpg, .jpeg, .webp), not {path.suffix}"
        )
    return path


def _gif_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in ("", ".gif"):
        raise argparse.ArgumentTypeError(
            f"{path.name}: a replay is an animated GIF: name a .gif file, not {path.suffix}"
        )
    return path


OUT_HELP = "image file to write: .png, or .jpg/.jpeg/.webp to convert"


def _board_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--perspective", choices=PERSPECTIVES, default="sente", help="side at the bottom"
    )
    p.add_argument("--style", choices=STYLES, default="kanji", help="piece style")
    p.add_argument("--size", type=_size, default=DEFAULT_SIZE, help="image width in pixels")
    p.add_argument("--sente-name", default="", help="name shown for sente")
    p.add_argument("--gote-name", default="", help="name shown for gote")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("render", help="draw a position as a PNG")
    add_position_args(p)
    p.add_argument("--moves", nargs="*", default=[], metavar="USI", help="moves to play first")
    _board_args(p)
    p.add_argument("--highlight", nargs="*", default=[], metavar="SQ", help="squares to dot")
    p.add_argument("--out", required=True, type=_image_path, help=OUT_HELP)
    p.set_defaults(func=cmd_render)

    p = subparsers.add_parser("piece", help="draw how a piece moves (lookup by any name)")
    p.add_argument("name", help="kanji, romaji, English, Russian name, SFEN letter or code")
    p.add_argument("--variant", help="variant searched first (default: all)")
    p.add_argument("--out", required=True, type=_image_path, help=OUT_HELP)
    p.set_defaults(func=cmd_piece)

    p = subparsers.add_parser("cheatsheet", help="draw every piece of a variant and its promotion")
    p.add_argument("--variant", default="shogi", help="variant id (see: komabot variants)")
    p.add_argument("--out", required=True, type=_image_path, help=OUT_HELP)
    p.set_defaults(func=cmd_cheatsheet)

    p = subparsers.add_parser("replay", help="draw a game as an animated GIF")
    add_position_args(p)
    p.add_argument("--moves", nargs="+", required=True, metavar="USI", help="the game's moves")
    _board_args(p)
    p.add_argument(
        "--notation",
        choices=NOTATIONS,
        default="western",
        help="how each frame's header writes the move just played",
    )
    p.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="file size limit")
    p.add_argument("--out", required=True, type=_gif_path, help="GIF file to write")
    p.set_defaults(func=cmd_replay)


def _write_image(command: str, path: Path, png: bytes) -> int:
    """Write the PNG ``png`` to ``path`` in the format its name asks for."""
    fmt = IMAGE_FORMATS[path.suffix.lower()]
    if fmt != "PNG":
        from PIL import Image

        image = Image.open(io.BytesIO(png))
        out = io.BytesIO()
        (image.convert("RGB") if fmt == "JPEG" else image).save(out, fmt, quality=92)
        png = out.getvalue()
    return _write(command, path, png)


def _write(command: str, path: Path, data: bytes) -> int:
    try:
        path.write_bytes(data)
    except OSError as exc:
        print(f"komabot {command}: cannot write {path}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"{path}: {len(data)} bytes")
    return 0


def _options(args: argparse.Namespace, **extra: object) -> BoardOptions:
    return BoardOptions(
        perspective=args.perspective,
        style=args.style,
        size=args.size,
        sente_name=args.sente_name,
        gote_name=args.gote_name,
        **extra,  # type: ignore[arg-type]
    )


def cmd_render(args: argparse.Namespace) -> int:
    from render.board import render_board

    pos = position_from_args(args)
    for i, text in enumerate(args.moves, start=1):
        try:
            pos.push_usi(text)
        except RulesError as exc:
            print(f"komabot render: move {i} ({text}): {exc.message}", file=sys.stderr)
            return 2
    highlight = tuple(pos.variant.tables.parse_square(sq) for sq in args.highlight)
    return _write_image("render", args.out, render_board(pos, _options(args, highlight=highlight)))


def cmd_piece(args: argparse.Namespace) -> int:
    from render.diagram import render_piece
    from rules.lookup import find_piece

    matches = find_piece(args.name, [args.variant] if args.variant else None)
    first = matches[0]
    for other in matches[1:]:
        print(
            f"also: {other.piece.names['en']} ({other.piece.code}) in {other.variant_id}",
            file=sys.stderr,
        )
    variant = load_variant(first.variant_id)
    return _write_image("piece", args.out, render_piece(variant, first.piece.kind))


def cmd_cheatsheet(args: argparse.Namespace) -> int:
    from render.cheatsheet import render_cheatsheet

    return _write_image("cheatsheet", args.out, render_cheatsheet(load_variant(args.variant)))


def cmd_replay(args: argparse.Namespace) -> int:
    from render.replay import ReplayTooBig, render_replay

    if args.max_bytes < 10_000:
        print("komabot replay: --max-bytes must be at least 10000", file=sys.stderr)
        return 2
    start = position_from_args(args)
    try:
        data = render_replay(
            start.variant,
            start.sfen(),
            args.moves,
            args.max_bytes,
            _options(args),
            notation=args.notation,
        )
    except ReplayTooBig as exc:
        print(f"komabot replay: {exc}; allow more with --max-bytes", file=sys.stderr)
        return 1
    return _write("replay", args.out, data)
