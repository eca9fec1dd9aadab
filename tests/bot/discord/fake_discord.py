"""A small Discord stand-in (REST + gateway) on 127.0.0.1 for driving the real discord.py client.

It speaks just enough of Discord's API v10 for Komabot's front end: login, the gateway
handshake (HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats), command sync, messages with
multipart uploads, interaction callbacks and follow-ups, message edits, threads and DMs.  Tests
act as users through :meth:`FakeDiscord.slash`, :meth:`autocomplete`, :meth:`click` and
:meth:`say`, and read what the bot did from :attr:`FakeDiscord.messages` and
:attr:`FakeDiscord.requests`.  :meth:`rate_limit` makes the next matching request answer 429.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.bot.discord.discord_rules import (
    SPEC_FILE,
    check_request,
    error_body,
    identify_problems,
    warm_up,
)
from tests.bot.platform_specs import Violation, ViolationLog, load_spec

JSON = dict[str, Any]

APP_ID = 900_000_000_000_000_001
BOT_ID = APP_ID
GUILD_ID = 900_000_000_000_000_100
CHANNEL_ID = 900_000_000_000_000_200
OTHER_CHANNEL_ID = 900_000_000_000_000_201
HEARTBEAT_MS = 45_000

MESSAGE_CONTENT = 1 << 15
PERMISSIONS_ALL = str((1 << 50) - 1)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only when Content-Type is exactly application/json (no charset).
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


@dataclass
class Upload:
    """One file of a multipart request."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class Recorded:
    """One REST request as the fake received it."""

    method: str
    path: str
    json: Any = None
    files: list[Upload] = field(default_factory=list)
    multipart: bool = False
    status: int = 200


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    permissions: str = PERMISSIONS_ALL  # in the server (all, unless a test takes some away)
    display: str | None = None  # the display name (global name), when not the user name

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.display or self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member(self) -> JSON:
        return {
            "user": self.payload(),
            "roles": [],
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "pending": False,
            "permissions": self.permissions,
        }


@dataclass
class _Pending:
    """An interaction sent to the bot, waiting for its callback."""

    payload: JSON
    callback: asyncio.Future[JSON]
    channel_id: int


@dataclass
class _RateLimit:
    method: str
    pattern: re.Pattern[str]
    retry_after: float
    remaining: int


