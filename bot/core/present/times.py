"""Times as a chat reads them: how long (``2d 3h``), when (``Wed, Nov 25 14:03 UTC``, or
Discord's timestamp markup), deadlines and times per move."""

from __future__ import annotations

import datetime as dt
import math
from functools import lru_cache

from babel.dates import format_datetime, format_skeleton

from bot.config import format_duration as typed_duration
from bot.core.messages import locale, plural, text


def _units(seconds: int) -> list[tuple[str, int]]:
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    return [("d", d), ("h", h), ("m", rest // 60)]


def _units_to_second(seconds: int) -> list[tuple[str, int]]:
    return [*_units(seconds), ("s", seconds % 60)]


def _rounded(seconds: float) -> int:
    """``seconds`` to the nearest unit below the largest shown: a fresh 3-day deadline (2d 23h
    59m 58s) is 3d, not 2d 23h; 1m 59s is 2m; 5h 20m 40s is 5h 21m."""
    step = 3600 if seconds >= 86400 else 60
    return round(seconds / step) * step


def format_delta(seconds: float, lang: str = "en") -> str:
    """``2d 3h``, ``5h 20m``, ``12m`` (``2 дня 3 часа`` in Russian: the plural forms come from
    Babel's rules), rounded to the nearest smallest unit shown; under half a minute says so."""
    s = _rounded(max(0.0, seconds))
    if s < 60:
        return text("unit.less_than_minute", lang)
    shown = [plural(f"unit.{u}", lang, n) for u, n in _units(s) if n][:2]
    return " ".join(shown)


def format_seconds(seconds: float, lang: str = "en") -> str:
    """How long to the second, for live clocks: ``30s``, ``4m 30s``, ``1h 5m`` (the two
    largest units; ``30 секунд`` in Russian)."""
    s = round(max(0.0, seconds))
    shown = [plural(f"unit.{u}", lang, n) for u, n in _units_to_second(s) if n][:2]
    return " ".join(shown) or plural("unit.s", lang, 0)


def format_clock(seconds: float) -> str:
    """Time left as a clock face shows it: ``9:30``, ``0:05``, ``1:02:03`` (whole seconds,
    rounded up: a clock shows 0:00 only when the time is out)."""
    s = math.ceil(max(0.0, seconds) - 1e-6)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02}:{sec:02}" if h else f"{m}:{sec:02}"


# Platforms that write a time in each reader's own language and time zone from a timestamp
# (Discord's <t:UNIX:style> markup: f a date and time, R how long from now).
TIMESTAMP_PLATFORMS = frozenset({"discord"})


def format_when(ts: float, lang: str = "en", platform: str = "", *, precise: bool = False) -> str:
    """An absolute time: on Discord its timestamp markup (each reader sees their own time
    zone and language), elsewhere UTC with the weekday and month as ``lang`` writes them (CLDR
    data): ``Wed, Nov 25 14:03 UTC``, ``ср, 25 нояб. 14:03 UTC``; ``precise``: with the
    seconds (``14:03:30``; Discord's long form ``<t:UNIX:T>`` then)."""
    if platform in TIMESTAMP_PLATFORMS:
        return f"<t:{int(ts)}:{'T' if precise else 'f'}>"
    # what is shown changes once a minute (a second, ``precise``): one CLDR formatting for all
    # the replies of that minute (most deadlines of a minute's moves fall in one minute)
    step = 1 if precise else 60
    return _utc_text(math.floor(ts) // step * step, lang, precise)


@lru_cache(maxsize=1024)
def _utc_text(whole: int, lang: str, precise: bool) -> str:
    """``format_when`` in UTC of the whole second ``whole`` (seconds dropped unless
    ``precise``)."""
    when = dt.datetime.fromtimestamp(whole, dt.UTC)
    day = format_skeleton("MMMEd", when, locale=locale(lang))
    clock = format_datetime(
        when, "HH:mm:ss" if precise else "HH:mm", tzinfo=dt.UTC, locale=locale(lang)
    )
    return f"{day} {clock} UTC"


def format_deadline(
    deadline: float, now: float, lang: str = "en", platform: str = "", *, precise: bool = False
) -> str:
    """``deadline Wed, Nov 25 14:03 UTC (in 2d 5h)``; on Discord both parts are timestamp
    markup (``<t:UNIX:f>``, ``<t:UNIX:R>``), which the client writes out and keeps current.
    ``precise`` (a live game): to the second, ``14:03:30 UTC (in 4m 30s)``."""
    if platform in TIMESTAMP_PLATFORMS:
        relative = f"<t:{int(deadline)}:R>"
    else:
        delta = format_seconds if precise else format_delta
        relative = text("time.in", lang, delta=delta(deadline - now, lang))
    when = format_when(deadline, lang, platform, precise=precise)
    return text("time.deadline", lang, when=when, relative=relative)


def format_duration(seconds: int, lang: str = "en") -> str:
    """A time per move or a limit: English keeps the form commands take (``3d``, ``90m``,
    ``30s``); other languages write it out with their plural forms (``3 дня``)."""
    if lang == "en":
        return typed_duration(seconds)
    return " ".join(plural(f"unit.{u}", lang, n) for u, n in _units_to_second(seconds) if n)


def format_time_control(seconds: int | None, lang: str = "en", main_time: int | None = None) -> str:
    """``3d per move``, or with ``main_time`` (``seconds`` then the byoyomi) ``10m main time
    + 30s byoyomi``; ``no time limit``."""
    if not seconds:
        return text("time.none", lang)
    if main_time:
        return text(
            "time.main_byoyomi",
            lang,
            main=format_duration(main_time, lang),
            byoyomi=format_duration(seconds, lang),
        )
    return text("time.per_move", lang, time=format_duration(seconds, lang))
