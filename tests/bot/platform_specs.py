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

from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

SPECS = Path(__file__).resolve().parents[3] / "shared" / "platform-specs"


class SpecsMissing(RuntimeError):
    """The platform descriptions are not beside the checkout."""


def load_spec(name: str) -> Any:
    """The parsed JSON of ``platform-specs/<name>``, read once per process; SpecsMissing,
    saying where the file belongs, when it is not there."""
    return _read(SPECS / name)


@functools.cache
def _read(path: Path) -> Any:
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


def schema_problems(validator: Validator, instance: Any) -> list[tuple[str, str]]:
    """(where, what) for everything wrong with ``instance``: ``where`` a dotted path into it
    (a missing field's own name), ``what`` short, as the platforms word it."""
    found = []
    for error in validator.iter_errors(instance):
        for leaf in _leaves(error):
            where = [str(p) for p in leaf.absolute_path]
            if leaf.validator == "required" and isinstance(leaf.instance, dict):
                for name in leaf.validator_value:
                    if name not in leaf.instance:
                        found.append((".".join([*where, name]), "This field is required"))
            else:
                found.append((".".join(where), _say(leaf)))
    return found


def _say(error: ValidationError) -> str:
    bound, value = error.validator_value, error.instance
    size = len(value) if isinstance(value, str | list | dict) else None
    said = {
        "maxLength": f"Must be {bound} or fewer in length (has {size})",
        "minLength": f"Must be {bound} or more in length (has {size})",
        "maxItems": f"Must be {bound} or fewer in length (has {size} items)",
        "minItems": f"Must be {bound} or more in length (has {size} items)",
        "maxProperties": f"Must have {bound} or fewer entries (has {size})",
    }.get(str(error.validator))
    if said is not None:
        return said
    return error.message if len(error.message) <= 200 else error.message[:197] + "..."


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors that say what is wrong: inside an anyOf/oneOf, those of the branch the body
    meant (the one that failed deepest in the body, so not on its ``type``)."""
    if not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).extend(_leaves(sub))
    return max(
        branches.values(),
        key=lambda errs: (
            not any(_on_discriminator(e) for e in errs),
            min(len(e.absolute_path) for e in errs),
            any(e.validator != "type" for e in errs),  # a limit broken, not a mere other shape
            -len(errs),
        ),
    )


def _on_discriminator(error: ValidationError) -> bool:
    """Whether ``error`` is a ``type`` field with another value than its branch wants (the
    component, option or callback kind: the body meant another branch)."""
    path = error.absolute_path
    return bool(path) and path[-1] == "type" and error.validator in ("enum", "const")
