"""``komabot run`` and ``komabot console``: serve the bot."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bot.config import DB_HELP, VARIABLES, Config, with_database

ORDER = 50


def _environment_help() -> str:
    return "environment variables:\n" + "\n".join(v.help_line for v in VARIABLES)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "run",
        help="run every front end that has a token (the console when none has)",
        description="Run Komabot on Discord and/or Telegram when their tokens are set, "
        "else in the console.",
        epilog=_environment_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--db", help=DB_HELP)
    p.set_defaults(func=cmd_run)

    p = subparsers.add_parser(
        "console",
        help="play in the terminal, acting as any user (@alice /challenge @bob wa)",
        epilog=_environment_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--db", help=DB_HELP)
    p.add_argument("--out", type=Path, help="image folder (overrides KOMABOT_CONSOLE_OUT)")
    p.add_argument("--chat", help="chat to start in (overrides KOMABOT_CONSOLE_CHAT)")
    p.add_argument("--user", default="alice", help="who you speak as at first (default alice)")
    p.add_argument("--quiet", action="store_true", help="no banner")
    p.set_defaults(func=cmd_console)


def _config(args: argparse.Namespace, prog: str) -> Config | None:
    """The configuration from the environment and the command line; None after an error."""
    from dataclasses import replace

    from bot.config import ConfigError

    try:
        config = with_database(Config.from_env(), getattr(args, "db", None))
    except ConfigError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    return replace(
        config,
        console_out=getattr(args, "out", None) or config.console_out,
        console_chat=getattr(args, "chat", None) or config.console_chat,
    )


def _quiet_unless_asked(config: Config) -> Config:
    """In the terminal chat, request log lines would interleave with the game: WARNING and up
    unless KOMABOT_LOG_LEVEL says otherwise."""
    from dataclasses import replace

    return config if "KOMABOT_LOG_LEVEL" in os.environ else replace(config, log_level="WARNING")


def cmd_console(args: argparse.Namespace) -> int:
    config = _config(args, "komabot console")
    if config is None:
        return 2
    # imported once the configuration is known to be good: a mistake in it is reported
    # without loading the whole bot first
    from bot.app import serve
    from bot.console_front import ConsoleFrontEnd

    config = _quiet_unless_asked(config)
    front = ConsoleFrontEnd(config, user=args.user, banner=not args.quiet)
    return serve(config, [front], "komabot console")


def cmd_run(args: argparse.Namespace) -> int:
    config = _config(args, "komabot run")
    if config is None:
        return 2
    # imported once the configuration is known to be good (as in cmd_console)
    from bot.app import serve
    from bot.config import ConfigError
    from bot.core.api import FrontEnd

    front_ends: list[FrontEnd] = []
    try:
        if config.discord_token:
            from bot.discord_front.frontend import DiscordFrontEnd

            front_ends.append(DiscordFrontEnd(config))
        if config.telegram_token:
            from bot.telegram_front.frontend import TelegramFrontEnd

            front_ends.append(TelegramFrontEnd(config))
    except ConfigError as exc:
        print(f"komabot run: {exc}", file=sys.stderr)
        return 2
    if not front_ends:
        from bot.console_front import ConsoleFrontEnd

        print("komabot run: no DISCORD_TOKEN or TELEGRAM_TOKEN set; starting the console.")
        config = _quiet_unless_asked(config)
        front_ends.append(ConsoleFrontEnd(config))
    return serve(config, front_ends, "komabot run")
