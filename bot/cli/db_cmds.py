"""``komabot db copy``: copy a whole database into an empty one (SQLite to PostgreSQL, or back);
``komabot db backup FILE``: a live database into a new SQLite file."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

ORDER = 75


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("db", help="the database: back it up, copy it into another one")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    copy = sub.add_parser(
        "copy",
        help="copy every table into an empty database, checking the counts",
        description="Copy every table of one database into another, empty one (stop the bot "
        "first). Both are brought to this Komabot's schema; the target must be empty.",
    )
    copy.add_argument("--from", dest="source", required=True, metavar="URL",
                      help="sqlite:///FILE, a file path or postgresql://...")  # fmt: skip
    copy.add_argument("--to", dest="target", required=True, metavar="URL",
                      help="postgresql://... , sqlite:///FILE or a file path")  # fmt: skip
    copy.set_defaults(func=cmd_copy)
    backup = sub.add_parser(
        "backup",
        help="back up the database, while the bot runs, into a new SQLite file",
        description="Copy the database (KOMABOT_DATABASE_URL or KOMABOT_DB, or --db) into a new "
        "SQLite file while the bot goes on running: one consistent moment of it, checked, "
        "written under a temporary name and renamed when complete. Restore a SQLite backup by "
        "stopping the bot and putting the file in place; restore into PostgreSQL with "
        "'komabot db copy --from FILE --to postgresql://...'.",
    )
    backup.add_argument("file", type=Path, metavar="FILE", help="the new file (must not exist)")
    backup.add_argument(
        "--db", metavar="URL", help="the database to back up, if not the configured one"
    )
    backup.set_defaults(func=cmd_backup)


def cmd_copy(args: argparse.Namespace) -> int:
    import asyncio  # here: the other komabot commands start without it

    from bot.config import Config, ConfigError, with_database
    from bot.store import StoreError
    from bot.store.copy import copy_database
    from bot.store.database import open_store

    try:
        config = Config.from_env()
        source = with_database(config, args.source)
        target = with_database(config, args.target)
    except ConfigError as exc:
        print(f"komabot db copy: {exc}".replace("--db", "--from/--to"), file=sys.stderr)
        return 2
    if source.database == target.database:
        print("komabot db copy: --from and --to name the same database", file=sys.stderr)
        return 2

    async def run() -> list[tuple[str, int]]:
        from_store = await open_store(replace(source, db_sync="normal"))
        try:
            to_store = await open_store(target)
            try:
                return [(c.table, c.rows) for c in await copy_database(from_store, to_store)]
            finally:
                await to_store.close()
        finally:
            await from_store.close()

    try:
        copied = asyncio.run(run())
    except StoreError as exc:
        print(f"komabot db copy: {exc}", file=sys.stderr)
        return 1
    for table, rows in copied:
        print(f"{table:16} {rows:9d}")
    print(f"copied {sum(r for _, r in copied)} rows from {source.database.label} to "
          f"{target.database.label}; the counts match")  # fmt: skip
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import Config, ConfigError, with_database
    from bot.store import StoreError
    from bot.store.backup import Backup, backup_sqlite, backup_store
    from bot.store.database import open_store

    try:
        config = with_database(Config.from_env(), args.db)
    except ConfigError as exc:
        print(f"komabot db backup: {exc}", file=sys.stderr)
        return 2
    database = config.database

    async def from_store() -> Backup:
        store = await open_store(config, read_only=True)
        try:
            return await backup_store(store, args.file)
        finally:
            await store.close()

    try:
        if database.path is not None:
            done = backup_sqlite(database.path, args.file)
        else:
            done = asyncio.run(from_store())
    except StoreError as exc:
        print(f"komabot db backup: {exc}", file=sys.stderr)
        return 1
    for table, rows in done.rows:
        print(f"{table:16} {rows:9d}")
    print(f"backed up {database.label} (schema {done.schema_version}) to {done.file}: "
          f"{done.bytes:,} bytes, checked")  # fmt: skip
    return 0
