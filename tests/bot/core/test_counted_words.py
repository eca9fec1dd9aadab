"""Counts and times as a reader expects them: agreement with the number, deadlines rounded."""

from __future__ import annotations

import pytest

from bot.core import present
from bot.core.messages import LANGUAGES
from rules.outcome import ImpasseCondition, ImpasseReport
from tests.bot.core.harness import ALICE, Harness


def _report(pieces: int) -> ImpasseReport:
    return ImpasseReport(20, 28, pieces, 10, (ImpasseCondition.PIECES_IN_ZONE,))


def test_impasse_pieces_agree_with_their_number() -> None:
    assert present.impasse_problems(_report(1)) == (
        "only 1 of your other pieces is in the zone (at least 10 needed)"
    )
    assert present.impasse_problems(_report(3)) == (
        "only 3 of your other pieces are in the zone (at least 10 needed)"
    )
    for lang in LANGUAGES:
        said = present.impasse_problems(_report(1), lang)
        assert "1" in said and "10" in said, (lang, said)


async def test_the_last_page_agrees_with_its_number(h: Harness) -> None:
    await h.start_game(ALICE)
    await h.say(ALICE, "abort")
    reply = await h.say(ALICE, "history", "2")
    assert reply.text == "There is no page 2: there is only 1.", reply.text
    await h.say(ALICE, "settings", "language", "ru")
    assert "Страницы 2 нет" in (await h.say(ALICE, "history", "2")).text


@pytest.mark.parametrize(
    ("seconds", "en", "ru", "ja", "pl"),
    [
        (3 * 86400 - 2, "3d", "3 дня", "3日", "3 dni"),
        (2 * 60 - 1, "2m", "2 минуты", "2分", "2 minuty"),
        (5 * 3600 + 20 * 60 + 40, "5h 21m", "5 часов 21 минуту", "5時間 21分", "5 godzin 21 minut"),
        (2 * 86400 + 83400, "2d 23h", "2 дня 23 часа", "2日 23時間", "2 dni 23 godziny"),
        (86400 - 10, "1d", "1 день", "1日", "1 dzień"),
        (20, "less than a minute", None, None, None),
    ],
)
def test_time_left_rounds_to_the_nearest_unit_shown(
    seconds: int, en: str, ru: str | None, ja: str | None, pl: str | None
) -> None:
    for lang, expected in (("en", en), ("ru", ru), ("ja", ja), ("pl", pl)):
        if expected is not None:
            assert present.format_delta(seconds, lang) == expected, lang
    now = 1795609500.0
    assert present.format_deadline(now + seconds, now).endswith(f"(in {en})")
