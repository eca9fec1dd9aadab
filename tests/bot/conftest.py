"""Every bot test: no request a fake chat platform received may be one the platform refuses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.platform_specs import ViolationLog


@pytest.fixture(autouse=True)
def platform_requests_are_valid() -> Iterator[None]:
    """Fail the test when the bot sent Discord or Telegram (their fakes) a request the real
    platform refuses (too long, missing a required field...), even if the bot coped with the
    error answer.  Tests that send such requests on purpose take them with
    ``fake.take_violations()``."""
    ViolationLog.unclaimed()
    yield
    found = ViolationLog.unclaimed()
    if found:
        lines = "\n".join(f"  {v}" for v in found[:20])
        more = f"\n  ... and {len(found) - 20} more" if len(found) > 20 else ""
        pytest.fail(
            f"the bot sent {len(found)} request(s) the platform refuses:\n{lines}{more}",
            pytrace=False,
        )
