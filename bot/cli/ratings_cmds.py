"""``komabot ratings rebuild``: recompute every rating from the games table."""

from __future__ import annotations

import argparse
import sys

from bot.config import DB_HELP

ORDER = 70


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("ratings", help="ratings: rebuild them from the games")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    rebuild = sub.add_parser(
        "rebuild",
        help="recompute every rating from the finished games, in the order they were rated",
    )
    rebuild.add_argument("--db", help=DB_HELP)
    rebuild.set_defaults(func=cmd_rebuild)


def cmd_rebuild(args: argparse.Namespace) -> int:
    import asyncio  # here: the other komabot commands start without it

    from bot.config import Config, ConfigError, with_database
    from bot.store import StoreError
    from bot.store.database import open_store

    try:
        config = with_database(Config.from_env(), args.db)
    except ConfigError as exc:
        print(f"komabot ratings: {exc}", file=sys.stderr)
        return 2

    async def run() -> int:
        store = await open_store(config)
        try:
            return await store.rebuild_ratings()
        finally:
            await store.close()

    try:
        count = asyncio.run(run())
    except StoreError as exc:
        print(f"komabot ratings: {exc}", file=sys.stderr)
        return 1
    print(f"ratings rebuilt from {count} rated games in {config.database.label}")
    return 0
