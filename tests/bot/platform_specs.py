"""The chat platforms' own descriptions of their APIs, and what the fakes found against them.

``../shared/platform-specs/`` (beside the checkout) holds Discord's OpenAPI description and the
Telegram Bot API's methods and types.  The fake servers check every request they receive
against them; a request the real platform would refuse gets the platform's error answer and is
also kept here as a :class:`Violation`, so that the test fails at teardown (the autouse fixture
in ``tests/bot/conftest.py``) even when the bot shrugs the error off.  A test that sends a bad
request on purpose takes its violations with ``fake.take_violations()``.

The specs are not in the repository: CI always has ``../shared`` beside the checkout, and a
checkout without them fails every test that starts a fake, with a message saying where they go
(a fake that silently checks nothing would let through what the platforms refuse).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPECS = Path(__file__).resolve().parents[3] / "shared" / "platform-specs"


class SpecsMissing(RuntimeError):
    """The platform descriptions are not beside the checkout."""


@functools.cache
def load_spec(name: str) -> Any:
    """The parsed JSON of ``platform-specs/<name>``, read once per process."""
    path = SPECS / name
    if not path.is_file():
        raise SpecsMissing(
            f"{path} is missing: the Discord and Telegram fakes check every request against "
            "the platforms' own API descriptions in ../shared/platform-specs/ (beside the "
            "checkout, as in CI); put the shared folder there to run these tests"
        )
    return json.loads(path.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Violation:
    """A request the real platform would refuse: where in the body, and why."""

    platform: str
    request: str  # "POST /channels/1/messages", "sendPhoto"
    where: str  # "content", "embeds.0.title", "reply_markup.inline_keyboard.0.0.callback_data"
    problem: str

    def __str__(self) -> str:
        place = f" at {self.where}" if self.where else ""
        return f"{self.platform} {self.request}{place}: {self.problem}"


class ViolationLog:
    """The violations one fake server saw; every log made in a test is checked at teardown."""

    live: list[ViolationLog] = []  # noqa: RUF012 (the logs of the test running now)

    def __init__(self) -> None:
        self.found: list[Violation] = []
        ViolationLog.live.append(self)

    def add(self, violations: list[Violation]) -> None:
        self.found.extend(violations)

    def take(self) -> list[Violation]:
        """The violations so far, forgotten (for tests that send bad requests on purpose)."""
        taken, self.found = self.found, []
        return taken

    @classmethod
    def unclaimed(cls) -> list[Violation]:
        """Every violation no test took, from every log made since the last call; forgets them."""
        logs, cls.live = cls.live, []
        return [v for log in logs for v in log.found]
