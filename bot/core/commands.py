"""The command table: every command the bot understands, for every front end.

Discord registers slash commands from it, Telegram ``setMyCommands``, the console and ``help``
read it too.  ``syntax`` uses ``[optional]`` and ``A|B`` choices; ``summary`` is a message key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.messages import text
from bot.core.words import (
    COLOR_CHOICES,
    DRAW_ANSWERS,
    EXPORT_FORMATS,
    HANDICAP_CHOICES,
    HANDICAP_SIDE_CHOICES,
    RATED_CHOICES,
    SETTING_CHOICES,
    TAKEBACK_ANSWERS,
    TIME_CHOICES,
    VARIANT_CHOICES,
)
from engine.levels import HIGHEST, LOWEST


@dataclass(frozen=True)
class Argument:
    """One argument of a command, for front ends that build forms (Discord slash options)."""

    name: str
    key: str  # the catalogue's description of it: ``arg.<command>.<name>``
    required: bool = False
    choices: tuple[str, ...] = ()

    def description(self, lang: str = "en") -> str:
        return text(self.key, lang)


@dataclass(frozen=True)
class Command:
    name: str
    aliases: tuple[str, ...]
    syntax: str  # after the command name, e.g. "[@user] [shogi|wa|wa-drops] ..."
    arguments: tuple[Argument, ...]
    example: str

    def summary(self, lang: str = "en") -> str:
        """One line saying what the command does."""
        return text(f"cmd.{self.name}", lang)

    def usage(self) -> str:
        return f"/{self.name} {self.syntax}".rstrip()

    def syntax_in(self, lang: str) -> str:
        """``syntax`` with its placeholders in ``lang`` (``[game]``: ``[партия]``); the words
        a player types (shogi, sente, level...) stay as they are."""
        return PLACEHOLDER.sub(lambda m: text(f"syntax.{m[0].lower()}", lang), self.syntax)


# What the syntax strings leave to the player to fill in: @user, [game], MOVE...
PLACEHOLDER = re.compile(
    r"(?<=@)user\b|(?<=\[)(?:challenge|game|page|command|ply)(?=\])|\b(?:MOVE|SQUARE|NAME)\b"
)


LEVEL_CHOICES = tuple(str(n) for n in range(LOWEST, HIGHEST + 1))  # the bot's, weakest first
GAME_ARG = Argument("game", "arg.game")
HANDICAP_ARG = Argument("handicap", "arg.challenge.handicap", choices=HANDICAP_CHOICES)
HANDICAP_SIDE_ARG = Argument(
    "handicap_side", "arg.challenge.handicap_side", choices=HANDICAP_SIDE_CHOICES
)

COMMANDS: tuple[Command, ...] = (
    Command(
        "challenge",
        ("c", "new"),
        "[@user|bot] [shogi|wa|wa-drops] [random|sente|gote] [1d|3d|7d|10m|10m+30s|none] "
        "[rated|casual] [level 1-8] [handicap NAME [taking]]",
        (
            Argument("opponent", "arg.challenge.opponent"),
            Argument("variant", "arg.challenge.variant", choices=VARIANT_CHOICES),
            Argument("color", "arg.challenge.color", choices=COLOR_CHOICES),
            Argument("time", "arg.challenge.time", choices=TIME_CHOICES),
            Argument("rating", "arg.challenge.rating", choices=RATED_CHOICES),
            Argument("level", "arg.challenge.level", choices=LEVEL_CHOICES),
            HANDICAP_ARG,
            HANDICAP_SIDE_ARG,
        ),
        "/challenge @bob wa sente 3d",
    ),
    Command(
        "play",
        ("vsbot",),
        "[shogi|wa|wa-drops] [level 1-8] [random|sente|gote] [1d|3d|7d|10m|10m+30s|none] "
        "[handicap NAME [taking]]",
        (
            Argument("variant", "arg.challenge.variant", choices=VARIANT_CHOICES),
            Argument("level", "arg.play.level", choices=LEVEL_CHOICES),
            Argument("color", "arg.challenge.color", choices=COLOR_CHOICES),
            Argument("time", "arg.play.time", choices=TIME_CHOICES),
            HANDICAP_ARG,
            HANDICAP_SIDE_ARG,
        ),
        "/play wa level 4",
    ),
    Command(
        "accept",
        ("yes",),
        "[challenge]",
        (Argument("challenge", "arg.challenge"),),
        "/accept 12",
    ),
    Command(
        "decline",
        ("no",),
        "[challenge]",
        (Argument("challenge", "arg.challenge"),),
        "/decline 12",
    ),
    Command("cancel", (), "[challenge]", (Argument("challenge", "arg.challenge"),), "/cancel"),
    Command(
        "move",
        ("m", "mv", "play-move"),
        "MOVE [game]",
        (Argument("move", "arg.move.move", required=True), GAME_ARG),
        "/move 7g7f",
    ),
    Command(
        "board",
        ("b", "show"),
        "[game] [ply]",
        (GAME_ARG, Argument("move", "arg.board.move")),
        "/board",
    ),
    Command(
        "moves",
        ("where", "legal"),
        "SQUARE [game]",
        (Argument("square", "arg.moves.square", required=True), GAME_ARG),
        "/moves 7g",
    ),
    Command("resign", (), "[game]", (GAME_ARG,), "/resign"),
    Command(
        "draw",
        (),
        "[offer|accept|decline] [game]",
        (
            Argument("answer", "arg.draw.answer", choices=DRAW_ANSWERS),
            GAME_ARG,
        ),
        "/draw offer",
    ),
    Command("abort", (), "[game]", (GAME_ARG,), "/abort"),
    Command(
        "takeback",
        ("undo",),
        "[ask|accept|decline] [game]",
        (
            Argument("answer", "arg.takeback.answer", choices=TAKEBACK_ANSWERS),
            GAME_ARG,
        ),
        "/takeback",
    ),
    Command("impasse", ("jishogi", "declare"), "[game]", (GAME_ARG,), "/impasse"),
    Command("games", ("list", "mygames"), "", (), "/games"),
    Command(
        "rating",
        ("ratings", "elo"),
        "[@user] [shogi|wa|wa-drops]",
        (
            Argument("user", "arg.rating.user"),
            Argument("variant", "arg.rating.variant", choices=VARIANT_CHOICES),
        ),
        "/rating @bob wa",
    ),
    Command(
        "leaderboard",
        ("top", "ladder"),
        "[shogi|wa|wa-drops|puzzles] [page]",
        (
            Argument("variant", "arg.leaderboard.variant", choices=(*VARIANT_CHOICES, "puzzles")),
            Argument("page", "arg.leaderboard.page"),
        ),
        "/leaderboard wa",
    ),
    Command(
        "history",
        ("played", "results"),
        "[@user] [page]",
        (
            Argument("user", "arg.history.user"),
            Argument("page", "arg.history.page"),
        ),
        "/history @bob",
    ),
    Command(
        "export",
        ("record", "kif"),
        "[kif|kifu|csa|usi|gif] [game]",
        (Argument("format", "arg.export.format", choices=EXPORT_FORMATS), GAME_ARG),
        "/export kif",
    ),
    Command("analyse", ("analyze",), "[game]", (GAME_ARG,), "/analyse"),
    Command(
        "puzzle",
        ("tsume", "problem"),
        "[shogi|wa|wa-drops|hint|solution|MOVE]",
        (Argument("action", "arg.puzzle.action"),),
        "/puzzle wa",
    ),
    Command(
        "piece",
        ("p", "whatis"),
        "NAME [shogi|wa|wa-drops]",
        (
            Argument("name", "arg.piece.name", required=True),
            Argument("variant", "arg.piece.variant", choices=VARIANT_CHOICES),
        ),
        "/piece swallow",
    ),
    Command(
        "cheatsheet",
        ("pieces", "sheet"),
        "[shogi|wa|wa-drops]",
        (Argument("variant", "arg.cheatsheet.variant", choices=VARIANT_CHOICES),),
        "/cheatsheet wa",
    ),
    Command(
        "settings",
        ("set", "config"),
        " ".join(f"[{k} {'|'.join(v)}]" for k, v in SETTING_CHOICES.items())
        + " [puzzle daily HH:MM|off]",
        (
            Argument("language", "arg.settings.language", choices=SETTING_CHOICES["language"]),
            Argument("notation", "arg.settings.notation", choices=SETTING_CHOICES["notation"]),
            Argument("style", "arg.settings.style", choices=SETTING_CHOICES["style"]),
            Argument(
                "perspective", "arg.settings.perspective", choices=SETTING_CHOICES["perspective"]
            ),
            Argument("bare", "arg.settings.bare", choices=SETTING_CHOICES["bare"]),
            Argument("threads", "arg.settings.threads", choices=SETTING_CHOICES["threads"]),
            Argument("reminders", "arg.settings.reminders", choices=SETTING_CHOICES["reminders"]),
            Argument("puzzle", "arg.settings.puzzle"),
        ),
        "/settings notation japanese",
    ),
    Command(
        "help",
        ("h", "start", "?"),
        "[command]",
        (Argument("command", "arg.help.command"),),
        "/help move",
    ),
)

HIDDEN_COMMANDS: tuple[Command, ...] = (
    Command(
        "complete",
        (),
        "COMMAND ARGUMENT TEXT",
        (),
        "/complete move move 7g",
    ),
)
"""Requests front ends send on their own (autocomplete); not offered to people."""

BY_NAME: dict[str, Command] = {c.name: c for c in COMMANDS}
_LOOKUP: dict[str, Command] = {
    **{a: c for c in COMMANDS for a in c.aliases},
    **BY_NAME,
}


def find_command(name: str) -> Command | None:
    """The command called ``name`` or one of its aliases (case-insensitive, ``/`` allowed)."""
    return _LOOKUP.get(name.strip().lstrip("/").lower())


_COMMAND_WORD = re.compile(r"^/?([A-Za-z?][\w?-]*)(?:@\w+)?$")


def split_command_text(line: str) -> tuple[str, tuple[str, ...]] | None:
    """``"/move@komabot 7g7f"`` -> ``("move", ("7g7f",))``; None when it is no command.

    The command is returned canonical when known, else lower-cased as typed (the service
    answers unknown commands with suggestions).
    """
    words = line.split()
    if not words:
        return None
    m = _COMMAND_WORD.match(words[0])
    if not m:
        return None
    word = m.group(1).lower()
    command = find_command(word)
    return (command.name if command else word), tuple(words[1:])
