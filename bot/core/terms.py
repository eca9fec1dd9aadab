"""The terms of a game someone asks for (``/challenge``, ``/play``): opponent, variant, side,
time per move, rated or casual, the bot's level, a handicap, typed in any order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from bot.config import format_duration as typed_duration
from bot.config import parse_duration
from bot.core import present
from bot.core.api import User
from bot.core.args import is_digits, plain_number, shown
from bot.core.context import Context, UserError
from bot.core.people import People, mentions
from bot.core.words import (
    BOT_WORDS,
    COLOR_WORDS,
    HANDICAP_TAKING,
    HANDICAP_WORDS,
    LEVEL_GLUED,
    LEVEL_WORDS,
    NO_TIME_WORDS,
    RATED_WORDS,
    VARIANT_WORDS,
    handicap_longest,
    handicap_named,
)
from engine.levels import HIGHEST, LOWEST
from rules import load_variant

MIN_TIME = 60  # a live game: a minute a move
MAX_TIME = 30 * 86400
MAIN_TIME_RANGE = (60, 10 * 3600)  # main time each, ``10m+30s``: a minute to ten hours
BYOYOMI_RANGE = (10, 3600)  # then every move within ten seconds to an hour


@dataclass(frozen=True)
class ChallengeTerms:
    opponent: User | None  # a person (None: anyone, or the bot)
    variant: str | None  # None: not named
    color: str  # the side of the one who asks: random, sente or gote
    time_per_move: int | None
    by_name: bool = False  # the opponent was found by a typed name, not a platform mention
    vs_bot: bool = False  # the bot itself is the opponent
    level: int | None = None  # the bot's level, when one was named
    rated: bool | None = None  # rated or casual, when said (None: rated between people)
    handicap: str | None = None  # a handicap's id: the one who asks gives it (plays gote)...
    taking: bool = False  # ... unless taking it (plays sente)
    main_time: int | None = None  # main time each; then time_per_move is the byoyomi


def parse_level(word: str) -> int:
    """A level of the bot, 1 to 8, from ``word`` (ASCII digits); UserError otherwise."""
    level = plain_number(word)
    if level is None or not LOWEST <= level <= HIGHEST:
        raise UserError("bot.level_range", word=shown(word), low=LOWEST, high=HIGHEST)
    return level


class _Found:
    """The terms read so far, each at most once (a second one is refused, naming both)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.words: dict[str, str] = {}  # what -> the word(s) that said it

    def put(self, what: str, word: str) -> None:
        if what in self.words:
            raise UserError(
                "challenge.twice",
                word=self.words[what],
                other=word,
                what=self.ctx.t(f"challenge.what.{what}"),
            )
        self.words[what] = word


class _Words:
    """A command's words, each read once and in order (so a line costs time linear in its
    length), with a look at the next few (a handicap's name may have several)."""

    def __init__(self, words: Sequence[str]) -> None:
        self._words = words
        self._at = 0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        if self._at >= len(self._words):
            raise StopIteration
        self._at += 1
        return self._words[self._at - 1]

    def ahead(self, count: int) -> list[str]:
        """The next ``count`` words (fewer at the end), not read yet."""
        return list(self._words[self._at : self._at + count])

    def skip(self, count: int) -> None:
        self._at += count


async def read_terms(
    ctx: Context, people: People, default_time: int | None, usage: str = "challenge.bad_arg"
) -> ChallengeTerms:
    """Read ``[@user|bot] [variant] [colour] [time] [level N]`` in any order (a bare
    number is a level, a word of BOT_WORDS the bot); a word that is none of them is
    refused with the message ``usage``.  Two people named (mentions, typed names) are refused
    as every command about one player refuses them (``People.one_player``)."""
    found = _Found(ctx)
    opponent = ctx.request.target
    more = ctx.request.more_targets
    await people.one_player([user.key for user in (opponent, *more) if user is not None])
    named: User | None = None
    bot_word = False
    variant: str | None = None
    color = "random"
    time_per_move = default_time
    main_time: int | None = None
    level: int | None = None
    rated: bool | None = None
    handicap: str | None = None
    taking = False
    unknown = {m.lower() for m in ctx.request.unknown_mentions}
    words = _Words(ctx.args)  # each word read once: the line's length costs linear time
    for word in words:
        low = word.lower()
        glued = LEVEL_GLUED.fullmatch(low)
        if low in unknown:
            raise UserError("challenge.unknown_user", name=word)
        if low.startswith("@") and len(low) > 1:
            if mentions(low, opponent, *more):
                continue
            user = await people.user_by_name(ctx, word)
            await people.one_player([u.key for u in (opponent, named, user) if u is not None])
            found.put("opponent", word)
            named = user
        elif low in BOT_WORDS:
            found.put("opponent", word)
            bot_word = True
        elif low in LEVEL_WORDS:
            number = next(words, None)
            if number is None:
                raise UserError("bot.level_missing", word=word)
            value = parse_level(number)
            found.put("level", f"{word} {shown(number)}")
            level = value
        elif glued or is_digits(low):
            value = parse_level(glued.group(1) if glued else low)
            found.put("level", shown(word))
            level = value
        elif low in VARIANT_WORDS:
            found.put("variant", word)
            variant = VARIANT_WORDS[low]
        elif low in COLOR_WORDS:
            found.put("color", word)
            color = COLOR_WORDS[low]
        elif low in RATED_WORDS:
            found.put("rated", word)
            rated = RATED_WORDS[low]
        elif low in HANDICAP_WORDS or handicap_named(_ahead(word, words)):
            handicap = _handicap(found, word, words)
        elif low in HANDICAP_TAKING:
            found.put("taking", word)
            taking = HANDICAP_TAKING[low]
        elif low in NO_TIME_WORDS:
            found.put("time", word)
            time_per_move = None
        else:
            typed, main_time, time_per_move = _time_control(ctx, word, words, usage)
            found.put("time", typed)
    vs_bot = ctx.request.to_bot
    if vs_bot and opponent is not None:
        raise UserError(
            "challenge.twice",
            word="@" + opponent.name,
            other=ctx.t("bot.mention"),
            what=ctx.t("challenge.what.opponent"),
        )
    if "opponent" in found.words:
        typed = found.words["opponent"]
        if opponent is not None or (vs_bot and not bot_word):
            raise UserError(
                "challenge.twice",
                word="@" + opponent.name if opponent else typed,
                other=typed if opponent else ctx.t("bot.mention"),
                what=ctx.t("challenge.what.opponent"),
            )
        vs_bot = vs_bot or bot_word
        opponent = named
    if handicap is None and "taking" in found.words:
        raise UserError("handicap.side_alone", word=found.words["taking"])
    terms = ChallengeTerms(
        opponent,
        variant,
        color,
        time_per_move,
        by_name=named is not None and not vs_bot,
        vs_bot=vs_bot,
        level=level,
        rated=rated,
        handicap=handicap,
        taking=taking,
        main_time=main_time,
    )
    return check_handicap(ctx, terms, found.words) if handicap else terms


