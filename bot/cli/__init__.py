"""``komabot``: the one command-line entry point.

Each module in this package adds its subcommands through ``register(subparsers)``; the
subcommand's handler is stored as ``func`` and returns the exit code.  Handlers report bad input
as one line on standard error and a non-zero exit code.  Every ``komabot`` process builds the
whole parser, so a module imports at its top only what its parser needs, and each handler
imports the engine, the drawing code, the miner or the bot when it runs
(tests/bot/cli/test_start_up_imports.py).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from rules.errors import RulesError


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line on standard error, exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see: {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="komabot",
        description="Komabot: Standard Shogi and Wa Shogi for Discord, Telegram and the console.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules = [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if not info.name.startswith("_")
    ]
    for module in sorted(modules, key=lambda m: getattr(m, "ORDER", 100)):
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        sys.stdout.flush()  # a reader that went away (``| head -1``) shows up here at the latest
    except BrokenPipeError:
        return _reader_gone()
    except RulesError as exc:
        print(f"komabot {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


def _reader_gone() -> int:
    """Standard output's reader closed the pipe: stop quietly.

    Python's documented recipe (``signal`` module, "Note on SIGPIPE"): point standard output at
    devnull, so that flushing what is still buffered at exit fails no more, and exit with 1.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 1


if __name__ == "__main__":
    sys.exit(main())
