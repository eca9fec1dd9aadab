"""The fake Discord refuses what Discord refuses: one request per limit, each answered 400 with
code 50035 "Invalid Form Body" and an ``errors`` object naming the field, and recorded so that a
test where the bot sent it fails (here the violations are taken, as they are sent on purpose)."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest
from fake_discord import APP_ID, CHANNEL_ID, GUILD_ID, FakeDiscord

from tests.bot.platform_specs import ViolationLog

MESSAGES = f"/channels/{CHANNEL_ID}/messages"
COMMANDS = f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
CALLBACK = "/interactions/1/a-token/callback"


def button(custom_id: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}


def row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons) or [button()]}


def option(**changes: Any) -> dict[str, Any]:
    return {"type": 3, "name": "move", "description": "the move", **changes}


def command(*options: dict[str, Any], **changes: Any) -> list[dict[str, Any]]:
    return [{"name": "shogi", "description": "Play shogi", "options": list(options), **changes}]


# (what, method, path, body, the field Discord names)
REFUSED: list[tuple[str, str, str, Any, str]] = [
    ("content over 2,000 (a bot)", "POST", MESSAGES, {"content": "x" * 2001}, "content"),
    ("content over 4,000 (anyone)", "POST", MESSAGES, {"content": "x" * 4001}, "content"),
    (
        "embed title over 256",
        "POST",
        MESSAGES,
        {"embeds": [{"title": "t" * 257}]},
        "embeds.0.title",
    ),
    (
        "embed description over 4,096",
        "POST",
        MESSAGES,
        {"embeds": [{"description": "d" * 4097}]},
        "embeds.0.description",
    ),
    (
        "embed field value over 1,024",
        "POST",
        MESSAGES,
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
        "embeds.0.fields.0.value",
    ),
    (
        "embeds over 6,000 together",
        "POST",
        MESSAGES,
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        "embeds",
    ),
    ("more than 10 embeds", "POST", MESSAGES, {"embeds": [{"title": "t"}] * 11}, "embeds"),
    (
        "six buttons in a row",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row(*(button(f"b{i}") for i in range(6)))]},
        "components.0.components",
    ),
    (
        "six action rows",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row()] * 6},
        "components",
    ),
    (
        "custom_id over 100",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row(button("i" * 101))]},
        "components.0.components.0.custom_id",
    ),
    (
        "button label over 80",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row({**button(), "label": "l" * 81})]},
        "components.0.components.0.label",
    ),
    (
        "a button without custom_id",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row({"type": 2, "style": 1, "label": "Go"})]},
        "components.0.components.0",
    ),
    (
        "a link button without url",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row({"type": 2, "style": 5, "label": "Go"})]},
        "components.0.components.0",
    ),
    (
        "a button without label or emoji",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row({"type": 2, "style": 1, "custom_id": "x"})]},
        "components.0.components.0",
    ),
    (
        "two buttons with one custom_id",
        "POST",
        MESSAGES,
        {"content": "c", "components": [row(button("same")), row(button("same"))]},
        "components.1.components.0.custom_id",
    ),
    (
        "users both parsed and listed",
        "POST",
        MESSAGES,
        {"content": "c", "allowed_mentions": {"parse": ["users"], "users": ["111"]}},
        "allowed_mentions",
    ),
    (
        "a reply without the message it replies to",
        "POST",
        MESSAGES,
        {"content": "c", "message_reference": {"channel_id": str(CHANNEL_ID)}},
        "message_reference.message_id",
    ),
    (
        "an edit over 2,000",
        "PATCH",
        f"{MESSAGES}/5",
        {"content": "x" * 2001},
        "content",
    ),
    (
        "an interaction answer over 2,000",
        "POST",
        CALLBACK,
        {"type": 4, "data": {"content": "x" * 2001}},
        "data.content",
    ),
    (
        "a button's update over 2,000",
        "POST",
        CALLBACK,
        {"type": 7, "data": {"content": "x" * 2001}},
        "data.content",
    ),
    ("a callback without its type", "POST", CALLBACK, {"data": {"content": "c"}}, "type"),
    (
        "26 autocomplete choices",
        "POST",
        CALLBACK,
        {"type": 8, "data": {"choices": [{"name": f"c{i}", "value": f"{i}"} for i in range(26)]}},
        "data.choices",
    ),
    (
        "an autocomplete choice name over 100",
        "POST",
        CALLBACK,
        {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}},
        "data.choices.0.name",
    ),
    (
        "a follow-up over 2,000",
        "POST",
        f"/webhooks/{APP_ID}/a-token",
        {"content": "x" * 2001},
        "content",
    ),
    (
        "an option description of 101 characters",
        "PUT",
        COMMANDS,
        command(option(description="d" * 101)),
        "0.options.0.description",
    ),
    (
        "an empty option description",
        "PUT",
        COMMANDS,
        command(option(description="")),
        "0.options.0.description",
    ),
    (
        "an option without its description",
        "PUT",
        COMMANDS,
        command({"type": 3, "name": "move"}),
        "0.options.0.description",
    ),
    (
        "a command description of 101 characters",
        "PUT",
        COMMANDS,
        command(description="d" * 101),
        "0.description",
    ),
    ("a command name in capitals", "PUT", COMMANDS, command(name="Shogi"), "0.name"),
    ("a command name with a space", "PUT", COMMANDS, command(name="play shogi"), "0.name"),
    ("a command name over 32", "PUT", COMMANDS, command(name="s" * 33), "0.name"),
    (
        "a localized option name in capitals",
        "PUT",
        COMMANDS,
        command(option(name_localizations={"ru": "Ход"})),
        "0.options.0.name",
    ),
    (
        "26 options",
        "PUT",
        COMMANDS,
        command(*(option(name=f"o{i}") for i in range(26))),
        "0.options",
    ),
    (
        "26 choices",
        "PUT",
        COMMANDS,
        command(option(choices=[{"name": f"c{i}", "value": f"{i}"} for i in range(26)])),
        "0.options.0.choices",
    ),
    (
        "a required option after an optional one",
        "PUT",
        COMMANDS,
        command(option(name="a"), option(name="b", required=True)),
        "0.options.1.required",
    ),
    (
        "two options of one name",
        "PUT",
        COMMANDS,
        command(option(), option()),
        "0.options.1.name",
    ),
    (
        "a command over 8,000 characters",
        "PUT",
        COMMANDS,
        command(
            *(
                option(
                    name=f"o{i}",
                    description="d" * 100,
                    description_localizations={"ru": "д" * 100, "ja": "説" * 100},
                    choices=[{"name": "n" * 100, "value": "v" * 100} for _ in range(2)],
                )
                for i in range(20)
            )
        ),
        "0",
    ),
]


async def send(fake: FakeDiscord, method: str, path: str, body: Any) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_base + path, json=body, headers=headers) as answer,
    ):
        return answer.status, await answer.json()


def error_at(errors: dict[str, Any], where: str) -> list[dict[str, str]]:
    node = errors
    for part in filter(None, where.split(".")):
        node = node[part]
    found: list[dict[str, str]] = node["_errors"]
    return found


@pytest.mark.parametrize(
    ("method", "path", "body", "where"),
    [case[1:] for case in REFUSED],
    ids=[case[0] for case in REFUSED],
)
async def test_the_fake_refuses_what_discord_refuses(
    method: str, path: str, body: Any, where: str
) -> None:
    async with FakeDiscord() as fake:
        status, answer = await send(fake, method, path, body)
        violations = fake.take_violations()
    assert status == 400, answer
    assert answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    assert error_at(answer["errors"], where), answer
    assert where in {v.where for v in violations}, violations
    assert fake.requests[-1].status == 400


@pytest.mark.parametrize(
    ("path", "body"),
    [
        (MESSAGES, {"content": "", "embeds": [], "components": []}),
        (f"/webhooks/{APP_ID}/a-token", {"content": None}),
        (CALLBACK, {"type": 4, "data": {"content": ""}}),
    ],
    ids=["message", "follow-up", "interaction answer"],
)
async def test_an_empty_message_is_refused(path: str, body: Any) -> None:
    """Content, embeds, components, stickers, files or a poll: one at least (code 50006)."""
    async with FakeDiscord() as fake:
        status, answer = await send(fake, "POST", path, body)
        (violation,) = fake.take_violations()
    assert status == 400 and answer == {"code": 50006, "message": "Cannot send an empty message"}
    assert violation.problem == "Cannot send an empty message"


async def test_the_limits_themselves_are_accepted() -> None:
    """At each limit, not over it: the fake answers as Discord does and records nothing."""
    async with FakeDiscord() as fake:
        accepted = [
            await send(fake, "POST", MESSAGES, {"content": "x" * 2000}),
            await send(
                fake,
                "POST",
                MESSAGES,
                {
                    "content": "c",
                    "embeds": [{"title": "t" * 256, "description": "d" * 4096}],
                    "components": [
                        row(*(button("i" * 98 + f"{r}{c}") for c in range(5))) for r in range(5)
                    ],
                },
            ),
            await send(fake, "PUT", COMMANDS, command(option(description="d" * 100))),
        ]
        assert fake.take_violations() == []
    assert [status for status, _ in accepted] == [200, 200, 200], accepted


async def test_discord_py_sees_the_refusal_as_invalid_form_body() -> None:
    """The real client gets the answer it gets from Discord: HTTPException, code 50035, and the
    field named in its text."""
    async with FakeDiscord() as fake:
        http = discord.http.HTTPClient(aiohttp.TCPConnector())
        original = discord.http.Route.BASE
        discord.http.Route.BASE = fake.api_base
        try:
            await http.static_login(fake.token)
            with pytest.raises(discord.HTTPException) as refused:
                await http.send_message(CHANNEL_ID, params=_params("x" * 2001))
            await http.send_message(CHANNEL_ID, params=_params("fine"))
        finally:
            await http.close()
            discord.http.Route.BASE = original
        (violation,) = fake.take_violations()
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "content" in str(refused.value)
    assert violation.where == "content"
    assert fake.last_message()["content"] == "fine"


def _params(content: str) -> Any:
    return discord.http.handle_message_parameters(content=content)


async def test_an_unknown_route_and_a_missing_body_are_violations() -> None:
    async with FakeDiscord() as fake:
        status, _ = await send(fake, "POST", "/channels/1/no-such-thing", {})
        headers = {"Authorization": f"Bot {fake.token}"}
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                fake.api_base + MESSAGES.replace("messages", "threads"), headers=headers
            ) as answer,
        ):
            no_body = answer.status
        found = [v.problem for v in fake.take_violations()]
    assert status == 400 and no_body == 400
    assert found == ["no such route in Discord's API", "the request needs a body"]


async def test_violations_left_in_a_test_are_reported_at_its_end() -> None:
    """What the autouse fixture of tests/bot/conftest.py reads: every fake's leftovers."""
    async with FakeDiscord() as fake:
        await send(fake, "POST", MESSAGES, {"content": "x" * 2001})
    (left,) = ViolationLog.unclaimed()
    assert left.platform == "discord" and left.where == "content"
    assert "2000" in left.problem


