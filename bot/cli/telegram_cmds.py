"""``komabot telegram``: run the bot on Telegram alone (long polling, or a webhook)."""

from __future__ import annotations

import argparse
import sys

ORDER = 70


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from bot.telegram_front.settings import VARIABLES

    lines = "\n".join(v.help_line for v in VARIABLES)
    p = subparsers.add_parser(
        "telegram",
        help="run the bot on Telegram (needs TELEGRAM_TOKEN)",
        description=(
            "Run Komabot on Telegram: long polling by default, a webhook server when "
            "TELEGRAM_WEBHOOK_URL is set. Environment variables:\n" + lines
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="log in, register the command menu, print the bot's name and exit",
    )
    p.set_defaults(func=cmd_telegram)


def cmd_telegram(args: argparse.Namespace) -> int:
    from bot.config import Config, ConfigError, install_redaction

    try:
        config = Config.from_env()
        install_redaction(config.secrets)  # before anything can log or print an error
        if not config.telegram_token:
            print(
                "komabot telegram: TELEGRAM_TOKEN is not set. Create a bot with @BotFather "
                "(see README, 'Telegram') and export its token.",
                file=sys.stderr,
            )
            return 2
        from bot.telegram_front.frontend import TelegramFrontEnd

        front = TelegramFrontEnd(config)
    except ConfigError as exc:
        print(f"komabot telegram: {exc}", file=sys.stderr)
        return 2
    if args.check:
        import asyncio

        return asyncio.run(front.check())
    from bot.app import serve

    return serve(config, [front], "komabot telegram")
