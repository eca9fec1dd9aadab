"""The message catalogue: every key the code uses exists, and every template formats."""

from __future__ import annotations

import re
import string
from pathlib import Path

from bot.core.commands import COMMANDS
from bot.core.messages import CATALOGUE, EN, text
from bot.core.messages_ru import RU

BOT = Path(__file__).resolve().parents[3] / "bot"
CORE = BOT / "core"
# t("key", ...), text("key", ...), UserError("key", ...)
USE = re.compile(r"""(?:\bt|\btext|UserError)\(\s*(?:f?)["']([a-z_]+(?:\.[a-z_{}.]+)+)["']""")


def used_keys() -> set[str]:
    keys = set()
    for path in CORE.glob("*.py"):
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
    prefixes = [k.split("{")[0] for k in used_keys() if "{" in k]
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
