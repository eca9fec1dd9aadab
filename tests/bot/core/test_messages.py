"""The message catalogue: every key the code uses exists, and every template formats."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot.core.commands import COMMANDS
from bot.core.messages import CATALOGUE, EN, LANGUAGES, text
from bot.core.messages_ru import RU

BOT = Path(__file__).resolve().parents[3] / "bot"
CORE = BOT / "core"
# t("key", ...), text("key", ...), UserError("key", ...)
USE = re.compile(r"""(?:\bt|\btext|UserError)\(\s*(?:f?)["']([a-z_]+(?:\.[a-z_{}.]+)+)["']""")


def used_keys() -> set[str]:
    keys = set()
    for path in CORE.rglob("*.py"):
        keys |= set(USE.findall(path.read_text(encoding="utf-8")))
    return keys


def test_every_key_used_in_the_code_exists() -> None:
    keys = used_keys()
    assert len(keys) > 100
    for key in keys:
        if "{" in key:  # f-string keys: every expansion the code can make
            prefix = key.split("{")[0]
            assert any(k.startswith(prefix) for k in EN), key
        else:
            assert key in EN, key


def test_every_message_is_used() -> None:
    source = "".join(  # the service and the front ends
        p.read_text(encoding="utf-8")
        for p in BOT.rglob("*.py")
        if not p.name.startswith("messages")
    )
    # rules.<code>[.<reason>]: present.rules_key names them from the error (see the test below)
    # choice.<argument>.<value>: the Discord front end names an option's choices by them;
    # syntax.<placeholder>: Command.syntax_in
    # slash.command.<command>, slash.option.<argument>: Discord's localized names (see below)
    prefixes = [k.split("{")[0] for k in used_keys() if "{" in k]
    prefixes += ["rules.", "choice.", "syntax.", "slash."]
    unused = [
        k for k in EN if f'"{k}"' not in source and not any(k.startswith(p) for p in prefixes)
    ]
    assert unused == []


def test_dynamic_keys_cover_their_values() -> None:
    from rules import Termination

    for term in Termination:
        assert f"result.{term.value}" in EN
    for c in COMMANDS:
        assert c.summary() and f"cmd.{c.name}" in EN
    for status in ("accepted", "declined", "cancelled", "expired", "open"):
        assert f"challenge.status.{status}" in EN
    from bot.discord_front.commands import build_group

    slash = build_group(None, None)  # type: ignore[arg-type]  # only its names are read
    names = {f"slash.command.{c.name}" for c in slash.commands}
    for c in slash.commands:
        assert EN[f"slash.command.{c.name}"] == c.name  # English: the canonical name
        for p in c.parameters:  # type: ignore[union-attr]
            assert EN[f"slash.option.{p.name}"] == p.name
            names.add(f"slash.option.{p.name}")
    assert {k for k in EN if k.startswith("slash.")} == names  # and no name for nothing


def test_templates_format_and_languages_share_keys() -> None:
    for key, template in EN.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
        text(key, "en", **{f.split("!")[0]: "x" for f in fields})
    for lang, table in CATALOGUE.items():
        assert set(table) <= set(EN), lang
    assert text("games.here", "xx") == EN["games.here"]  # unknown language: English


def placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_russian_is_complete_with_the_same_placeholders() -> None:
    assert set(RU) == set(EN)
    for key, template in EN.items():
        assert placeholders(RU[key]) == placeholders(template), key
        assert RU[key].strip(), key
    assert CATALOGUE["ru"] is RU
    assert text("games.here", "ru") == "этот чат"


def test_every_language_has_every_plural_form_its_rules_need() -> None:
    from bot.core.messages import EN_PLURAL, PLURAL_CATALOGUE, plural_categories

    assert set(PLURAL_CATALOGUE) == set(CATALOGUE)
    for lang, table in PLURAL_CATALOGUE.items():
        assert set(table) == set(EN_PLURAL), lang
        needed = plural_categories(lang)
        for key, forms in table.items():
            assert set(forms) == needed, (lang, key)  # every form the language needs, no more
            for form in forms.values():
                assert placeholders(form) == placeholders(EN_PLURAL[key]["other"]), (lang, key)
    assert not set(EN_PLURAL) & set(EN)  # a key is counted or plain, not both


@pytest.mark.parametrize(
    ("n", "days", "hours"),
    [
        (1, "1 день", "1 час"),
        (2, "2 дня", "2 часа"),
        (5, "5 дней", "5 часов"),
        (11, "11 дней", "11 часов"),
        (21, "21 день", "21 час"),
        (22, "22 дня", "22 часа"),
    ],
)
def test_russian_plural_forms_follow_babel(n: int, days: str, hours: str) -> None:
    from bot.core.messages import plural

    assert plural("unit.d", "ru", n) == days
    assert plural("unit.h", "ru", n) == hours


def test_deadlines_and_durations_in_russian() -> None:
    from bot.core import present

    wednesday = 1795609500.0  # Wed 25 Nov 2026 12:25 UTC
    now = wednesday - (2 * 86400 + 23 * 3600)
    assert present.format_deadline(wednesday, now, "ru") == (
        "срок ср, 25 нояб. 12:25 UTC (через 2 дня 23 часа)"
    )
    assert present.format_deadline(wednesday, now, "en") == (
        "deadline Wed, Nov 25 12:25 UTC (in 2d 23h)"
    )
    assert present.format_delta(5 * 86400 + 5 * 3600, "ru") == "5 дней 5 часов"
    assert present.format_delta(21 * 60, "ru") == "21 минуту"
    assert present.format_time_control(3 * 86400, "ru") == "3 дня на ход"
    assert present.format_time_control(3 * 86400, "en") == "3d per move"


def test_discord_deadlines_are_timestamps_its_clients_write_out() -> None:
    from bot.core import present

    deadline = 1795609500.0
    for lang in LANGUAGES:
        said = present.format_deadline(deadline, deadline - 3600, lang, "discord")
        assert "<t:1795609500:f>" in said and "<t:1795609500:R>" in said, said
        assert "UTC" not in said
    assert present.format_deadline(deadline, deadline - 3600, "ru", "discord") == (
        "срок <t:1795609500:f> (<t:1795609500:R>)"
    )
    assert present.format_when(deadline, "ja", "telegram") == "11月25日(水) 12:25 UTC"


RULES = BOT.parent / "rules"
# errors of files, records and SFEN the players never see as a chat reply
INTERNAL_CODES = {
    "bad_betza",
    "bad_sfen",
    "bad_variant_file",
    "unknown_variant",
    "nothing_to_undo",
    "invalid_impasse",
    "bad_number",
    "ambiguous_move",
    "promotion_choice",
    "ambiguous_piece",
    "rules_error",
    # records: imported by the command line only; /export checks the format first
    "bad_record",
    "bad_record_board",
    "bad_record_encoding",
    "bad_record_move",
    "empty_record",
    "format_not_for_variant",
    "record_too_large",
    "unknown_format",
}


def test_every_rules_error_a_player_can_meet_has_a_message() -> None:
    """Each code and reason the rules core raises (``code="..."``, ``reason="..."``, an
    explanation's code) has its catalogue entry, and each entry names a real one."""
    source = "".join(p.read_text(encoding="utf-8") for p in RULES.rglob("*.py"))
    raised = set(re.findall(r'code(?:: str)? ?= ?"([a-z_]+)"', source))
    raised |= set(re.findall(r'_error\(\s*(?:f?"[^"]*"\s*)+,\s*"([a-z_]+)"', source))
    reasons = set(
        re.findall(r'reason=(?:"([a-z_]+)"|"[a-z_]+" if [^\n]* else "([a-z_]+)")', source)
    )
    rules_keys = {k for k in EN if k.startswith("rules.")}
    codes = {k.split(".")[1] for k in rules_keys}
    missing = raised - INTERNAL_CODES - codes
    assert missing == set(), missing
    for key in rules_keys - {"rules.examples", "rules.examples.drop"}:
        parts = key.split(".")
        assert parts[1] in raised, key
        if len(parts) == 3:
            assert f'"{parts[2]}"' in source, key
    assert reasons


def test_every_choice_name_is_a_choice_of_a_command() -> None:
    offered = {(a.name, c) for command in COMMANDS for a in command.arguments for c in a.choices}
    named = {tuple(k.split(".", 2)[1:]) for k in EN if k.startswith("choice.")}
    assert named <= offered, named - offered
    for command in COMMANDS:
        for argument in command.arguments:
            assert argument.key in EN, argument.key
