"""``komabot parse``, ``record`` and ``import``: move notation and game records from the shell."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from bot.cli.rules_cmds import add_position_args, position_from_args
from rules import GOTE, SENTE, Outcome, Termination
from rules.errors import RulesError
from rules.records import FORMATS, MAX_BYTES, GameRecord, check_format, export_file, import_record

ORDER = 20


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "parse",
        help="read moves as people type them (7g7f, P-7f, ７六歩...) and print them in USI",
    )
    add_position_args(p)
    p.add_argument("moves", nargs="+", metavar="MOVE", help="moves, played one after another")
    p.set_defaults(func=cmd_parse)

    p = subparsers.add_parser("record", help="write a game record (KIF, KIFU, CSA or USI)")
    add_position_args(p)
    p.add_argument("--moves", nargs="*", default=[], metavar="USI", help="the moves in USI")
    p.add_argument("--format", required=True, choices=FORMATS, help="record format")
    p.add_argument("--sente", default="", help="sente's name")
    p.add_argument("--gote", default="", help="gote's name")
    p.add_argument(
        "--result",
        choices=[t.value for t in Termination],
        help="how the game ended (default: by the rules, if the moves end it)",
    )
    p.add_argument("--winner", choices=["sente", "gote", "none"], default="none")
    p.add_argument(
        "--out",
        help="file to write (default: standard output; a terminal gets the record as text)",
    )
    p.set_defaults(func=cmd_record)

    p = subparsers.add_parser(
        "import", help="read a KIF/KIFU/CSA/USI record; print the final SFEN and the moves"
    )
    p.add_argument("file", metavar="FILE", help="record file ('-' for standard input)")
    p.set_defaults(func=cmd_import)


def cmd_parse(args: argparse.Namespace) -> int:
    """One line per move: its USI, or the reason it was refused (exit 1 then)."""
    from rules.notation import parse_move  # here: perft, usi and the bot start without it

    pos = position_from_args(args)
    for text in args.moves:
        try:
            move = parse_move(pos, text)
        except RulesError as exc:
            print(f"{text}: {exc.message}")
            return 1
        print(pos.usi(move))
        pos.push(move)
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    pos = position_from_args(args)
    check_format(pos.variant.id, args.format)
    record = GameRecord(
        variant=pos.variant.id,
        start_sfen=pos.sfen(),
        moves=tuple(args.moves),
        sente=args.sente,
        gote=args.gote,
        result=None,
    )
    final = record.final_position()
    outcome = final.outcome()
    if args.result:
        winner = {"sente": SENTE, "gote": GOTE, "none": None}[args.winner]
        outcome = Outcome(Termination(args.result), winner)
    if outcome is not None:
        record = dataclasses.replace(record, result=outcome)
    exported = export_file(record, args.format)
    data = exported.data
    if exported.replaced:
        print(
            f"komabot record: {args.format.upper()} cannot hold {' '.join(exported.replaced)}; "
            "written as ? (kifu keeps them)",
            file=sys.stderr,
        )
    if args.out:
        try:
            Path(args.out).write_bytes(data)
        except OSError as exc:
            print(f"komabot record: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
            return 2
    elif sys.stdout.isatty():
        # a terminal shows text, not Shift-JIS bytes: the record as text, the file with --out
        print(data.decode(exported.encoding), end="")
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0


def read_input(command: str, file: str) -> bytes | None:
    """A record file's bytes (``-``: standard input), enough of them to tell one too large;
    None, after saying why on standard error, when it cannot be read."""
    try:
        if file == "-":
            return sys.stdin.buffer.read(MAX_BYTES + 1)
        with Path(file).open("rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except OSError as exc:
        print(f"komabot {command}: cannot read {file}: {exc.strerror}", file=sys.stderr)
        return None


def cmd_import(args: argparse.Namespace) -> int:
    data = read_input("import", args.file)
    if data is None:
        return 2
    record = import_record(data, None if args.file == "-" else args.file)
    for note in record.notes:
        print(f"komabot import: note: {note}", file=sys.stderr)
    print(record.final_position().sfen())
    print(" ".join(record.moves))
    for side, name in (("sente", record.sente), ("gote", record.gote)):
        if name:
            print(f"{side}: {name}")
    if record.result is not None:
        print(f"result: {result_words(record.result)}")
    return 0


def result_words(result: Outcome) -> str:
    """``checkmate, sente wins`` / ``repetition, draw``: how a record says its game ended."""
    side = {SENTE: "sente wins", GOTE: "gote wins", None: "draw"}[result.winner]
    return f"{result.termination.value.replace('_', ' ')}, {side}"
