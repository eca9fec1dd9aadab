"""The games of ``bench/match.py --log`` files, read back: one JSON object a line, as
``bench.match.run_jobs`` writes it (the players' labels, the variant, then the fields of
``bench.match.GameRecord``).  Every tool that reads such logs reads them here, so they all
take and leave out the same lines.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

KOMABOT_LABEL = "Komabot"
"""How the labels of Komabot's players begin (``Komabot L8``, ``Komabot L8 (base)``)."""


@dataclass(frozen=True)
class LoggedGame:
    """One logged game, from its first player's (``a``'s) view."""

    source: str  # file name:line number
    a: str  # the players' labels
    b: str
    variant: str
    a_sente: bool
    result: float | None  # a's points: 1, 0.5, 0; None when aborted
    reason: str
    moves: tuple[str, ...]  # USI
    depths: dict[str, list[int]] = field(default_factory=dict)  # "a"/"b": each move's depth
    nodes: dict[str, list[int]] = field(default_factory=dict)

    def komabot_sente(self) -> bool | None:
        """True when Komabot had sente, False for gote, None when neither player is Komabot
        (when both are, player ``a``'s side)."""
        if self.a.startswith(KOMABOT_LABEL):
            return self.a_sente
        if self.b.startswith(KOMABOT_LABEL):
            return not self.a_sente
        return None

    def komabot_result(self) -> float | None:
        """Komabot's points (its first player's, if both are Komabot); None when aborted or
        Komabot did not play."""
        if self.result is None or self.komabot_sente() is None:
            return None
        return self.result if self.a.startswith(KOMABOT_LABEL) else 1.0 - self.result


def append_game(
    log: Path, a: str, b: str, variant: str, record: dict[str, object], **extra: object
) -> None:
    """Add one game to ``log``: the players' labels, the variant, ``record`` (the fields of a
    ``bench.match.GameRecord``, ``dataclasses.asdict``) and any ``extra`` fields."""
    entry = {"a": a, "b": b, "variant": variant, **extra, **record}
    with log.open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


def read_games(paths: Iterable[Path]) -> list[LoggedGame]:
    """The games of the logs in order.  A line that is not a game (blank, or the last line
    of a match killed while writing it) is left out, with one warning on standard error
    naming the line."""
    games = []
    for path in paths:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not text.strip():
                continue
            source = f"{path.name}:{number}"
            try:
                games.append(_game(source, json.loads(text)))
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                print(f"{source}: not a logged game, left out ({error!r})", file=sys.stderr)
    return games


def _game(source: str, record: dict[str, object]) -> LoggedGame:
    result = record["result"]
    moves = record["moves"]
    if not isinstance(moves, list):
        raise TypeError("moves is not a list")
    return LoggedGame(
        source,
        str(record["a"]),
        str(record["b"]),
        str(record["variant"]),
        bool(record["a_sente"]),
        None if result is None else float(str(result)),
        str(record.get("reason", "")),
        tuple(str(m) for m in moves),
        _per_side(record.get("depths")),
        _per_side(record.get("nodes")),
    )


def _per_side(value: object) -> dict[str, list[int]]:
    if not isinstance(value, dict):
        return {}
    return {side: [int(x) for x in value.get(side, [])] for side in ("a", "b")}