@pytest.mark.parametrize(
    ("identify", "where"),
    [
        ({"properties": {"os": "l", "browser": "b", "device": "d"}, "intents": 1}, "token"),
        ({"token": "test-token", "intents": 1}, "properties"),
        (
            {"token": "test-token", "properties": {"os": "l", "browser": "b", "device": "d"}},
            "intents",
        ),
        (
            {
                "token": "test-token",
                "properties": {"os": "l", "browser": "b", "device": "d"},
                "intents": 1,
                "large_threshold": 251,
            },
            "large_threshold",
        ),
    ],
    ids=["no token", "no properties", "no intents", "large threshold over 250"],
)
async def test_the_gateway_refuses_a_malformed_identify(
    identify: dict[str, Any], where: str
) -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        async with session.ws_connect(fake.gateway_url) as ws:
            hello = await ws.receive_json()
            await ws.send_json({"op": 2, "d": identify})
            closed = await ws.receive()
        (violation,) = fake.take_violations()
    assert hello["op"] == 10
    assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4002
    assert violation.where == where


async def test_the_gateway_takes_each_shard_once() -> None:
    """A shard that another live session holds, or that does not exist, is refused (4010)."""
    identify = {
        "token": "test-token",
        "properties": {"os": "l", "browser": "b", "device": "d"},
        "intents": 1,
    }
    async with FakeDiscord() as fake, aiohttp.ClientSession() as session:
        async with (
            session.ws_connect(fake.gateway_url) as first,
            session.ws_connect(fake.gateway_url) as second,
            session.ws_connect(fake.gateway_url) as third,
        ):
            for ws, shard in ((first, [1, 2]), (second, [1, 2]), (third, [2, 2])):
                await ws.receive_json()  # HELLO
                await ws.send_json({"op": 2, "d": {**identify, "shard": shard}})
            ready = await first.receive_json()
            refusals = [(await ws.receive()).data for ws in (second, third)]
        problems = [v.problem for v in fake.take_violations()]
    assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
    assert refusals == [4010, 4010]
    assert problems == [
        "shard [1, 2] is identified twice: two sessions would get its events",
        "shard [2, 2] does not exist",
    ]
    assert fake.shards_identified() == [(1, 2), (1, 2), (2, 2)]
