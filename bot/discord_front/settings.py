"""Discord front-end settings, read from environment variables with defaults."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.config import ConfigError, Variable

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"

VARIABLES: tuple[Variable, ...] = (
    Variable("DISCORD_TOKEN", "", "Discord bot token (required for `komabot discord`)"),
    Variable(
        "DISCORD_MESSAGE_CONTENT",
        "0",
        "1 when the bot has the Message Content intent: enables text commands and bare moves "
        "(bare moves also need /settings bare on in the channel)",
    ),
    Variable("DISCORD_PREFIX", "!", "prefix of text commands (with DISCORD_MESSAGE_CONTENT=1)"),
    Variable(
        "DISCORD_GUILD_IDS",
        "",
        "comma-separated server ids to sync the slash commands to at once (global otherwise)",
    ),
    Variable(
        "DISCORD_SHARD_COUNT",
        "",
        "number of gateway shards, or 'auto' to ask Discord; empty for one connection",
    ),
    Variable("DISCORD_SHARD_IDS", "", "comma-separated shards this process runs (default: all)"),
    Variable("DISCORD_API_BASE", DEFAULT_API_BASE, "REST API base URL (tests point it locally)"),
    Variable("DISCORD_GATEWAY_URL", DEFAULT_GATEWAY_URL, "gateway URL (tests point it locally)"),
)

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


def _flag(name: str, value: str) -> bool:
    low = value.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ConfigError(f"{name}: {value!r} is not 1 or 0 (true/false, yes/no, on/off)")


def _ids(name: str, value: str) -> tuple[int, ...]:
    out = []
    for part in filter(None, (p.strip() for p in value.split(","))):
        if not part.isdigit():
            raise ConfigError(f"{name}: {part!r} is not a number (give ids separated by commas)")
        out.append(int(part))
    return tuple(out)


def _url(name: str, value: str, schemes: tuple[str, ...]) -> str:
    if not value.startswith(tuple(f"{s}://" for s in schemes)):
        raise ConfigError(f"{name}: {value!r} does not start with {' or '.join(schemes)}://")
    return value


@dataclass(frozen=True)
class DiscordSettings:
    """Everything the Discord front end reads from its environment."""

    token: str = field(default="", repr=False)
    message_content: bool = False
    prefix: str = "!"
    guild_ids: tuple[int, ...] = ()
    shard_count: int | None = None  # None: one connection, no sharding
    auto_shard: bool = False  # ask Discord how many shards
    shard_ids: tuple[int, ...] | None = None
    api_base: str = DEFAULT_API_BASE
    gateway_url: str = DEFAULT_GATEWAY_URL

    @property
    def sharded(self) -> bool:
        return self.auto_shard or self.shard_count is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> DiscordSettings:
        """Read :data:`VARIABLES`; raise ConfigError naming a bad one."""
        env = os.environ if env is None else env
        values = {v.name: env.get(v.name, v.default).strip() for v in VARIABLES}
        prefix = values["DISCORD_PREFIX"] or "!"
        if len(prefix) > 5 or any(c.isspace() for c in prefix):
            raise ConfigError(f"DISCORD_PREFIX: {prefix!r} must be 1 to 5 characters, no spaces")
        shards = values["DISCORD_SHARD_COUNT"].lower()
        shard_count: int | None = None
        auto = False
        if shards == "auto":
            auto = True
        elif shards:
            if not shards.isdigit() or int(shards) < 1:
                raise ConfigError(
                    f"DISCORD_SHARD_COUNT: {shards!r} is not a positive number or auto"
                )
            shard_count = int(shards)
        shard_ids: tuple[int, ...] | None = _ids("DISCORD_SHARD_IDS", values["DISCORD_SHARD_IDS"])
        if not shard_ids:
            shard_ids = None
        elif shard_count is None:
            raise ConfigError("DISCORD_SHARD_IDS: needs DISCORD_SHARD_COUNT set to a number")
        elif max(shard_ids) >= shard_count:
            raise ConfigError(
                f"DISCORD_SHARD_IDS: shard {max(shard_ids)} does not exist with "
                f"DISCORD_SHARD_COUNT={shard_count} (ids run from 0 to {shard_count - 1})"
            )
        return cls(
            token=values["DISCORD_TOKEN"],
            message_content=_flag("DISCORD_MESSAGE_CONTENT", values["DISCORD_MESSAGE_CONTENT"]),
            prefix=prefix,
            guild_ids=_ids("DISCORD_GUILD_IDS", values["DISCORD_GUILD_IDS"]),
            shard_count=shard_count,
            auto_shard=auto,
            shard_ids=shard_ids,
            api_base=_url("DISCORD_API_BASE", values["DISCORD_API_BASE"], ("https", "http")).rstrip(
                "/"
            ),
            gateway_url=_url("DISCORD_GATEWAY_URL", values["DISCORD_GATEWAY_URL"], ("wss", "ws")),
        )
