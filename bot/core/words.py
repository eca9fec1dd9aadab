"""Every word a player may type, in every language the bot speaks: variants, sides, levels,
time, rated or casual, the bot as an opponent, answers (yes, no, accept...), settings and their
values, export formats.  Handlers read typed words through these tables only; what the bot
writes comes from the message catalogues.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from bot.core.messages import LANGUAGES
from rules import load_variant

# --- what a game is played as: the canonical words (front ends offer these as choices) ---

VARIANT_CHOICES = ("shogi", "wa", "wa-drops")
COLOR_CHOICES = ("random", "sente", "gote")
TIME_CHOICES = ("1d", "3d", "7d", "none")
RATED_CHOICES = ("rated", "casual")
HANDICAP_SIDE_CHOICES = ("giving", "taking")
EXPORT_FORMATS = ("kif", "kifu", "csa", "usi", "gif")

VARIANT_WORDS = {
    "shogi": "shogi",
    "standard": "shogi",
    "honshogi": "shogi",
    "wa": "wa",
    "washogi": "wa",
    "wa-shogi": "wa",
    "wa-drops": "wa-drops",
    "wadrops": "wa-drops",
    "wa+drops": "wa-drops",
    "wa-shogi-drops": "wa-drops",
}
COLOR_WORDS = {
    "random": "random",
    "any": "random",
    "sente": "sente",
    "black": "sente",
    "first": "sente",
    "gote": "gote",
    "white": "gote",
    "second": "gote",
}
RATED_WORDS = {
    "rated": True,
    "casual": False,
    "unrated": False,
    "рейтинговая": True,
    "товарищеская": False,
}
"""Whether a game between two people counts for ratings (it does unless ``casual``)."""
NO_TIME_WORDS = frozenset({"none", "no", "off", "unlimited", "-", "∞"})
BOT_WORDS = frozenset({"bot", "komabot", "computer", "engine", "cpu", "ai", "бот"})
"""Words that name the bot itself as the opponent (front ends also pass a mention of the bot
as ``Request.to_bot``)."""
LEVEL_WORDS = frozenset({"level", "lvl", "lv", "уровень"})  # followed by the number
LEVEL_GLUED = re.compile(r"(?:level|lvl|lv|l)=?([0-9]+)", re.ASCII)  # level4, lvl=4, l4

HANDICAP_WORDS = frozenset({"handicap", "handi", "komaochi", "駒落ち", "фора", "fora"})
"""Words that say a handicap follows (``handicap rook``)."""
HANDICAP_TAKING = {
    "giving": False,
    "give": False,
    "gives": False,
    "uwate": False,
    "上手": False,
    "даю": False,
    "daję": False,
    "taking": True,
    "take": True,
    "takes": True,
    "receiving": True,
    "receive": True,
    "shitate": True,
    "下手": True,
    "беру": True,
    "получаю": True,
    "biorę": True,
    "otrzymuję": True,
}
"""Whether the one who asks takes the handicap (is the weaker side) or gives it (the default)."""


def _plain(name: str) -> str:
    """``name`` lowered, with its accents and macrons dropped (``kyō-ochi`` -> ``kyo-ochi``)."""
    decomposed = unicodedata.normalize("NFD", name.lower())
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


@cache
def handicap_names() -> dict[str, str]:
    """Typed handicap name (lowered, one space between words) -> handicap id (``rook``, 飛車落ち,
    ``hisha-ochi``, ``без ладьи``...): every way to name a handicap of any variant, its id and
    its names in every language, with spaces or hyphens, accents or none.  Made on first use:
    it loads every variant (Wa's move tables alone take about 0.13 s), which a process that
    never reads a challenge need not pay for at start-up."""
    names: dict[str, str] = {}
    for variant_id in VARIANT_CHOICES:
        for handicap in load_variant(variant_id).handicaps.values():
            for name in (handicap.id, *handicap.names.values()):
                for form in {name.lower(), _plain(name)}:
                    for spelled in {form, form.replace("-", " "), form.replace(" ", "-")}:
                        names[spelled] = handicap.id
    return names


HANDICAP_CHOICES = tuple(load_variant("shogi").handicaps)
"""The handicaps front ends offer as choices: their ids."""


@cache
def handicap_longest() -> int:
    """The most words a handicap's name has."""
    return max(len(name.split()) for name in handicap_names())


def handicap_named(words: list[str]) -> tuple[str, str] | None:
    """The handicap the first words of ``words`` name (the longest name that fits), and the
    words that named it, or None."""
    names = handicap_names()
    for count in range(min(handicap_longest(), len(words)), 0, -1):
        typed = " ".join(words[:count])
        key = typed.lower()
        if key not in names:
            key = _plain(typed)
        if key in names:
            return names[key], typed
    return None


# --- answers -------------------------------------------------------------------------------

CONFIRM_WORDS = frozenset({"yes", "confirm", "y", "sure"})
"""Words that confirm a resignation (``/resign yes``)."""
ANSWER_WORDS = {"yes": "accept", "no": "decline", "agree": "accept", "refuse": "decline"}
"""Other words for accepting or declining an offer (a draw, a takeback)."""
DRAW_ANSWERS = ("offer", "accept", "decline")
TAKEBACK_ANSWERS = ("ask", "accept", "decline")

# --- settings ------------------------------------------------------------------------------

SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "language": LANGUAGES,
    "notation": ("western", "japanese", "usi"),
    "style": ("kanji", "international"),
    "perspective": ("mover", "sente"),
    "bare": ("on", "off"),
    "threads": ("on", "off"),
    "reminders": ("chat", "dm"),
}
SETTING_ALIASES = {
    "language": "language",
    "lang": "language",
    "язык": "language",
    "język": "language",
    "言語": "language",
    "notation": "notation",
    "moves": "notation",
    "style": "style",
    "pieces": "style",
    "piece_style": "style",
    "perspective": "perspective",
    "view": "perspective",
    "flip": "perspective",
    "bare": "bare",
    "bare-moves": "bare",
    "bare_moves": "bare",
    "threads": "threads",
    "thread": "threads",
    "reminders": "reminders",
    "reminder": "reminders",
    "remind": "reminders",
}
VALUE_ALIASES = {
    "english": "en",
    "eng": "en",
    "russian": "ru",
    "rus": "ru",
    "русский": "ru",
    "日本語": "ja",
    "polish": "pl",
    "polski": "pl",
    "pol": "pl",
    "hodges": "western",
    "kif": "japanese",
    "turn": "mover",
    "western-pieces": "international",
    "latin": "international",
    "yes": "on",
    "true": "on",
    "1": "on",
    "no": "off",
    "false": "off",
    "0": "off",
    "private": "dm",
    "direct": "dm",
    "pm": "dm",
    "channel": "chat",
    "group": "chat",
}


