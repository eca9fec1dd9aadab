"""Discord events as service Requests: slash commands, button presses, typed messages."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.core.api import ChatKey, Request, User
from bot.core.commands import find_command, split_command_text
from bot.discord_front.settings import DiscordSettings

GROUP_WORD = "shogi"  # "!shogi move 7g7f" as well as "!move 7g7f"
BARE_MOVE_LIMIT = 20  # longest single word taken for a move
MESSAGE_LIMIT = 4000  # the longest message Discord lets anyone send (with Nitro)
OPTION_LIMIT = 6000  # the longest value Discord allows a slash command's string option
_MENTION = re.compile(r"^<@!?(\d+)>$")
_MOVE_LIKE = re.compile(r"[0-9０-９一二三四五六七八九十同]")  # every move names a square


def chat_ref(channel_id: int | None, guild_id: int | None = None) -> ChatKey:
    """Every Discord channel, thread and DM is a chat of its own; the server (guild) it belongs
    to is its community (ratings and leaderboards are per server; a DM is its own)."""
    return ChatKey(
        "discord", str(channel_id or 0), community=str(guild_id) if guild_id is not None else None
    )


def user_ref(user: discord.abc.User) -> User:
    """The service's user: the display name (anyone may pick any) and the unique user name."""
    return User("discord", str(user.id), user.display_name, handle=user.name or None)


def slash_request(
    interaction: discord.Interaction[Any], command: str, values: Mapping[str, Any]
) -> Request:
    """``/shogi <command>`` with its options: values in table order as ``args``, a user option
    as ``target`` (the bot itself, picked as the opponent, as ``to_bot``); a value longer than
    Discord allows (:data:`OPTION_LIMIT`) is cut there."""
    users = {k: v for k, v in values.items() if isinstance(v, discord.abc.User)}
    options = {
        k: str(v.id) if isinstance(v, discord.abc.User) else str(v)[:OPTION_LIMIT]
        for k, v in values.items()
        if v is not None
    }
    target = next(iter(users.values()), None)
    me = interaction.client.user
    to_bot = target is not None and me is not None and target.id == me.id
    if to_bot:
        target = None
    args = tuple(v for k, v in options.items() if k not in users)
    if interaction.guild_id is not None:
        perms = interaction.permissions
        options["admin"] = "1" if perms.manage_channels or perms.manage_guild else "0"
    return Request(
        chat=chat_ref(interaction.channel_id, interaction.guild_id),
        user=user_ref(interaction.user),
        command=command,
        args=args,
        options=options,
        target=user_ref(target) if target is not None else None,
        to_bot=to_bot,
    )


def button_request(interaction: discord.Interaction[Any], action: str) -> Request:
    """A pressed button: its action is the command and its arguments."""
    command, _, rest = action.partition(" ")
    return Request(
        chat=chat_ref(interaction.channel_id, interaction.guild_id),
        user=user_ref(interaction.user),
        command=command,
        args=tuple(rest.split()),
        options={"button": "1"},
    )


def completion_request(
    interaction: discord.Interaction[Any], command: str, argument: str, current: str
) -> Request:
    """Ask the service for suggestions for a half-typed option (the others as options)."""
    filled = {k: str(v) for k, v in vars(interaction.namespace).items() if v is not None}
    return Request(
        chat=chat_ref(interaction.channel_id, interaction.guild_id),
        user=user_ref(interaction.user),
        command="complete",
        args=(command, argument, current[:OPTION_LIMIT]),
        options={k: v for k, v in filled.items() if k != argument},
    )


def text_request(
    message: discord.Message, settings: DiscordSettings, me: int | None = None
) -> Request | None:
    """The Request a typed message stands for, or None when it is none of ours.

    ``!move 7g7f`` or ``!shogi move 7g7f`` (the prefix is configurable); a mention becomes the
    target (a mention of no known person, or of a bot, stays in the words as an unknown
    mention, which the service refuses rather than guess); a mention of this bot (user id
    ``me``) is ``to_bot``; people mentioned after the first are ``more_targets``.  A single
    word naming a square may be a bare move: it goes to the service marked ``bare=1``, which
    plays it only where the chat's ``bare`` setting is on.
    """
    if len(message.content) > MESSAGE_LIMIT:
        return None  # more than Discord lets anyone send: nothing a person typed
    content = message.content.strip()
    chat = chat_ref(message.channel.id, message.guild.id if message.guild else None)
    user = user_ref(message.author)
    if content.startswith(settings.prefix):
        words = content[len(settings.prefix) :].split()
        if words and words[0].lower() == GROUP_WORD:
            words = words[1:]
        elif not words or find_command(words[0]) is None:
            return None  # "!play" may be another bot's command: answer only our own
        parsed = split_command_text(" ".join(words)) if words else ("help", ())
        if parsed is None:
            return None
        command, args = parsed
        people: list[User] = []  # the first is the target, the rest more targets
        to_bot = False
        kept: list[str] = []
        unknown: list[str] = []
        for word in args:
            m = _MENTION.match(word)
            if m is None:
                kept.append(word)
                continue
            if me is not None and int(m.group(1)) == me:
                to_bot = True
                continue
            mentioned = next((u for u in message.mentions if u.id == int(m.group(1))), None)
            if mentioned is None or mentioned.bot:
                kept.append(word)
                unknown.append(word)
            else:
                people.append(user_ref(mentioned))
        return Request(
            chat,
            user,
            command,
            tuple(kept),
            options=_admin(message),
            target=people[0] if people else None,
            more_targets=tuple(people[1:]),
            unknown_mentions=tuple(unknown),
            to_bot=to_bot,
        )
    if len(content.split()) == 1 and len(content) <= BARE_MOVE_LIMIT and _MOVE_LIKE.search(content):
        # Perhaps a bare move: the service plays it if the chat opted in (else stays silent).
        options = {"bare": "1"}
        parent = getattr(message.channel, "parent_id", None)
        if parent is not None:
            options["parent"] = str(parent)  # a thread follows its channel's setting
        return Request(chat, user, "move", (content,), options=options)
    return None


def _admin(message: discord.Message) -> dict[str, str]:
    """``admin=1|0``: whether the author may manage the channel or server (servers only)."""
    author = message.author
    if message.guild is None or not isinstance(author, discord.Member):
        return {}
    perms = author.guild_permissions
    return {"admin": "1" if perms.manage_channels or perms.manage_guild else "0"}
