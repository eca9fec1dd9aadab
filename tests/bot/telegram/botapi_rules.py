"""What Telegram refuses, for the fake: the Bot API's methods and types plus its stated limits.

``telegram-bot-api.json`` lists every method's fields (name, types, required) and every type's,
with the official descriptions.  :func:`method_schema_document` turns it into one JSON Schema
document (each type an object schema with its fields' types and required fields, a type with
subtypes any of them; ``Array of X`` an array) and takes the limits the descriptions state in
words: "1-4096 characters" becomes ``minLength``/``maxLength``, "1-64 bytes" the ``minBytes``/
``maxBytes`` keywords added to the validator here.  :func:`check_call` decodes a call's form
fields by their declared types (numbers, booleans, JSON-serialized objects, uploaded files) and
validates them with ``jsonschema``; it adds what the descriptions say in sentences: a bot
command's name of ``a-z``, ``0-9`` and ``_``, at most 100 commands per menu, an inline button
with exactly one action, a text that is not blank, a chat action of the listed kinds.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.bot.platform_specs import Violation, load_spec, schema_problems

SPEC_FILE = "telegram-bot-api.json"
SPEC_URI = "urn:komabot-tests:telegram-bot-api"

JSON = dict[str, Any]

PRIMITIVES: dict[str, JSON] = {
    "Integer": {"type": "integer"},
    "Float": {"type": "number"},
    "String": {"type": "string"},
    "Boolean": {"type": "boolean"},
    "True": {"const": True},
    "InputFile": {"type": "string"},  # inside JSON: "attach://<field>" naming an upload
}
LENGTHS = re.compile(r"(\d+)-(\d+) (characters|bytes)")
BETWEEN = re.compile(r"[Vv]alues between (\d+)-(\d+) are accepted")
COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")  # "only lowercase English letters, digits, _"
MENU_MAX = 100
BUTTON_TEXT_ONLY = frozenset({"text", "icon_custom_emoji_id", "style"})
CHAT_ACTIONS = frozenset(  # sendChatAction's action, as its description lists them
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
TRUE_WORDS = frozenset({"true", "1"})
FALSE_WORDS = frozenset({"false", "0"})


def _type_schema(name: str) -> JSON:
    if name.startswith("Array of "):
        return {"type": "array", "items": _type_schema(name.removeprefix("Array of "))}
    if name in PRIMITIVES:
        return dict(PRIMITIVES[name])
    return {"$ref": f"#/types/{name}"}


def _field_schema(field: JSON) -> JSON:
    kinds = [_type_schema(t) for t in field["types"]]
    description = field.get("description", "")
    for low, high, unit in LENGTHS.findall(description):
        for kind in kinds:
            if kind.get("type") == "string":
                lo, hi = ("minBytes", "maxBytes") if unit == "bytes" else ("minLength", "maxLength")
                kind[lo], kind[hi] = int(low), int(high)
    for low, high in BETWEEN.findall(description):
        for kind in kinds:
            if kind.get("type") in ("integer", "number"):
                kind["minimum"], kind["maximum"] = int(low), int(high)
    return kinds[0] if len(kinds) == 1 else {"anyOf": kinds}


def _object_schema(entry: JSON) -> JSON:
    if entry.get("subtypes"):
        return {"anyOf": [{"$ref": f"#/types/{s}"} for s in entry["subtypes"]]}
    fields = entry.get("fields", [])
    return {
        "type": "object",
        "properties": {f["name"]: _field_schema(f) for f in fields},
        "required": [f["name"] for f in fields if f.get("required")],
    }


@functools.cache
def method_schema_document() -> JSON:
    """The Bot API as one JSON Schema document: ``#/types/<Type>``, ``#/methods/<method>``."""
    spec = load_spec(SPEC_FILE)
    return {
        "types": {name: _object_schema(entry) for name, entry in spec["types"].items()},
        "methods": {name: _object_schema(entry) for name, entry in spec["methods"].items()},
    }


def _byte_bound(check: Any, message: str) -> Any:
    def keyword(validator: Any, bound: int, instance: Any, schema: JSON) -> Iterator[Any]:
        if isinstance(instance, str) and check(len(instance.encode()), bound):
            yield ValidationError(message.format(size=len(instance.encode()), bound=bound))

    return keyword


BotApiValidator = validators.extend(
    Draft202012Validator,
    {
        "maxBytes": _byte_bound(lambda n, b: n > b, "Must be {bound} or fewer bytes (has {size})"),
        "minBytes": _byte_bound(lambda n, b: n < b, "Must be {bound} or more bytes (has {size})"),
    },
)


@functools.cache
def _validator(method: str) -> Any:
    registry: Registry[Any] = Registry().with_resource(
        SPEC_URI, DRAFT202012.create_resource(method_schema_document())
    )
    return BotApiValidator({"$ref": f"{SPEC_URI}#/methods/{method}"}, registry=registry)