class FakeDiscord:
    """The fake server; ``async with FakeDiscord() as fake`` starts it on a free local port."""

    def __init__(self, token: str = "test-token") -> None:
        load_spec(SPEC_FILE)  # no fake without Discord's description to check requests against
        self.token = token
        self.bot = FakeUser(BOT_ID, "Komabot", bot=True)
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, JSON] = {}
        for cid, name in ((CHANNEL_ID, "shogi"), (OTHER_CHANNEL_ID, "general")):
            self.channels[cid] = self._text_channel(cid, name)
        self.messages: dict[int, JSON] = {}  # id -> message, every channel, in creation order
        self.requests: list[Recorded] = []
        self.commands: dict[str, list[JSON]] = {}  # "global" or guild id -> last PUT payload
        self.identifies: list[JSON] = []
        self.callbacks: list[JSON] = []  # every interaction callback body, in order
        self._ids = itertools.count(950_000_000_000_000_000)
        self._pending: dict[int, _Pending] = {}
        self._tokens: dict[str, _Pending] = {}
        self._sockets: list[tuple[web.WebSocketResponse, list[int]]] = []  # (ws, [shard, count])
        self._seq = itertools.count(1)
        self._limits: list[_RateLimit] = []
        self._lost_answers: list[_RateLimit] = []
        self.privileged = True  # whether the Message Content intent is granted
        self.expire_interactions = False  # answer every callback "Unknown interaction"
        self.gateway_down = 0  # refuse this many gateway connections (HTTP 503), then accept
        self.gateway_refusals = 0  # gateway connections refused so far
        self.violations = ViolationLog()  # requests Discord would refuse (checked at teardown)
        self._runner: web.AppRunner | None = None
        self.port = 0

    def take_violations(self) -> list[Violation]:
        """The requests Discord would have refused so far, forgotten: for tests that send
        them on purpose (any left at the end of a test fail it)."""
        return self.violations.take()

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> FakeDiscord:
        await asyncio.to_thread(warm_up)
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws, _ in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self, **extra: str) -> dict[str, str]:
        """Environment variables pointing Komabot's Discord front end at this server."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            **extra,
        }

    # ------------------------------------------------------------------ world

    def user(
        self, uid: int, name: str, *, bot: bool = False, display: str | None = None
    ) -> FakeUser:
        self.users[uid] = FakeUser(uid, name, bot=bot, display=display)
        return self.users[uid]

    def _text_channel(self, cid: int, name: str) -> JSON:
        return {
            "id": str(cid),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": name,
            "position": len(self.channels) if hasattr(self, "channels") else 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }

    def _guild(self) -> JSON:
        return {
            "id": str(GUILD_ID),
            "name": "Shogi Club",
            "unavailable": False,
            "member_count": len(self.users) + 1,
            "owner_id": str(next(iter(self.users), BOT_ID)),
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "permissions": PERMISSIONS_ALL,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "threads": [],
            "members": [self.bot.member(), *(u.member() for u in self.users.values())],
            "emojis": [],
            "stickers": [],
            "features": [],
            "large": False,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": _now(),
            "premium_tier": 0,
            "preferred_locale": "en-US",
        }

    def channel_messages(self, channel_id: int = CHANNEL_ID) -> list[JSON]:
        return [m for m in self.messages.values() if m["channel_id"] == str(channel_id)]

    def last_message(self, channel_id: int = CHANNEL_ID) -> JSON:
        found = self.channel_messages(channel_id)
        assert found, f"no message in channel {channel_id}"
        return found[-1]

    def rate_limit(self, method: str, path_regex: str, retry_after: float = 0.05) -> None:
        """Answer the next request matching ``method path`` with 429 and ``retry_after``."""
        self._limits.append(_RateLimit(method, re.compile(path_regex), retry_after, 1))

    def lose_answer(self, method: str, path_regex: str) -> None:
        """Carry out the next request matching ``method path`` (a message is posted), then cut
        the connection instead of answering, as when a network fails at the worst moment."""
        self._lost_answers.append(_RateLimit(method, re.compile(path_regex), 0.0, 1))

    # ------------------------------------------------------------------ REST

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        rec = Recorded(request.method, path)
        has_body = False
        if request.content_type.startswith("multipart/"):
            rec.multipart = True
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert not isinstance(part, type(reader))
                data = await part.read()  # type: ignore[union-attr]
                name = part.name or ""  # type: ignore[union-attr]
                if name == "payload_json":
                    rec.json = json.loads(data)
                    has_body = True
                else:
                    rec.files.append(
                        Upload(
                            name,
                            part.filename or "",  # type: ignore[union-attr]
                            part.headers.get("Content-Type", ""),
                            bytes(data),
                        )
                    )
        elif request.can_read_body:
            raw = await request.read()
            rec.json = json.loads(raw) if raw else None
            has_body = bool(raw)
        self.requests.append(rec)

        for limit in self._limits:
            if limit.remaining and limit.method == request.method and limit.pattern.search(path):
                limit.remaining -= 1
                rec.status = 429
                return _json(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": limit.retry_after,
                        "global": False,
                    },
                    status=429,
                    headers={
                        "Via": "1.1 google",
                        "Retry-After": str(max(1, round(limit.retry_after))),
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(limit.retry_after),
                        "X-RateLimit-Bucket": "fakebucket",
                        "X-RateLimit-Scope": "user",
                    },
                )

        is_webhook = path.startswith(("/interactions/", "/webhooks/"))
        if not is_webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            rec.status = 401
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)

        refused = await asyncio.to_thread(  # off the loop the bot runs on too
            check_request, request.method, path, rec.json, has_body, len(rec.files)
        )
        if refused:
            self.violations.add(refused)
            rec.status = 400
            return _json(error_body(refused), status=400)

        for method, pattern, handler in self._routes:
            if method != request.method:
                continue
            m = re.fullmatch(pattern, path)
            if m:
                result = await handler(self, rec, request, *m.groups())
                for lost in self._lost_answers:
                    if lost.remaining and lost.method == method and lost.pattern.search(path):
                        lost.remaining -= 1
                        rec.status = -1
                        assert request.transport is not None
                        request.transport.abort()
                        raise ConnectionResetError("the fake cut the connection")
                if isinstance(result, web.StreamResponse):
                    return result
                return _json(result) if result is not None else web.Response(status=204)
        rec.status = 404
        return _json(
            {"message": f"404: no fake route for {request.method} {path}", "code": 0}, status=404
        )

    async def _me(self, rec: Recorded, request: web.Request) -> JSON:
        return self.bot.payload()

    async def _application(self, rec: Recorded, request: web.Request) -> JSON:
        return {
            "id": str(APP_ID),
            "name": "Komabot",
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {**FakeUser(1, "owner").payload()},
            "verify_key": "00",
            "flags": 0,
            "summary": "",
            "team": None,
        }

    async def _gateway_bot(self, rec: Recorded, request: web.Request) -> JSON:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def _put_commands(self, rec: Recorded, request: web.Request, *ids: str) -> list[JSON]:
        key = ids[1] if len(ids) > 1 else "global"
        out = []
        for cmd in rec.json or []:
            out.append(
                {
                    **cmd,
                    "id": str(next(self._ids)),
                    "application_id": str(APP_ID),
                    "version": "1",
                    "default_member_permissions": cmd.get("default_member_permissions"),
                    "type": cmd.get("type", 1),
                }
            )
        self.commands[key] = out
        return out

    def _message(
        self,
        channel_id: int,
        body: JSON,
        files: list[Upload],
        *,
        author: FakeUser | None = None,
        flags: int = 0,
        interaction_id: int | None = None,
    ) -> JSON:
        mid = next(self._ids)
        attachments = [
            {
                "id": str(next(self._ids)),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"http://127.0.0.1:{self.port}/files/{mid}/{f.filename}",
                "proxy_url": f"http://127.0.0.1:{self.port}/files/{mid}/{f.filename}",
                "content_type": f.content_type,
            }
            for f in files
        ]
        msg: JSON = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(GUILD_ID)
            if self.channels.get(channel_id, {}).get("guild_id")
            else None,
            "author": (author or self.bot).payload(),
            "content": body.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": flags | int(body.get("flags") or 0),
            "_allowed_mentions": body.get("allowed_mentions"),
            "_files": files,  # what was uploaded, for tests
        }
        if body.get("message_reference"):
            msg["message_reference"] = {**body["message_reference"], "channel_id": str(channel_id)}
        if interaction_id is not None:
            msg["_interaction_id"] = interaction_id
        self.messages[mid] = msg
        return msg

    @staticmethod
    def public(msg: JSON) -> JSON:
        return {k: v for k, v in msg.items() if not k.startswith("_")}

    async def _post_message(self, rec: Recorded, request: web.Request, cid: str) -> JSON:
        channel_id = int(cid)
        if channel_id not in self.channels:
            rec.status = 404
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)  # type: ignore[return-value]
        body = rec.json or {}
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: a nonce seen lately in the channel gets the message it made, not another.
            for old in self.messages.values():
                if old["channel_id"] == cid and old.get("_nonce") == str(nonce):
                    return self.public(old)
        msg = self._message(channel_id, body, rec.files)
        if nonce is not None:
            msg["_nonce"] = str(nonce)
            msg["nonce"] = str(nonce)
        return self.public(msg)

    async def _edit_message(
        self, rec: Recorded, request: web.Request, cid: str, mid: str
    ) -> JSON | web.Response:
        msg = self.messages.get(int(mid))
        if msg is None or msg["channel_id"] != cid:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        self._apply_edit(msg, rec)
        return self.public(msg)

    def _apply_edit(self, msg: JSON, rec: Recorded) -> None:
        body = rec.json or {}
        for key in ("content", "embeds", "components"):
            if key in body:
                msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if rec.files or "attachments" in body:
            kept = {str(a.get("id")) for a in body.get("attachments", []) if "id" in a}
            msg["attachments"] = [a for a in msg["attachments"] if a["id"] in kept]
            msg["_files"] = list(rec.files) or [
                f
                for f in msg["_files"]
                if any(a["filename"] == f.filename for a in msg["attachments"])
            ]
            msg["attachments"] += [
                {
                    "id": str(next(self._ids)),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": "",
                    "proxy_url": "",
                    "content_type": f.content_type,
                }
                for f in rec.files
            ]
        msg["edited_timestamp"] = _now()
        msg.setdefault("_edits", 0)
        msg["_edits"] += 1

    async def _delete_message(
        self, rec: Recorded, request: web.Request, cid: str, mid: str
    ) -> JSON | web.Response | None:
        msg = self.messages.get(int(mid))
        if msg is None or msg["channel_id"] != cid:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        del self.messages[int(mid)]
        return None

    async def _get_message(
        self, rec: Recorded, request: web.Request, cid: str, mid: str
    ) -> JSON | web.Response:
        msg = self.messages.get(int(mid))
        if msg is None or msg["channel_id"] != cid:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        return self.public(msg)

    async def _get_channel(
        self, rec: Recorded, request: web.Request, cid: str
    ) -> JSON | web.Response:
        ch = self.channels.get(int(cid))
        if ch is None:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        return ch

    async def _start_thread(
        self, rec: Recorded, request: web.Request, cid: str, mid: str | None = None
    ) -> JSON:
        tid = next(self._ids)
        body = rec.json or {}
        thread = {
            "id": str(tid),
            "type": 11,
            "guild_id": str(GUILD_ID),
            "parent_id": cid,
            "owner_id": str(BOT_ID),
            "name": body.get("name", "thread"),
            "position": 0,
            "permission_overwrites": [],
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": body.get("auto_archive_duration", 1440),
                "archive_timestamp": _now(),
                "locked": False,
            },
        }
        self.channels[tid] = thread
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _delete_channel(
        self, rec: Recorded, request: web.Request, cid: str
    ) -> JSON | web.Response:
        ch = self.channels.pop(int(cid), None)
        if ch is None:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        if ch["type"] == 11:
            await self.dispatch(
                "THREAD_DELETE", {k: ch[k] for k in ("id", "guild_id", "parent_id", "type")}
            )
        return ch

    async def _dm_channel(self, rec: Recorded, request: web.Request) -> JSON:
        return self.dm(int((rec.json or {})["recipient_id"]))

    def dm(self, uid: int) -> JSON:
        """The direct-message channel between the bot and user ``uid`` (made on first use)."""
        for ch in self.channels.values():
            if ch["type"] == 1 and ch["recipients"][0]["id"] == str(uid):
                return ch
        cid = next(self._ids)
        user = self.users.get(uid) or FakeUser(uid, f"user{uid}")
        ch = {"id": str(cid), "type": 1, "recipients": [user.payload()], "last_message_id": None}
        self.channels[cid] = ch
        return ch

    async def _callback(
        self, rec: Recorded, request: web.Request, iid: str, token: str
    ) -> JSON | web.Response:
        pending = self._pending.get(int(iid))
        if self.expire_interactions and pending is not None:
            pending.callback.set_result({"expired": True})
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        if pending is None or pending.payload["token"] != token:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        if pending.callback.done():
            return _json(
                {"message": "Interaction has already been acknowledged.", "code": 40060},
                status=400,
            )
        body = rec.json or {}
        self.callbacks.append(body)
        kind = body.get("type")
        data = body.get("data") or {}
        result: JSON = {
            "interaction": {
                "id": iid,
                "type": pending.payload["type"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & 64),
            }
        }
        if kind in (4, 5):
            flags = int(data.get("flags") or 0) | (128 if kind == 5 else 0)
            msg = self._message(
                pending.channel_id, data, rec.files, flags=flags, interaction_id=int(iid)
            )
            result["interaction"]["response_message_id"] = msg["id"]
            result["resource"] = {"type": kind, "message": self.public(msg)}
        elif kind == 7:  # update the message the component was on
            target = self.messages[int(pending.payload["message"]["id"])]
            self._apply_edit(target, Recorded("PATCH", "", data, rec.files))
            result["resource"] = {"type": kind, "message": self.public(target)}
        pending.callback.set_result(body)
        return result

    async def _followup(self, rec: Recorded, request: web.Request, app: str, token: str) -> JSON:
        pending = self._tokens[token]
        flags = int((rec.json or {}).get("flags") or 0)
        original = self._original(pending)
        if original is not None and original["flags"] & 128:  # a deferred "thinking" answer
            original["flags"] &= ~128
            self._apply_edit(original, rec)
            return self.public(original)
        msg = self._message(
            pending.channel_id,
            rec.json or {},
            rec.files,
            flags=flags,
            interaction_id=int(pending.payload["id"]),
        )
        return self.public(msg)

    def _original(self, pending: _Pending) -> JSON | None:
        for msg in self.messages.values():
            if msg.get("_interaction_id") == int(pending.payload["id"]) and not msg.get("_deleted"):
                return msg
        return None

    async def _edit_original(
        self, rec: Recorded, request: web.Request, app: str, token: str
    ) -> JSON | web.Response:
        original = self._original(self._tokens[token])
        if original is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        original["flags"] &= ~128
        self._apply_edit(original, rec)
        return self.public(original)

    async def _delete_original(
        self, rec: Recorded, request: web.Request, app: str, token: str
    ) -> None:
        original = self._original(self._tokens[token])
        if original is not None:
            original["_deleted"] = True
            del self.messages[int(original["id"])]

    _routes: tuple[tuple[str, str, Any], ...] = (
        ("GET", r"/users/@me", _me),
        ("GET", r"/oauth2/applications/@me", _application),
        ("GET", r"/gateway/bot", _gateway_bot),
        ("PUT", r"/applications/(\d+)/commands", _put_commands),
        ("PUT", r"/applications/(\d+)/guilds/(\d+)/commands", _put_commands),
        ("POST", r"/channels/(\d+)/messages", _post_message),
        ("PATCH", r"/channels/(\d+)/messages/(\d+)", _edit_message),
        ("GET", r"/channels/(\d+)/messages/(\d+)", _get_message),
        ("DELETE", r"/channels/(\d+)/messages/(\d+)", _delete_message),
        ("GET", r"/channels/(\d+)", _get_channel),
        ("DELETE", r"/channels/(\d+)", _delete_channel),
        ("POST", r"/channels/(\d+)/messages/(\d+)/threads", _start_thread),
        ("POST", r"/channels/(\d+)/threads", _start_thread),
        ("POST", r"/users/@me/channels", _dm_channel),
        ("POST", r"/interactions/(\d+)/([^/]+)/callback", _callback),
        ("POST", r"/webhooks/(\d+)/([^/]+)", _followup),
        ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/@original", _edit_original),
        ("DELETE", r"/webhooks/(\d+)/([^/]+)/messages/@original", _delete_original),
    )

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_down > 0:
            self.gateway_down -= 1
            self.gateway_refusals += 1
            return web.Response(status=503, text="gateway down")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        shard = [0, 1]
        await self._send(ws, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await self._send(ws, {"op": 11})
                elif op == 2:
                    self.identifies.append(data["d"])
                    malformed = identify_problems(data["d"])
                    if malformed:
                        self.violations.add(malformed)
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                        break
                    if data["d"]["token"] != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    if int(data["d"].get("intents", 0)) & MESSAGE_CONTENT and not self.privileged:
                        await ws.close(code=4014, message=b"Disallowed intent(s).")
                        break
                    shard = list(data["d"].get("shard") or [0, 1])
                    self._sockets = [(s, sh) for s, sh in self._sockets if s is not ws]
                    problem = self._shard_problem(shard)
                    if problem:
                        self.violations.add([Violation("discord", "IDENTIFY", "shard", problem)])
                        await ws.close(code=4010, message=b"Invalid shard.")
                        break
                    self._sockets.append((ws, shard))
                    await self._ready(ws, shard)
                elif op == 6:  # RESUME: we keep no sessions, so ask for a fresh IDENTIFY
                    await self._send(ws, {"op": 9, "d": False})
        finally:
            self._sockets = [(s, sh) for s, sh in self._sockets if s is not ws]
        return ws

    def _shard_problem(self, shard: list[int]) -> str | None:
        """Why Discord would not take ``[shard_id, shard_count]`` beside the live sessions
        (None: it takes it)."""
        shard_id, count = shard
        if not 0 <= shard_id < count:
            return f"shard {shard} does not exist"
        for _, live in self._sockets:
            if live[1] != count:
                return f"shard {shard} has another shard count than the live shard {live}"
            if live == shard:
                return f"shard {shard} is identified twice: two sessions would get its events"
        return None

    def live_shards(self) -> list[tuple[int, int]]:
        """The ``(shard_id, shard_count)`` of every gateway session connected now."""
        return [(shard[0], shard[1]) for _, shard in self._sockets]

    def shards_identified(self) -> list[tuple[int, int]]:
        """Every ``(shard_id, shard_count)`` an IDENTIFY named, sorted (repeats kept)."""
        return sorted(tuple(i.get("shard") or (0, 1)) for i in self.identifies)  # type: ignore[misc]

    def _owns(self, shard: list[int], guild_id: int) -> bool:
        return (guild_id >> 22) % shard[1] == shard[0]

    async def _ready(self, ws: web.WebSocketResponse, shard: list[int]) -> None:
        guilds = [GUILD_ID] if self._owns(shard, GUILD_ID) else []
        await self._send(
            ws,
            {
                "op": 0,
                "t": "READY",
                "s": next(self._seq),
                "d": {
                    "v": 10,
                    "user": self.bot.payload(),
                    "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                    "session_id": f"session-{shard[0]}",
                    "resume_gateway_url": self.gateway_url,
                    "shard": shard,
                    "application": {"id": str(APP_ID), "flags": 0},
                },
            },
        )
        for _ in guilds:
            await self._send(
                ws, {"op": 0, "t": "GUILD_CREATE", "s": next(self._seq), "d": self._guild()}
            )

    async def _send(self, ws: web.WebSocketResponse, payload: JSON) -> None:
        await ws.send_str(json.dumps(payload))

    async def wait_connected(self, shards: int = 1, timeout: float = 10) -> None:
        """Wait until ``shards`` gateway sessions have identified."""
        async with asyncio.timeout(timeout):
            while len(self._sockets) < shards:
                await asyncio.sleep(0.01)

    async def dispatch(self, event: str, data: JSON, guild_id: int | None = GUILD_ID) -> None:
        """Send a DISPATCH to the session that owns ``guild_id`` (direct messages, None: the
        session of shard 0, as Discord does)."""
        for ws, shard in list(self._sockets):
            if (shard[0] == 0) if guild_id is None else self._owns(shard, guild_id):
                await self._send(ws, {"op": 0, "t": event, "s": next(self._seq), "d": data})

    # ------------------------------------------------------------------ acting as users

    def _base_interaction(self, kind: int, user: FakeUser, channel_id: int) -> JSON:
        iid = next(self._ids)
        channel = self.channels[channel_id]
        payload: JSON = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"itoken-{iid}",
            "version": 1,
            "channel_id": str(channel_id),
            "channel": channel,
            "locale": "en-US",
            "app_permissions": PERMISSIONS_ALL,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.get("guild_id"):
            payload["guild_id"] = str(GUILD_ID)
            payload["guild_locale"] = "en-US"
            payload["member"] = user.member()
        else:
            payload["user"] = user.payload()
            payload["context"] = 1
        return payload

    async def _interact(self, payload: JSON, timeout: float) -> JSON:
        loop = asyncio.get_running_loop()
        pending = _Pending(payload, loop.create_future(), int(payload["channel_id"]))
        self._pending[int(payload["id"])] = pending
        self._tokens[payload["token"]] = pending
        guild = int(payload["guild_id"]) if "guild_id" in payload else None
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=guild)
        async with asyncio.timeout(timeout):
            return await pending.callback

    def _command_options(
        self, sub: str, options: dict[str, Any], focused: str | None
    ) -> tuple[list[JSON], JSON]:
        """Slash options as Discord sends them, typed from the synced command payload."""
        schema = self.subcommand_schema(sub)
        typed: list[JSON] = []
        resolved: JSON = {}
        for name, value in options.items():
            spec = next((o for o in schema.get("options", []) if o["name"] == name), None)
            assert spec is not None, f"/shogi {sub} has no option {name!r}"
            kind = spec["type"]
            if kind == 6:
                assert isinstance(value, FakeUser)
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                member = value.member()
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
                value = str(value.id)
            opt: JSON = {"name": name, "type": kind, "value": value}
            if name == focused:
                opt["focused"] = True
            typed.append(opt)
        return typed, resolved

    def subcommand_schema(self, sub: str) -> JSON:
        for cmds in self.commands.values():
            for cmd in cmds:
                if cmd["name"] == "shogi":
                    for opt in cmd.get("options", []):
                        if opt["name"] == sub:
                            return dict(opt)
        raise AssertionError(f"/shogi {sub} was not synced")

    def _command_data(self, sub: str, options: dict[str, Any], focused: str | None) -> JSON:
        typed, resolved = self._command_options(sub, options, focused)
        cmd = next(c for cmds in self.commands.values() for c in cmds if c["name"] == "shogi")
        data: JSON = {
            "id": cmd["id"],
            "name": "shogi",
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": typed}],
        }
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        user: FakeUser,
        sub: str,
        channel_id: int = CHANNEL_ID,
        timeout: float = 10,
        **options: Any,
    ) -> JSON:
        """Run ``/shogi <sub> option:value...`` as ``user``; return the callback body."""
        payload = self._base_interaction(2, user, channel_id)
        payload["data"] = self._command_data(sub, options, None)
        return await self._interact(payload, timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        sub: str,
        focused: str,
        channel_id: int = CHANNEL_ID,
        timeout: float = 3,
        **options: Any,
    ) -> list[JSON]:
        """Type into option ``focused``; return the choices (Discord waits at most 3 s)."""
        payload = self._base_interaction(4, user, channel_id)
        payload["data"] = self._command_data(sub, options, focused)
        body = await self._interact(payload, timeout)
        assert body["type"] == 8, body
        choices: list[JSON] = body["data"]["choices"]
        return choices

    async def click(
        self, user: FakeUser, message: JSON, custom_id: str, timeout: float = 10
    ) -> JSON:
        """Press the button ``custom_id`` on ``message``; return the callback body."""
        ids = [
            c.get("custom_id")
            for row in message.get("components", [])
            for c in row.get("components", [])
        ]
        assert custom_id in ids, f"no button {custom_id!r} on the message (has {ids})"
        payload = self._base_interaction(3, user, int(message["channel_id"]))
        payload["message"] = self.public(message)
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(payload, timeout)

    async def say(self, user: FakeUser, content: str, channel_id: int = CHANNEL_ID) -> JSON:
        """``user`` types ``content`` in a channel (a MESSAGE_CREATE dispatch)."""
        msg = self._message(channel_id, {"content": content}, [], author=user)
        mentioned = [int(i) for i in re.findall(r"<@!?(\d+)>", content)]
        msg["mentions"] = [
            {**self.users[i].payload(), "member": self.users[i].member()}
            for i in mentioned
            if i in self.users
        ]
        data = self.public(msg)
        data["member"] = {k: v for k, v in user.member().items() if k != "user"}
        await self.dispatch("MESSAGE_CREATE", data)
        return msg

    async def wait_for(self, predicate: Any, timeout: float = 10) -> Any:
        """Poll until ``predicate()`` returns something truthy; return it."""
        async with asyncio.timeout(timeout):
            while not (found := predicate()):
                await asyncio.sleep(0.01)
        return found
