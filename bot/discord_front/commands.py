"""The ``/shogi`` slash-command group, built from the service's command table.

Each command of :data:`bot.core.commands.COMMANDS` becomes a subcommand; each of its arguments
an option.  Argument kinds the table does not carry (a user, a number) and which options
autocomplete are decided here, by argument name, because they are Discord presentation.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.core.commands import COMMANDS, Argument, Command
from bot.core.messages import EN, LANGUAGES, text
from bot.discord_front.texts import cut

GROUP_NAME = "shogi"
NAME_LIMIT = 32
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 25

USER_ARGUMENTS = frozenset({"opponent", "user", "player"})
# Arguments answered while typing in every command: the asker's games, the open challenges.
AUTOCOMPLETE_EVERYWHERE = frozenset({"game", "challenge"})
# (command, argument) pairs answered while typing (instead of a fixed list of choices).
AUTOCOMPLETE: frozenset[tuple[str, str]] = frozenset(
    {
        ("move", "move"),
        ("moves", "square"),
        ("piece", "name"),
        ("challenge", "time"),
        ("play", "time"),
        ("help", "command"),
    }
)

SlashCallback = Callable[[discord.Interaction[Any], str, dict[str, Any]], Awaitable[None]]
Completer = Callable[
    [discord.Interaction[Any], str, str, str], Awaitable[list[app_commands.Choice[str]]]
]


def one_line(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters (Discord's descriptions)."""
    return cut(" ".join(text.split()), limit)


def group_description() -> str:
    return one_line(text("discord.group"), DESCRIPTION_LIMIT)


def discord_locales(languages: tuple[str, ...]) -> dict[discord.Locale, str]:
    """The Discord locales of the catalogue's languages: the same code (``ru``, ``pt-BR`` for
    ``pt_BR``) or its regions (``es-ES`` for ``es``, ``zh-CN`` and ``zh-TW`` for ``zh``)."""
    found: dict[discord.Locale, str] = {}
    for lang in languages:
        if lang == "en":  # English names and descriptions are the canonical ones
            continue
        for locale in discord.Locale:
            if locale.value.replace("-", "_") == lang or locale.value.split("-")[0] == lang:
                found[locale] = lang
    return found


# Discord locales whose users see the catalogue's translations of the descriptions.
LOCALES: dict[discord.Locale, str] = discord_locales(LANGUAGES)


def localized(english: str, key: str) -> app_commands.locale_str:
    """A name or description Discord shows in English, translated from the catalogue's
    ``key``."""
    return app_commands.locale_str(english, key=key)


# Where discord.py asks for a name (a subcommand's, an option's) rather than a description.
NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class CatalogueTranslator(app_commands.Translator):
    """Gives Discord the ``description_localizations`` of the group, its commands and their
    options, the ``name_localizations`` of the subcommands and options (``slash.command.<name>``,
    ``slash.option.<name>``) and those of the options' choices, from the catalogue.  The English
    names stay the canonical ones: a client in another language shows and types the translated
    name, and the interaction still carries the English one."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or not key:
            return None
        if context.location in NAME_LOCATIONS:
            return text(key, lang).lower()[:NAME_LIMIT]
        return one_line(text(key, lang), DESCRIPTION_LIMIT)


@dataclass(frozen=True)
class OptionSpec:
    """How one argument appears as a slash-command option."""

    name: str
    description: str
    key: str  # the description's catalogue key
    required: bool
    kind: type[Any]
    choices: tuple[str, ...]
    autocomplete: bool


def option_specs(command: Command) -> tuple[OptionSpec, ...]:
    """Options of ``command`` in table order."""
    specs = []
    for arg in command.arguments:
        specs.append(_option_spec(command.name, arg))
    return tuple(specs)


def _option_spec(command: str, arg: Argument) -> OptionSpec:
    kind: type[Any] = str
    if arg.name in USER_ARGUMENTS:
        kind = discord.User
    auto = (command, arg.name) in AUTOCOMPLETE or arg.name in AUTOCOMPLETE_EVERYWHERE
    return OptionSpec(
        name=arg.name.lower()[:NAME_LIMIT],
        description=one_line(arg.description(), DESCRIPTION_LIMIT),
        key=arg.key,
        required=arg.required,
        kind=kind,
        choices=() if auto else arg.choices[:CHOICE_LIMIT],
        autocomplete=auto,
    )


def build_command(
    command: Command, on_slash: SlashCallback, complete: Completer
) -> app_commands.Command[Any, ..., None]:
    """One ``/shogi <command>`` subcommand that hands its options to ``on_slash``."""
    specs = option_specs(command)
    name = command.name

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await on_slash(interaction, name, values)

    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for spec in sorted(specs, key=lambda s: not s.required):
        params.append(
            inspect.Parameter(
                spec.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=spec.kind,
                default=inspect.Parameter.empty if spec.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"shogi_{name.replace('-', '_')}"
    callback.__annotations__ = {}
    renamed = app_commands.rename(  # the same names, localized by the translator
        **{s.name: localized(s.name, f"slash.option.{s.name}") for s in specs}
    )(callback)
    described = app_commands.describe(**{s.name: localized(s.description, s.key) for s in specs})(
        renamed
    )
    choices = {s.name: [choice(s.name, c) for c in s.choices] for s in specs if s.choices}
    if choices:
        described = app_commands.choices(**choices)(described)
    cmd: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=localized(name.lower()[:NAME_LIMIT], f"slash.command.{name}"),
        description=localized(one_line(command.summary(), DESCRIPTION_LIMIT), f"cmd.{name}"),
        callback=described,
    )
    for spec in specs:
        if spec.autocomplete:
            cmd.autocomplete(spec.name)(_completer(complete, name, spec.name))
    return cmd


def choice(argument: str, value: str) -> app_commands.Choice[str]:
    """A fixed choice of an option: its name in the catalogue's words (``choice.<argument>.
    <value>``) when it has them, in every language; else the value as typed (levels, formats)."""
    key = f"choice.{argument}.{value}"
    if key not in EN:
        return app_commands.Choice(name=value, value=value)
    return app_commands.Choice(
        name=localized(one_line(EN[key], DESCRIPTION_LIMIT), key), value=value
    )


def _completer(
    complete: Completer, command: str, argument: str
) -> Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    async def autocomplete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete(interaction, command, argument, current)

    return autocomplete


def build_group(
    on_slash: SlashCallback, complete: Completer, commands: tuple[Command, ...] = COMMANDS
) -> app_commands.Group:
    """The ``/shogi`` group with one subcommand per command of the table."""
    group = app_commands.Group(
        name=GROUP_NAME, description=localized(group_description(), "discord.group")
    )
    for command in commands:
        group.add_command(build_command(command, on_slash, complete))
    return group