def variant_of(word: str) -> str | None:
    """The variant ``word`` names (any case), or None."""
    return VARIANT_WORDS.get(word.lower())


# --- mate problems ---------------------------------------------------------------------------

PUZZLE_ACTIONS = ("hint", "solution", "move", "daily")
"""What ``/puzzle`` does besides giving a puzzle (front ends offer these as choices)."""
PUZZLE_WORDS = {
    "hint": "hint",
    "clue": "hint",
    "подсказка": "hint",
    "ヒント": "hint",
    "podpowiedź": "hint",
    "podpowiedz": "hint",
    "solution": "solution",
    "answer": "solution",
    "reveal": "solution",
    "giveup": "solution",
    "решение": "solution",
    "ответ": "solution",
    "答え": "solution",
    "解答": "solution",
    "rozwiązanie": "solution",
    "rozwiazanie": "solution",
    "daily": "daily",
    "today": "daily",
    "дня": "daily",
    "今日": "daily",
    "dnia": "daily",
    "move": "move",
    "m": "move",
    "ход": "move",
    "ruch": "move",
}
"""Typed word (lowered) -> what ``/puzzle`` is asked to do."""
PUZZLE_BOARD_WORDS = frozenset(
    {"puzzles", "puzzle", "tsume", "problems", "задачи", "цумэ", "詰将棋", "zadania"}
)
"""Words after ``/leaderboard`` that ask for the puzzle ratings' board."""
PUZZLE_SETTING_WORDS = frozenset({"puzzle", "puzzles", "tsume", "задачи", "詰将棋", "zadania"})
"""Words after ``/settings`` that name the daily puzzle's setting."""
