"""What Discord refuses, for the fake: its OpenAPI description plus the limits it states in words.

:func:`check_request` takes one REST request as the fake received it (method, path, JSON body or
the ``payload_json`` of a multipart body) and returns every :class:`Violation`:

- the body against the operation's request schema in ``discord-openapi.json`` (JSON Schema
  2020-12: ``maxLength``, ``maxItems``, ``required``, enums, types; ``$ref``s resolved with
  ``referencing`` inside the one document), and a missing body where one is required;
- the limits Discord's documentation states in words and the schema does not: a bot's message
  content at most 2,000 characters (the schema allows 4,000, which only Nitro users get), the
  embeds of a message at most 6,000 characters together, at most 5 action rows of components;
  an application command's and its options' names 1-32 characters of letters, digits, ``-`` and
  ``_`` in lower case, required options before optional ones, option names unique at each level,
  and the names, descriptions and choice values of a chat-input command (the longest
  localization of each) at most 8,000 characters together; a new message not empty; a button
  with a ``custom_id`` (a link button a ``url``) and a label or an emoji, each ``custom_id``
  once per message; ``allowed_mentions`` not both parsing and listing users or roles.

:func:`error_body` turns violations into Discord's answer: 400, code 50035 "Invalid Form Body"
with the nested ``errors`` object (50006 for an empty message).  :func:`identify_problems`
checks a gateway IDENTIFY.  One relaxation: a snowflake may be a JSON number, as Discord reads
it (discord.py sends some so) though the description only allows a string of digits.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.bot.platform_specs import Violation, load_spec, schema_problems

SPEC_FILE = "discord-openapi.json"
SPEC_URI = "urn:komabot-tests:discord-openapi"

BOT_CONTENT_MAX = 2000  # "Message content (up to 2000 characters)"
EMBEDS_TOTAL_MAX = 6000  # title, description, field names and values, footer, author together
ACTION_ROWS_MAX = 5
LINK_STYLE, PREMIUM_STYLE = 5, 6
EMPTY = "Cannot send an empty message"  # code 50006, not 50035
COMMAND_TOTAL_MAX = 8000  # chat-input command: names, descriptions, choices (longest locale)
CHAT_INPUT = 1
SUBCOMMAND_KINDS = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP

JSON = dict[str, Any]
SNOWFLAKE_NUMBER: JSON = {"type": "integer", "minimum": 0, "maximum": (1 << 64) - 1}


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def _registry() -> Registry[Any]:
    spec = load_spec(SPEC_FILE)
    schemas = dict(spec["components"]["schemas"])
    # Discord reads a snowflake given as a JSON number too (discord.py sends allowed mentions'
    # user ids and new attachments' ids so); the description only says "a string of digits".
    schemas["SnowflakeType"] = {
        "oneOf": [spec["components"]["schemas"]["SnowflakeType"], SNOWFLAKE_NUMBER]
    }
    document = {**spec, "components": {**spec["components"], "schemas": schemas}}
    return Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(document))


@functools.cache
def _operations() -> list[tuple[re.Pattern[str], str, str]]:
    """(path regex, method, path template), templates with fewer parameters first."""
    found = []
    for template, item in load_spec(SPEC_FILE)["paths"].items():
        regex = re.compile(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)))
        for method in item:
            if method in ("get", "put", "post", "patch", "delete"):
                found.append((regex, method.upper(), template))
    found.sort(key=lambda op: op[2].count("{"))
    return found


def operation_of(method: str, path: str) -> str | None:
    """The OpenAPI path template ``method path`` belongs to, None if Discord has no such one."""
    for regex, op_method, template in _operations():
        if op_method == method and regex.fullmatch(path):
            return template
    return None


@functools.cache
def _body_validator(method: str, template: str) -> tuple[Draft202012Validator | None, bool]:
    """The validator of the operation's JSON body (None: it takes none) and whether one is
    required."""
    operation = load_spec(SPEC_FILE)["paths"][template][method.lower()]
    body = operation.get("requestBody")
    if body is None:
        return None, False
    ref = SPEC_URI + _pointer(
        "paths", template, method.lower(), "requestBody", "content", "application/json", "schema"
    )
    validator = Draft202012Validator({"$ref": ref}, registry=_registry())
    return validator, bool(body.get("required"))


def _schema_violations(request: str, validator: Draft202012Validator, body: Any) -> list[Violation]:
    out = []
    for where, what in schema_problems(validator, body):
        out.append(Violation("discord", request, where, what))
    return out


# ---------------------------------------------------------------------- limits stated in words


def _message_bodies(method: str, template: str, body: Any) -> Iterator[JSON]:
    """The message a request creates or edits (a callback's ``data``), if it is one."""
    if not isinstance(body, dict):
        return
    if template.endswith("/callback"):
        if body.get("type") in (4, 7) and isinstance(body.get("data"), dict):
            yield body["data"]
    elif template in (
        "/channels/{channel_id}/messages",
        "/channels/{channel_id}/messages/{message_id}",
        "/webhooks/{webhook_id}/{webhook_token}",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    ) and method in ("POST", "PATCH"):
        yield body


def _embed_chars(embed: Any) -> int:
    if not isinstance(embed, dict):
        return 0
    total = len(str(embed.get("title") or "")) + len(str(embed.get("description") or ""))
    for f in embed.get("fields") or []:
        if isinstance(f, dict):
            total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
    for key, sub in (("footer", "text"), ("author", "name")):
        if isinstance(embed.get(key), dict):
            total += len(str(embed[key].get(sub) or ""))
    return total


def _message_limits(request: str, message: JSON, prefix: str) -> Iterator[Violation]:
    content = message.get("content")
    if isinstance(content, str) and len(content) > BOT_CONTENT_MAX:
        yield Violation(
            "discord",
            request,
            prefix + "content",
            f"Must be {BOT_CONTENT_MAX} or fewer in length (a bot's message; it has "
            f"{len(content)})",
        )
    embeds = message.get("embeds")
    if isinstance(embeds, list):
        total = sum(_embed_chars(e) for e in embeds)
        if total > EMBEDS_TOTAL_MAX:
            yield Violation(
                "discord",
                request,
                prefix + "embeds",
                f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX} (it has {total})",
            )
    components = message.get("components")
    if isinstance(components, list):
        rows = [c for c in components if isinstance(c, dict) and c.get("type") == 1]
        if len(rows) > ACTION_ROWS_MAX:
            yield Violation(
                "discord",
                request,
                prefix + "components",
                f"Must be {ACTION_ROWS_MAX} or fewer action rows (it has {len(rows)})",
            )
        seen: set[str] = set()
        for r, row in enumerate(rows):
            for c, item in enumerate(row.get("components") or []):
                if isinstance(item, dict) and item.get("type") == 2:
                    at = f"{prefix}components.{r}.components.{c}"
                    yield from (Violation("discord", request, at, p) for p in _button(item))
                    custom_id = item.get("custom_id")
                    if custom_id and custom_id in seen:
                        yield Violation(
                            "discord",
                            request,
                            f"{at}.custom_id",
                            f"COMPONENT_CUSTOM_ID_DUPLICATED: {custom_id!r} twice in one message",
                        )
                    seen.add(custom_id)
    mentions = message.get("allowed_mentions")
    if isinstance(mentions, dict):
        for kind in ("users", "roles"):
            if kind in (mentions.get("parse") or []) and mentions.get(kind):
                yield Violation(
                    "discord",
                    request,
                    f"{prefix}allowed_mentions",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive',
                )


