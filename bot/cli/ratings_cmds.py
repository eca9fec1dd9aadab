"""``komabot ratings rebuild``: recompute every rating from the games table."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ORDER = 70


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("ratings", help="ratings: rebuild them from the games")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    rebuild = sub.add_parser(
        "rebuild",
        help="recompute every rating from the finished games, in the order they were rated",
    )
    rebuild.add_argument("--db", type=Path, help="database file (overrides KOMABOT_DB)")
    rebuild.set_defaults(func=cmd_rebuild)


def cmd_rebuild(args: argparse.Namespace) -> int:
    from bot.config import Config, ConfigError
    from bot.store import SqliteStore, StoreError

    try:
        path = args.db or Config.from_env().db_path
    except ConfigError as exc:
        print(f"komabot ratings: {exc}", file=sys.stderr)
        return 2

    async def run() -> int:
        store = await SqliteStore.open(path)
        try:
            return await store.rebuild_ratings()
        finally:
            await store.close()

    try:
        count = asyncio.run(run())
    except StoreError as exc:
        print(f"komabot ratings: {exc}", file=sys.stderr)
        return 1
    print(f"ratings rebuilt from {count} rated games in {path}")
    return 0
