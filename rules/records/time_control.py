"""A game's main time and byoyomi as records write them: KIF ``持ち時間：10分+30秒`` (main time in
時間 and 分, then ``+`` and the byoyomi in 秒, as KIF writers put it) and CSA V2.2
``$TIME_LIMIT:00:10+30`` (main time as hours:minutes, byoyomi in seconds).

Reading is lenient: a 持ち時間 or $TIME_LIMIT line in another form (``各2時間``, a sudden-death
time without ``+``) is a free comment to the record, read as no time control, never an error.
"""

from __future__ import annotations

import re

TimeControl = tuple[int, int]
"""Main time and byoyomi, in seconds."""

_KIF = re.compile(
    r"各?(?:([0-9]+)時間)?(?:([0-9]+)分)?(?:([0-9]+)秒)?\+(?:([0-9]+)分)?(?:([0-9]+)秒)?"
)
_CSA = re.compile(r"([0-9]+):([0-9]{2})\+([0-9]+)")


def kif_time_control(control: TimeControl) -> str:
    """``10分+30秒``, ``1時間30分+60秒``."""
    main, byoyomi = control
    hours, rest = divmod(main, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [(hours, "時間"), (minutes, "分"), (seconds, "秒")]
    written = "".join(f"{n}{unit}" for n, unit in parts if n) or "0分"
    return f"{written}+{byoyomi}秒"


def read_kif_time_control(text: str) -> TimeControl | None:
    """The main time and byoyomi of a KIF ``持ち時間`` value, or None for another form."""
    m = _KIF.fullmatch("".join(text.split()).translate(_WIDE_DIGITS))
    if m is None or not any(m.groups()[:3]) or not any(m.groups()[3:]):
        return None
    h, mi, s, byo_m, byo_s = (int(g) if g else 0 for g in m.groups())
    return h * 3600 + mi * 60 + s, byo_m * 60 + byo_s


def csa_time_limit(control: TimeControl) -> str | None:
    """``00:10+30``; None when the main time is not whole minutes (CSA cannot say it)."""
    main, byoyomi = control
    if main % 60:
        return None
    hours, minutes = divmod(main // 60, 60)
    return f"{hours:02}:{minutes:02}+{byoyomi:02}"


def read_csa_time_limit(text: str) -> TimeControl | None:
    """The main time and byoyomi of a CSA ``$TIME_LIMIT`` value, or None for another form."""
    m = _CSA.fullmatch(text.strip())
    if m is None:
        return None
    hours, minutes, byoyomi = (int(g) for g in m.groups())
    return (hours * 60 + minutes) * 60, byoyomi


_WIDE_DIGITS = str.maketrans("０１２３４５６７８９＋", "0123456789+")