def _button(button: JSON) -> Iterator[str]:
    """What Discord's component reference says a button needs, by its style."""
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url") or button.get("custom_id"):
            yield "A link button needs a url and no custom_id"
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            yield "A premium button needs a sku_id"
    elif not button.get("custom_id") or button.get("url"):
        yield "A non-link button needs a custom_id and no url"
    if style != PREMIUM_STYLE and not (button.get("label") or button.get("emoji")):
        yield "A button needs a label or an emoji"


def _is_empty(message: JSON, files: int) -> bool:
    return not (
        message.get("content")
        or message.get("embeds")
        or message.get("components")
        or message.get("sticker_ids")
        or message.get("poll")
        or files
    )


def valid_command_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in lower case where a
    letter has a lower case."""
    if not 1 <= len(name) <= 32:
        return False
    for ch in name:
        allowed = (
            ch in "-_"
            or unicodedata.category(ch)[0] in "LN"
            or "\u0900" <= ch <= "\u097f"  # Devanagari
            or "\u0e00" <= ch <= "\u0e7f"  # Thai
        )
        if not allowed or ch.lower() != ch:
            return False
    return True


def _longest(item: JSON, key: str) -> int:
    values = [item.get(key) or ""]
    localized = item.get(f"{key}_localizations")
    if isinstance(localized, dict):
        values += list(localized.values())
    return max(len(str(v)) for v in values)


def _command_chars(item: JSON) -> int:
    total = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        if isinstance(choice, dict):
            total += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in item.get("options") or []:
        if isinstance(option, dict):
            total += _command_chars(option)
    return total


def _names_and_order(request: str, item: JSON, where: str) -> Iterator[Violation]:
    names = [item.get("name", ""), *(item.get("name_localizations") or {}).values()]
    for name in names:
        if isinstance(name, str) and not valid_command_name(name):
            yield Violation(
                "discord",
                request,
                where + "name",
                f"Command name is invalid: {name!r} (1-32 lower-case letters, digits, - or _)",
            )
    options = [o for o in item.get("options") or [] if isinstance(o, dict)]
    seen: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        at = f"{where}options.{index}."
        if option.get("name") in seen:
            yield Violation(
                "discord", request, at + "name", f"Duplicate option name {option.get('name')!r}"
            )
        seen.add(str(option.get("name")))
        if option.get("type") not in SUBCOMMAND_KINDS:
            if option.get("required"):
                if optional_seen:
                    yield Violation(
                        "discord",
                        request,
                        at + "required",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
        yield from _names_and_order(request, option, at)


def _command_limits(request: str, commands: Any) -> Iterator[Violation]:
    if not isinstance(commands, list):
        return
    for index, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        yield from _names_and_order(request, command, f"{index}.")
        if command.get("type", CHAT_INPUT) == CHAT_INPUT:
            total = _command_chars(command)
            if total > COMMAND_TOTAL_MAX:
                yield Violation(
                    "discord",
                    request,
                    f"{index}",
                    f"Command exceeds maximum size ({COMMAND_TOTAL_MAX}): it has {total} "
                    "characters in names, descriptions and choices",
                )


def _word_limits(method: str, template: str, body: Any, files: int) -> Iterator[Violation]:
    request = f"{method} {template}"
    prefix = "data." if template.endswith("/callback") else ""
    creates = method == "POST" and not (isinstance(body, dict) and body.get("type") == 7)
    for message in _message_bodies(method, template, body):
        yield from _message_limits(request, message, prefix)
        if creates and _is_empty(message, files):
            yield Violation("discord", request, prefix.rstrip("."), EMPTY)
    if method == "PUT" and template.endswith("/commands"):
        yield from _command_limits(request, body)


# ---------------------------------------------------------------------- the gateway


def identify_problems(payload: Any) -> list[Violation]:
    """What Discord's gateway reference requires of an IDENTIFY's ``d`` and ``payload`` lacks:
    a token, connection ``properties`` (os, browser, device), ``intents``, a ``shard`` pair and
    ``large_threshold`` 50-250 when given (the gateway closes with 4002 otherwise)."""
    found: list[str] = []
    if not isinstance(payload, dict):
        return [Violation("discord", "IDENTIFY", "", "the payload is not an object")]
    if not isinstance(payload.get("token"), str) or not payload["token"]:
        found.append("token: This field is required")
    props = payload.get("properties")
    if not isinstance(props, dict) or not all(
        isinstance(props.get(k), str) for k in ("os", "browser", "device")
    ):
        found.append("properties: needs os, browser and device strings")
    if not isinstance(payload.get("intents"), int) or isinstance(payload.get("intents"), bool):
        found.append("intents: This field is required (an integer)")
    shard = payload.get("shard")
    if shard is not None and not (
        isinstance(shard, list) and len(shard) == 2 and all(isinstance(x, int) for x in shard)
    ):
        found.append(f"shard: must be [shard_id, num_shards], not {shard!r}")
    threshold = payload.get("large_threshold")
    if threshold is not None and not (isinstance(threshold, int) and 50 <= threshold <= 250):
        found.append(f"large_threshold: must be 50-250, not {threshold!r}")
    return [Violation("discord", "IDENTIFY", *p.split(": ", 1)) for p in found]


# ---------------------------------------------------------------------- the checks


def check_request(
    method: str, path: str, body: Any, has_body: bool, files: int = 0
) -> list[Violation]:
    """Every reason Discord would refuse ``method path`` with ``body`` (the JSON, or a
    multipart's ``payload_json``; ``has_body`` False when the request carried none) and
    ``files`` uploads.  (Answers are remembered: the bot sends the same command list at every
    start, and validating it takes a good part of a second.)"""
    template = operation_of(method, path)
    if template is None:
        return [Violation("discord", f"{method} {path}", "", "no such route in Discord's API")]
    text = json.dumps(body, sort_keys=True) if has_body else None
    return list(_check(method, template, text, files))


@functools.lru_cache(maxsize=1024)
def _check(method: str, template: str, text: str | None, files: int) -> tuple[Violation, ...]:
    request = f"{method} {template}"
    validator, required = _body_validator(method, template)
    if validator is None:
        return ()
    if text is None:
        return (Violation("discord", request, "", "the request needs a body"),) if required else ()
    body = json.loads(text)
    found = _schema_violations(request, validator, body)
    found += _word_limits(method, template, body, files)
    return tuple(found)


def warm_up() -> None:
    """Read the description and prepare the validators of the usual requests (a good part of a
    second, once per process) before a test's first request waits for them."""
    check_request("POST", "/channels/1/messages", {"content": "warm"}, True)
    check_request("POST", "/interactions/1/t/callback", {"type": 4, "data": {"content": "w"}}, True)


def error_body(violations: list[Violation]) -> JSON:
    """Discord's answer to an invalid request: code 50035 with the nested ``errors`` object
    (``{"content": {"_errors": [{"code": ..., "message": ...}]}}``)."""
    if all(v.problem == EMPTY for v in violations):
        return {"code": 50006, "message": EMPTY}
    errors: JSON = {}
    for v in violations:
        node = errors
        for part in filter(None, v.where.split(".")):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": v.problem})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}
