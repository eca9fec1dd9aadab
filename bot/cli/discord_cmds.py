"""``komabot discord``: run the bot on Discord alone."""

from __future__ import annotations

import argparse
import sys

ORDER = 60


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from bot.discord_front.settings import VARIABLES

    lines = "\n".join(v.help_line for v in VARIABLES)
    p = subparsers.add_parser(
        "discord",
        help="run the bot on Discord (needs DISCORD_TOKEN)",
        description="Run Komabot on Discord. Environment variables:\n" + lines,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--sync-only",
        action="store_true",
        help="log in, register the /shogi slash commands (even if unchanged) and exit",
    )
    p.set_defaults(func=cmd_discord)


def cmd_discord(args: argparse.Namespace) -> int:
    from bot.config import Config, ConfigError, install_redaction
    from bot.discord_front.frontend import DiscordFrontEnd

    try:
        config = Config.from_env()
        install_redaction(config.secrets)  # before anything can log or print an error
        front = DiscordFrontEnd(config)
    except ConfigError as exc:
        print(f"komabot discord: {exc}", file=sys.stderr)
        return 2
    if not front.settings.token:
        print(
            "komabot discord: DISCORD_TOKEN is not set. Create a bot in the Discord developer "
            "portal (see README, 'Discord') and export its token.",
            file=sys.stderr,
        )
        return 2
    if args.sync_only:
        from bot.app import run_job

        return run_job(config, front, front.sync_only, "komabot discord")
    from bot.app import serve

    return serve(config, [front], "komabot discord")
