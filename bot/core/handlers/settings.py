"""A chat's settings (``/settings``) and ``/help``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.core import present
from bot.core.api import Button, Reply
from bot.core.commands import BY_NAME, COMMANDS, find_command
from bot.core.context import Context, UserError
from bot.core.messages import text
from bot.core.words import PUZZLE_SETTING_WORDS, SETTING_ALIASES, SETTING_CHOICES, VALUE_ALIASES
from bot.store.interface import Store
from bot.store.models import ChatSettings, ReminderRoute, language_notation

SETTING_FIELDS = {"style": "piece_style", "bare": "bare_moves"}  # key -> ChatSettings field


@dataclass(eq=False)
class Settings:
    """Shows and changes the chat's settings and the asker's own (where reminders go)."""

    store: Store
    puzzle_setting: Callable[[Context, list[str]], Awaitable[Reply]]
    """``/settings puzzle ...``: the daily puzzle's (given the words after ``puzzle``)."""

    async def cmd_settings(self, ctx: Context) -> Reply:
        if "puzzle" in ctx.request.options:  # Discord's option
            return await self.puzzle_setting(ctx, ctx.request.options["puzzle"].split())
        if ctx.args and ctx.args[0].lower() in PUZZLE_SETTING_WORDS:
            return await self.puzzle_setting(ctx, list(ctx.args[1:]))
        settings = ctx.settings
        named = [(k, v) for k, v in ctx.request.options.items() if k in SETTING_CHOICES]
        typed = [w for pair in named for w in pair] if named else list(ctx.args)
        words = [w.lower() for w in typed]
        changes: list[str] = []
        route: ReminderRoute | None = None
        i = 0
        while i < len(words):
            word = VALUE_ALIASES.get(words[i], words[i])
            key = SETTING_ALIASES.get(word)
            if key is None:
                owners = [k for k, values in SETTING_CHOICES.items() if word in values]
                if not owners:
                    raise UserError("settings.bad_key", word=typed[i])
                if len(owners) > 1:
                    keys = present.or_list(owners, ctx.lang)
                    raise UserError("settings.which_key", word=typed[i], keys=keys)
                key, value = owners[0], word
                i += 1
            else:
                if i + 1 >= len(words):
                    raise UserError(
                        "settings.missing_value", key=key, choices=list(SETTING_CHOICES[key])
                    )
                value = VALUE_ALIASES.get(words[i + 1], words[i + 1])
                if value not in SETTING_CHOICES[key]:
                    raise UserError(
                        "settings.bad_value",
                        value=typed[i + 1],
                        key=key,
                        choices=list(SETTING_CHOICES[key]),
                    )
                i += 2
            if key == "reminders":
                route = ReminderRoute(value)
            else:
                field = SETTING_FIELDS.get(key, key)
                stored: dict[str, Any] = {field: value == "on" if value in ("on", "off") else value}
                settings = replace(settings, **stored)
            changes.append(f"{key} {value}")
        if any(c.startswith("notation ") for c in changes):
            settings = replace(settings, notation_chosen=True)
        elif settings.language != ctx.settings.language and not settings.notation_chosen:
            # moves are written as the new language's players do (Japanese ones in Japanese),
            # and back, while the chat never chose a notation
            notation = language_notation(settings.language)
            if notation != settings.notation:
                settings = replace(settings, notation=notation)
                changes.append(f"notation {notation}")
        if not changes:
            return Reply(await self.settings_text(ctx, settings))
        if settings != ctx.settings:
            self.require_settings_admin(ctx)
            await self.store.save_settings(ctx.chat, settings)
        if route is not None:
            await self.store.set_reminder_route(ctx.user, route)
        # answered in the chat's new language, if that changed
        return Reply(text("settings.changed", settings.language, changes=list(changes)))

    @staticmethod
    def require_settings_admin(ctx: Context) -> None:
        """Refuse a change of the chat's settings from someone the platform says may not manage
        the chat (front ends that know pass ``admin=0|1``; without it anyone may), or when the
        front end had to ask and got no answer (``admin=unknown``)."""
        admin = ctx.request.options.get("admin")
        if admin == "0":
            raise UserError("settings.not_admin")
        if admin == "unknown":
            raise UserError("settings.admin_unknown")

    async def settings_text(self, ctx: Context, settings: ChatSettings) -> str:
        route = await self.store.get_reminder_route(ctx.user)
        return ctx.t(
            "settings.show",
            language=settings.language,
            notation=settings.notation,
            style=settings.piece_style,
            perspective=settings.perspective,
            bare="on" if settings.bare_moves else "off",
            threads="on" if settings.threads else "off",
            reminders=route.value,
        )


class Help:
    """The command list, and one command explained."""

    @staticmethod
    async def cmd_help(ctx: Context) -> Reply:
        if ctx.args:
            command = find_command(ctx.args[0])
            if command is None:
                raise UserError("help.unknown", word=ctx.args[0])
            aliases = (
                ctx.t("help.aliases", aliases=["/" + a for a in command.aliases])
                if command.aliases
                else ""
            )
            body = ctx.t(
                "help.command",
                name=command.name,
                syntax=command.syntax_in(ctx.lang),
                summary=command.summary(ctx.lang),
                example=command.example,
                aliases=aliases,
            ).replace(f"/{command.name} \n", f"/{command.name}\n")
            if command is BY_NAME["move"]:
                body += ctx.t("help.move_extra")
            elif command.name == "puzzle":
                body += ctx.t("help.puzzle_extra")
            elif command.name in ("challenge", "play"):
                body += ctx.t("help.challenge_extra") + ctx.t("help.live_extra")
                body += ctx.t("help.byoyomi_extra")
            return Reply(body)
        lines = [ctx.t("help.title")]
        lines += [f"/{c.name} — {c.summary(ctx.lang)}" for c in COMMANDS]
        lines += [ctx.t("help.footer"), ctx.t("help.play_bot")]
        play = Button(ctx.t("button.play_bot"), "play", "primary")  # /play with its defaults
        return Reply("\n".join(lines), buttons=((play,),))