def _handicap(found: _Found, word: str, words: _Words) -> str:
    """The handicap named at ``word`` (the word ``handicap`` and a name, or a name alone); the
    words of the name are taken off ``words``."""
    if word.lower() in HANDICAP_WORDS:
        named = handicap_named(words.ahead(handicap_longest()))
        if named is None:
            raise UserError(
                "handicap.unknown",
                word=shown(" ".join([word, *words.ahead(1)])),
                names=_names(found.ctx.lang),
            )
        typed = f"{word} {named[1]}"
    else:
        named = handicap_named(_ahead(word, words))
        assert named is not None
        typed = named[1]
    words.skip(len(typed.split()) - 1)
    found.put("handicap", typed)
    return named[0]


def _ahead(word: str, words: _Words) -> list[str]:
    """``word`` and as many words after it as a handicap's name may have."""
    return [word, *words.ahead(handicap_longest() - 1)]


def _names(lang: str) -> str:
    """The handicaps as a player of ``lang`` types them (English: their ids)."""
    handicaps = load_variant("shogi").handicaps.values()
    if lang == "en":
        return ", ".join(h.id for h in handicaps)
    return ", ".join((h.names.get(lang) or h.id).lower() for h in handicaps)


def check_handicap(ctx: Context, terms: ChallengeTerms, said: dict[str, str]) -> ChallengeTerms:
    """``terms`` with a handicap, checked: a variant that has it, no rated game, a side that
    agrees (the giver plays gote); the side and the variant filled in."""
    variant = terms.variant or "shogi"
    assert terms.handicap is not None
    handicaps = load_variant(variant).handicaps
    if terms.handicap not in handicaps:
        raise UserError("handicap.variant", variant=present.variant_name(variant, ctx.lang))
    if terms.rated:
        raise UserError("handicap.unrated", word=said["rated"])
    color = "sente" if terms.taking else "gote"
    if terms.color not in ("random", color):
        raise UserError("handicap.color", word=said["color"], color=ctx.t(f"color.{color}"))
    return replace(terms, variant=variant, color=color, rated=False)


def _duration(word: str) -> int | None:
    """The seconds ``word`` says (``3d``, ``30s``), or None."""
    if not word.isascii():  # digits are ASCII: ``٣d`` is no time
        return None
    try:
        return parse_duration(word.lower())
    except ValueError:
        return None


def _time_control(
    ctx: Context, word: str, words: _Words, usage: str
) -> tuple[str, int | None, int]:
    """What was typed, the main time (None for none) and the time per move (the byoyomi with
    main time) that ``word`` starts: ``3d``, ``10m`` a move; ``10m+30s`` or ``10m 30s`` (the
    next word a time too) main time and byoyomi.  Refused with ``usage`` when it is no time
    at all, with ``challenge.time_control_bad`` when it reads partly as main time + byoyomi."""
    main_text, plus, byoyomi_text = word.partition("+")
    if not plus:
        following = words.ahead(1)
        if _duration(word) is None or not following or _duration(following[0]) is None:
            return word, None, _time(ctx, word, usage)
        words.skip(1)
        main_text, byoyomi_text = word, following[0]
        word = f"{word} {byoyomi_text}"
    main, byoyomi = _duration(main_text), _duration(byoyomi_text)
    if main is None or byoyomi is None:
        raise UserError("challenge.time_control_bad", word=shown(word))
    (low, high), (byo_low, byo_high) = MAIN_TIME_RANGE, BYOYOMI_RANGE
    if not (low <= main <= high and byo_low <= byoyomi <= byo_high):
        raise UserError(
            "challenge.time_control_range",
            low=typed_duration(low),
            high=typed_duration(high),
            byo_low=typed_duration(byo_low),
            byo_high=typed_duration(byo_high),
            time=shown(word),
        )
    return word, main, byoyomi


def _time(ctx: Context, word: str, usage: str) -> int:
    """A time per move (``3d``, ``12h``) within the bounds; refused with ``usage`` when it is
    no time at all."""
    seconds = _duration(word)
    if seconds is None:
        raise UserError(usage, word=shown(word))
    if not MIN_TIME <= seconds <= MAX_TIME:
        raise UserError(
            "challenge.time_range",
            low=present.format_duration(MIN_TIME, ctx.lang),
            high=present.format_duration(MAX_TIME, ctx.lang),
            time=word,
        )
    return seconds