def known_method(method: str) -> bool:
    return method in load_spec(SPEC_FILE)["methods"]


def _fields(method: str) -> dict[str, JSON]:
    return {f["name"]: f for f in load_spec(SPEC_FILE)["methods"][method].get("fields", [])}


def _decode(field: JSON, raw: str) -> tuple[Any, str | None]:
    """A form value as the JSON value its declared types read it as, or a problem."""
    kinds = field["types"]
    for kind in kinds:
        if kind == "Integer" and re.fullmatch(r"-?\d+", raw.strip()):
            return int(raw), None
        if kind == "Float":
            try:
                return float(raw), None
            except ValueError:
                continue
        if kind in ("Boolean", "True") and raw.strip().lower() in TRUE_WORDS | FALSE_WORDS:
            return raw.strip().lower() in TRUE_WORDS, None
    if "String" in kinds or "InputFile" in kinds:
        return raw, None
    if any(k.startswith("Array of ") or k not in PRIMITIVES for k in kinds):
        try:
            return json.loads(raw), None
        except ValueError:
            return None, f"can't parse {field['name']} JSON object"
    return None, f"{field['name']} must be {' or '.join(kinds)}, not {raw!r}"


def _words(method: str, args: JSON) -> Iterator[tuple[str, str]]:
    """(where, problem) for the limits the Bot API states in sentences."""
    if method in ("sendMessage", "editMessageText"):
        text = args.get("text")
        if isinstance(text, str) and text and not text.strip():
            yield "text", "message text is empty"
    if method == "sendChatAction" and args.get("action") not in CHAT_ACTIONS:
        yield "action", f"wrong parameter action in request: {args.get('action')!r}"
    if method == "setMyCommands" and isinstance(args.get("commands"), list):
        commands = args["commands"]
        if len(commands) > MENU_MAX:
            yield "commands", f"at most {MENU_MAX} commands (got {len(commands)})"
        for i, command in enumerate(commands):
            name = command.get("command") if isinstance(command, dict) else None
            if isinstance(name, str) and not COMMAND_NAME.match(name):
                yield f"commands.{i}.command", f"BOT_COMMAND_INVALID: {name!r}"
    markup = args.get("reply_markup")
    if isinstance(markup, dict) and isinstance(markup.get("inline_keyboard"), list):
        for r, row in enumerate(markup["inline_keyboard"]):
            for c, button in enumerate(row if isinstance(row, list) else []):
                if not isinstance(button, dict):
                    continue
                actions = set(button) - BUTTON_TEXT_ONLY
                if len(actions) != 1:
                    yield (
                        f"reply_markup.inline_keyboard.{r}.{c}",
                        f"BUTTON_TYPE_INVALID: a button needs exactly one action, has {actions}",
                    )


def check_call(method: str, params: dict[str, str], files: set[str]) -> list[Violation]:
    """Every reason Telegram would refuse ``method`` with form fields ``params`` and uploaded
    files named ``files``."""
    if not known_method(method):
        return [Violation("telegram", method, "", "Not Found: no such method in the Bot API")]
    fields = _fields(method)
    args: JSON = {}
    found: list[Violation] = []
    for name, raw in params.items():
        field = fields.get(name)
        if field is None:
            continue  # Telegram ignores fields it does not know
        value, problem = _decode(field, raw)
        if problem:
            found.append(Violation("telegram", method, name, problem))
        else:
            args[name] = value
    for name in files:
        field = fields.get(name)
        if field is not None and "InputFile" not in field["types"]:
            found.append(Violation("telegram", method, name, f"{name} can't be a file upload"))
        args.setdefault(name, f"attach://{name}")
    for where, what in schema_problems(_validator(method), args):
        found.append(Violation("telegram", method, where, what))
    found += [Violation("telegram", method, where, why) for where, why in _words(method, args)]
    return found


def warm_up() -> None:
    """Build the schema document and the validator of the usual call (a good part of a second,
    once per process) before a test's first call waits for them."""
    check_call("sendMessage", {"chat_id": "1", "text": "warm"}, set())


# Telegram's own words for the refusals the bot is likeliest to meet.
DESCRIPTIONS = (
    (re.compile(r"^caption$"), "message caption is too long"),
    (re.compile(r"^text$"), "message text is empty or too long"),
    (re.compile(r"callback_data$"), "BUTTON_DATA_INVALID"),
)


def description(violations: list[Violation]) -> str:
    """The ``description`` of Telegram's 400 answer: "Bad Request: ..." naming the field."""
    first = violations[0]
    for where, words in DESCRIPTIONS:
        if where.search(first.where):
            return f"Bad Request: {words} ({first.where}: {first.problem})"
    place = f"{first.where}: " if first.where else ""
    return f"Bad Request: {place}{first.problem}"
