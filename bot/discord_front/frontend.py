"""The Discord front end: discord.py events in, service Requests out, Replies back as messages."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any, TypeVar

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.config import Config, install_redaction
from bot.core.api import ChatKey, DeliveryRefused, Handler, Platform, Reply, Request, StateStore
from bot.core.messages import text
from bot.discord_front import completion
from bot.discord_front.cards import CardIndex, CardMessage
from bot.discord_front.commands import LOCALES, CatalogueTranslator, build_group
from bot.discord_front.render import DEFAULT_UPLOAD_LIMIT, Outgoing, render
from bot.discord_front.requests import (
    button_request,
    chat_ref,
    completion_request,
    slash_request,
    text_request,
)
from bot.discord_front.settings import DiscordSettings
from bot.discord_front.views import ActionButton

log = logging.getLogger(__name__)

ANSWER_WITHIN = 2.0  # seconds to wait before deferring (Discord allows 3 for the first answer)
COMPLETE_WITHIN = 2.0  # autocomplete cannot be deferred: give up and offer nothing after this
BARE_ERROR_SECONDS = 60.0  # how long the answer to a refused bare move stays in the channel
SYNC_HASH_KEY = "commands-sha256"
DM_PREFIX = "dm:"  # ChatKey.chat_id "dm:<user id>": a direct message to that user
START_PAUSES = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # seconds between start attempts, then give up
UNREACHABLE = (OSError, aiohttp.ClientError, discord.GatewayNotFound)  # TimeoutError is an OSError
T = TypeVar("T")


class LoginRefused(discord.LoginFailure):
    """Discord refused the token; the message says so without repeating it."""

    @classmethod
    def because(cls, error: discord.LoginFailure) -> LoginRefused:
        return cls(f"Discord refused DISCORD_TOKEN ({error})")


class DiscordUnreachable(ConnectionError):
    """Discord's API or gateway could not be reached in any start attempt."""


class NoGatewaySession(ConnectionError):
    """The first gateway connection failed (its cause is the network error)."""


class KomaClient(discord.Client):
    """discord.Client carrying the command tree and a link back to the front end."""

    guards_first_connection = True  # see dispatch

    def __init__(self, front: DiscordFrontEnd, **options: Any) -> None:
        super().__init__(**options)
        self.komabot = front
        self.tree: app_commands.CommandTree[KomaClient] = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        await self.komabot.setup(self)

    async def on_ready(self) -> None:
        self.komabot.ready.set()

    async def on_message(self, message: discord.Message) -> None:
        await self.komabot.on_message(message)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("error in Discord event %s", event_method)

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch; and when a gateway connection that never opened fails, end
        ``connect`` with :class:`NoGatewaySession` so that the front end tries again.

        discord.py 2.7's ``connect`` answers a failed connection by resuming the session it
        had, reading ``self.ws.sequence``; before the first connection ``self.ws`` is None and
        that ends in ``AttributeError: 'NoneType' object has no attribute 'sequence'``, the
        network error lost.  It dispatches ``disconnect`` while handling that error, before
        the resume: the one place to step in without copying its loop.  Errors it raises
        itself (a gateway close code other than 1000) are left to it.
        """
        super().dispatch(event, *args, **kwargs)
        if event != "disconnect" or not self.guards_first_connection or self.ws is not None:
            return
        error = sys.exc_info()[1]
        if error is None or self.is_closed():
            return
        if isinstance(error, discord.ConnectionClosed) and error.code != 1000:
            return
        raise NoGatewaySession(str(error) or type(error).__name__) from error


class KomaShardedClient(discord.AutoShardedClient, KomaClient):
    """The same client over several gateway shards (each shard retries its first connection
    itself, every 5 s)."""

    guards_first_connection = False  # shards dispatch disconnect with no ``self.ws`` at all

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        spacing = self.komabot.identify_spacing
        if spacing is None:
            await super().before_identify_hook(shard_id, initial=initial)
        elif not initial:
            await asyncio.sleep(spacing)


CARD_WAIT = 3.0
"""Seconds an edit waits for a card that was just posted to be remembered."""


class DiscordFrontEnd:
    """Discord adapter implementing :class:`bot.core.api.FrontEnd`."""

    platform: Platform = "discord"

    def __init__(
        self,
        config: Config | None = None,
        *,
        settings: DiscordSettings | None = None,
        env: Mapping[str, str] | None = None,
        guild_ready_timeout: float = 0.5,
    ) -> None:
        self.settings = settings or DiscordSettings.from_env(env)
        if not self.settings.token and config is not None:
            self.settings = _with_token(self.settings, config.discord_token)
        install_redaction((self.settings.token,))  # no log line ever shows the token
        self.cards = CardIndex()  # the service's database, from attach_state
        self.ready = asyncio.Event()
        self.synced = False  # whether this start registered the slash commands
        self._guild_ready_timeout = guild_ready_timeout
        self.force_sync = False
        self.answer_within = ANSWER_WITHIN
        self.bare_error_seconds = BARE_ERROR_SECONDS
        self.identify_spacing: float | None = None  # seconds between shard logins (None: 5 s)
        self.start_pauses: tuple[float, ...] = START_PAUSES
        self._inflight: set[asyncio.Task[Any]] = set()
        self._handle: Handler | None = None
        self._client: KomaClient | None = None

    # ------------------------------------------------------------------ running

    def make_client(self) -> KomaClient:
        s = self.settings
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = s.message_content
        intents.dm_messages = s.message_content
        intents.message_content = s.message_content
        options: dict[str, Any] = {
            "intents": intents,
            "chunk_guilds_at_startup": False,
            "member_cache_flags": discord.MemberCacheFlags.none(),
            "max_messages": None,
            "guild_ready_timeout": self._guild_ready_timeout,
            "allowed_mentions": discord.AllowedMentions.none(),
            "activity": discord.Game(name=text("discord.activity")),
        }
        if s.sharded:
            options["shard_count"] = s.shard_count
            if s.shard_ids is not None:
                options["shard_ids"] = list(s.shard_ids)
            return KomaShardedClient(self, **options)
        return KomaClient(self, **options)

    def attach_state(self, state: StateStore) -> None:
        """Remember card messages and the synced commands in ``state`` (the service's DB)."""
        self.cards.attach(state)

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        """Connect, serve until ``stop`` is set, then disconnect."""
        if not self.settings.token:
            raise RuntimeError("DISCORD_TOKEN is not set: the Discord front end needs a bot token")
        if not self.cards.attached:
            raise RuntimeError("the Discord front end needs a state store (attach_state)")
        point_library_at(self.settings.api_base, self.settings.gateway_url)
        self._handle = handle
        await self.cards.forget_old()
        runner = asyncio.create_task(self._connect(), name="discord")
        stopper = asyncio.create_task(stop.wait(), name="discord-stop")
        try:
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            if runner in done:
                try:
                    runner.result()  # login failures and fatal gateway errors surface here
                except discord.PrivilegedIntentsRequired as exc:
                    raise RuntimeError(text("discord.intent_missing")) from exc
                except discord.LoginFailure as exc:
                    raise LoginRefused.because(exc) from exc
            else:
                await self._finish_inflight()
                if self._client is not None:
                    await self._client.close()
                runner.cancel()  # ends a pause between start attempts; a closed session ended
                with contextlib.suppress(asyncio.CancelledError):
                    await runner
        finally:
            if self._client is not None and not self._client.is_closed():
                await self._client.close()
            self._client = None
            self.ready.clear()

    async def _connect(self) -> None:
        """Log in and keep the gateway session (discord.py reconnects once it has one).

        While Discord cannot be reached at start, each step is tried again after each pause
        of ``start_pauses``, then given up with :class:`DiscordUnreachable`.
        """
        api = f"the Discord API at {self.settings.api_base}"
        self._client = await self._with_retries(self._logged_in_client, api)
        gateway = f"the Discord gateway at {self.settings.gateway_url}"
        await self._with_retries(self._client.connect, gateway)

    async def _logged_in_client(self) -> KomaClient:
        """A new client, logged in over REST; closed again when that fails."""
        client = self.make_client()
        try:
            await client.login(self.settings.token)
        except BaseException:
            await client.close()
            raise
        return client

    async def _with_retries(self, attempt: Callable[[], Awaitable[T]], what: str) -> T:
        """``attempt()``, tried again after each of ``start_pauses`` while it fails for want
        of a connection; after the last, :class:`DiscordUnreachable` naming ``what``."""
        for tried, pause in enumerate((*self.start_pauses, None), 1):
            try:
                return await attempt()
            except (*UNREACHABLE, NoGatewaySession) as error:
                reason = " ".join(str(error).split()) or type(error).__name__
                if pause is None:
                    raise DiscordUnreachable(
                        f"could not reach {what} ({tried} attempts): {reason}"
                    ) from error
                log.warning("could not reach %s (%s); trying again in %g s", what, reason, pause)
                await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def _finish_inflight(self, timeout: float = 15.0) -> None:
        """Let requests being answered finish (their replies and cards) before disconnecting."""
        pending = {t for t in self._inflight if not t.done()}
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            for task in late:
                task.cancel()

    @contextlib.contextmanager
    def _tracked(self) -> Iterator[None]:
        task = asyncio.current_task()
        if task is not None:
            self._inflight.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._inflight.discard(task)

    async def sync_only(self) -> int:
        """Log in, register the slash commands (even when unchanged), log out; exit code."""
        point_library_at(self.settings.api_base, self.settings.gateway_url)
        if not self.cards.attached:
            raise RuntimeError("the Discord front end needs a state store (attach_state)")
        self.force_sync = True
        async with self.make_client() as client:
            try:
                await client.login(self.settings.token)
            except discord.LoginFailure as exc:
                raise LoginRefused.because(exc) from exc
        return 0

    async def setup(self, client: KomaClient) -> None:
        """Register the persistent buttons and the ``/shogi`` commands (synced when changed)."""
        client.add_dynamic_items(ActionButton)
        client.tree.on_error = self.on_command_error  # type: ignore[method-assign]
        translator = CatalogueTranslator()
        await client.tree.set_translator(translator)
        group = build_group(self.on_slash, self.complete)
        guilds = [discord.Object(id=g) for g in self.settings.guild_ids]
        if guilds:
            for guild in guilds:
                client.tree.add_command(group, guild=guild)
        else:
            client.tree.add_command(group)
        payload = json.dumps(
            [await group.get_translated_payload(client.tree, translator), [g.id for g in guilds]],
            sort_keys=True,
            default=str,
        )
        digest = hashlib.sha256(payload.encode()).hexdigest()
        if not self.force_sync and await self.cards.get_meta(SYNC_HASH_KEY) == digest:
            return
        if guilds:
            for guild in guilds:
                await client.tree.sync(guild=guild)
        else:
            await client.tree.sync()
        await self.cards.set_meta(SYNC_HASH_KEY, digest)
        self.synced = True

    # ------------------------------------------------------------------ Outbox

    @property
    def client(self) -> KomaClient:
        if self._client is None:
            raise RuntimeError("the Discord front end is not running")
        return self._client

    async def _channel(self, chat: ChatKey) -> discord.abc.Messageable:
        if chat.chat_id.startswith(DM_PREFIX):
            user_id = int(chat.chat_id.removeprefix(DM_PREFIX))
            return await self.client.create_dm(discord.Object(id=user_id))
        return self.client.get_partial_messageable(int(chat.thread_id or chat.chat_id))

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        """Post ``reply`` in ``chat`` (or its thread); remember it when it is a card.

        Raises :class:`DeliveryRefused` when Discord refuses for good (no access, an unknown
        channel, a user who takes no direct messages); other errors may pass on a retry.  The
        reply's ``idempotency_key`` is sent as the message nonce, which Discord enforces for a
        few minutes: a retry of a send that did go through gets the message already posted
        rather than posting a second one.
        """
        try:
            channel = await self._channel(chat)
            guild = getattr(channel, "guild", None)
            out = render(reply, upload_limit=_upload_limit(guild))
            if _is_empty(out):
                return
            kwargs = out.send_kwargs()
            if reply.idempotency_key:
                kwargs["nonce"] = reply.idempotency_key
            message = await channel.send(**kwargs)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise DeliveryRefused(f"Discord refused the message to {chat.key}: {exc}") from exc
        if reply.card:
            await self.cards.remember(
                chat.key, reply.card, CardMessage(message.channel.id, message.id)
            )

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        """Edit the message showing ``card``; post it anew when that message is gone.  A card
        posted a moment ago is remembered once Discord has answered: it is looked for again
        for up to ``CARD_WAIT`` seconds before being taken for gone."""
        where = await self.cards.find(chat.key, card)
        waited = 0.0
        while where is None and waited < CARD_WAIT:
            await asyncio.sleep(0.05)
            waited += 0.05
            where = await self.cards.find(chat.key, card)
        out = render(reply)
        if where is not None:
            channel = self.client.get_partial_messageable(where.channel_id)
            try:
                await channel.get_partial_message(where.message_id).edit(**out.edit_kwargs())
                return
            except discord.NotFound:
                await self.cards.forget(chat.key, card)
            except discord.Forbidden as exc:
                log.warning("may not edit card %s in %s: %s", card, chat.key, exc)
                return
        log.info("card %s in %s has no message to edit; posting it", card, chat.key)
        await self.send(chat, reply if reply.card else _as_card(reply, card))

    # ------------------------------------------------------------------ requests

    async def _handle_safely(self, request: Request) -> Reply:
        """The one place a failure inside the service becomes a polite answer."""
        if self._handle is None:
            raise RuntimeError("the Discord front end is not running")
        try:
            return await self._handle(request)
        except Exception:
            log.exception("the service failed on %s from %s", request.command, request.user.key)
            return Reply(text("error.internal", command=request.command), ephemeral=True)

    async def on_slash(
        self, interaction: discord.Interaction[Any], command: str, values: dict[str, Any]
    ) -> None:
        request = slash_request(interaction, command, values)
        with self._tracked():
            await self.answer(interaction, request)

    async def on_button(self, interaction: discord.Interaction[Any], action: str) -> None:
        request = button_request(interaction, action)
        message = interaction.message
        # A private prompt (resign? draw?) loses its buttons once pressed: only its reader saw it.
        retire = message is not None and message.flags.ephemeral
        with self._tracked():
            try:
                await self.answer(interaction, request, retire_buttons=retire)
            except Exception as exc:
                await self.on_command_error(interaction, exc)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        request: Request,
        *,
        retire_buttons: bool = False,
    ) -> None:
        """Answer an interaction: directly when the service is quick, else defer and follow up.

        ``retire_buttons`` first removes the buttons of the message that was clicked; the reply
        then comes as a follow-up.
        """
        if self._may_thread(interaction, request):
            work = self._challenge_maybe_in_thread(interaction, request)
        else:
            work = self._handle_safely(request)
        task = asyncio.ensure_future(work)
        mode = "direct"
        if retire_buttons:
            mode = "followup"
            try:
                await interaction.response.edit_message(view=None)
            except discord.HTTPException as exc:
                log.warning("could not retire the buttons (%s)", exc)
        else:
            done, _ = await asyncio.wait({task}, timeout=self.answer_within)
            if task not in done:
                mode = "deferred"
                try:
                    await interaction.response.defer(thinking=True)
                except discord.HTTPException as exc:
                    log.warning("could not defer /%s: %s", request.command, exc)
        reply = await task
        out = render(reply, upload_limit=interaction.filesize_limit)
        try:
            message_id = await self._respond(interaction, out, mode)
        except discord.HTTPException as exc:
            # The interaction expired or was refused: what the service did must still be seen.
            log.warning("answering /%s failed (%s); posting in the channel", request.command, exc)
            if not out.ephemeral:
                await self.send(request.chat, reply)
            return
        if reply.card and not out.ephemeral and message_id is not None:
            chat = request.chat
            await self.cards.remember(
                chat.key, reply.card, CardMessage(int(chat.chat_id), message_id)
            )

    @staticmethod
    async def _respond(
        interaction: discord.Interaction[Any], out: Outgoing, mode: str
    ) -> int | None:
        """Send ``out`` as the interaction's answer; the id of the message it made, if any.

        ``mode``: ``direct`` (not acknowledged yet), ``deferred`` ("thinking..." shown) or
        ``followup`` (already acknowledged by an update of the clicked message).
        """
        if mode == "followup":
            if _is_empty(out):
                return None
            sent = await interaction.followup.send(
                ephemeral=out.ephemeral, wait=True, **out.send_kwargs()
            )
            return sent.id
        if mode == "direct":
            if _is_empty(out):
                await interaction.response.defer()
                return None
            response = await interaction.response.send_message(
                ephemeral=out.ephemeral, **out.send_kwargs()
            )
            return response.message_id
        if out.ephemeral or _is_empty(out):
            await interaction.delete_original_response()
            if _is_empty(out):
                return None
            sent = await interaction.followup.send(ephemeral=True, wait=True, **out.send_kwargs())
            return sent.id
        edited = await interaction.edit_original_response(**out.edit_kwargs())
        return edited.id

    @staticmethod
    def _may_thread(interaction: discord.Interaction[Any], request: Request) -> bool:
        return request.command == "challenge" and isinstance(
            interaction.channel, discord.TextChannel
        )

    async def _challenge_maybe_in_thread(
        self, interaction: discord.Interaction[Any], request: Request
    ) -> Reply:
        """A challenge; where the channel's ``threads`` setting is on (the service answers with
        a thread title), it goes to a new thread and the answer links to it."""
        offer = dataclasses.replace(request, options={**request.options, "threads": "1"})
        reply = await self._handle_safely(offer)
        if reply.thread_title is None:
            return reply
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        try:
            thread = await channel.create_thread(
                name=reply.thread_title[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            log.warning("no thread in %s (%s); the challenge stays in the channel", channel.id, exc)
            return await self._handle_safely(request)
        options = {**request.options, "parent": str(channel.id)}
        threaded = dataclasses.replace(
            request, chat=chat_ref(thread.id, thread.guild.id), options=options
        )
        reply = await self._handle_safely(threaded)
        if reply.ephemeral or _is_empty(render(reply)):
            await _discard_thread(thread)
            return reply
        await self.send(threaded.chat, reply)
        said = text("discord.thread_opened", reply.lang, thread=thread.mention)
        return Reply(said, lang=reply.lang)

    async def complete(
        self, interaction: discord.Interaction[Any], command: str, argument: str, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for one option; never raises, never waits past the deadline."""
        try:
            choices = await asyncio.wait_for(
                self._choices(interaction, command, argument, current), COMPLETE_WITHIN
            )
        except TimeoutError:
            log.warning("autocomplete for /%s %s=%r took too long", command, argument, current)
            choices = []
        except Exception:
            log.exception("autocomplete failed for /%s %s=%r", command, argument, current)
            choices = []
        return [app_commands.Choice(name=n, value=v) for n, v in completion.clip(choices)]

    async def _choices(
        self, interaction: discord.Interaction[Any], command: str, argument: str, current: str
    ) -> list[completion.Choice]:
        if (command, argument) == ("piece", "name"):
            variant = getattr(interaction.namespace, "variant", None)
            return completion.piece_choices(current, variant)
        if argument == "time" and command in ("challenge", "play"):
            return completion.time_choices(current)
        if (command, argument) == ("help", "command"):
            return completion.command_choices(current)
        # Game-dependent suggestions (legal moves, squares, games) come from the service.
        request = completion_request(interaction, command, argument, current)
        reply = await self._handle_safely(request)
        return [(b.label, b.action) for row in reply.buttons for b in row]

    async def on_command_error(
        self, interaction: discord.Interaction[Any], error: Exception
    ) -> None:
        """The central error handler: slash commands, buttons and autocomplete end here."""
        command = interaction.command.name if interaction.command else "shogi"
        lang = LOCALES.get(interaction.locale, "en")  # the chat's settings are not at hand
        if isinstance(error, app_commands.TransformerError):
            message = text("discord.bad_option", lang, option=str(error.value), problem=str(error))
        else:
            log.error("interaction /%s failed", command, exc_info=error)
            message = text("error.internal", lang, command=command)
        if interaction.type is discord.InteractionType.autocomplete:
            return  # nothing can be shown while someone types
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except Exception:
            log.exception("could not tell the user about the failure of /%s", command)

    # ------------------------------------------------------------------ text commands

    async def on_message(self, message: discord.Message) -> None:
        """Prefixed commands and, in opted-in channels, bare moves (Message Content intent)."""
        if message.author.bot or not self.settings.message_content:
            return
        me = self._client.user if self._client is not None else None
        request = text_request(message, self.settings, me.id if me is not None else None)
        if request is None:
            return
        with self._tracked():
            await self._answer_text(message, request)

    async def _answer_text(self, message: discord.Message, request: Request) -> None:
        reply = await self._handle_safely(request)
        if reply.silent:
            return  # not for us: a bare move where the channel has not opted in
        out = render(reply, upload_limit=_upload_limit(message.guild))
        if _is_empty(out):
            return
        kwargs = out.send_kwargs()
        if out.ephemeral and request.options.get("bare"):
            # Typed moves that fail only concern their writer: keep the channel tidy.
            kwargs["delete_after"] = self.bare_error_seconds
        try:
            sent = await message.channel.send(
                reference=message.to_reference(fail_if_not_exists=False),
                mention_author=False,
                **kwargs,
            )
        except discord.HTTPException:
            log.exception("could not answer a text command in %s", message.channel.id)
            return
        if reply.card and not out.ephemeral:
            await self.cards.remember(
                request.chat.key, reply.card, CardMessage(sent.channel.id, sent.id)
            )


def point_library_at(api_base: str, gateway_url: str) -> None:
    """Point discord.py's REST and gateway at the given base URLs (Discord's by default)."""
    discord.http.Route.BASE = api_base.rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def _discard_thread(thread: discord.Thread) -> None:
    """Remove a thread opened for a refused challenge (archive it without Manage Threads)."""
    try:
        await thread.delete()
    except discord.HTTPException:
        with contextlib.suppress(discord.HTTPException):
            await thread.edit(archived=True, locked=True)


def _upload_limit(guild: discord.Guild | None) -> int:
    return guild.filesize_limit if guild is not None else DEFAULT_UPLOAD_LIMIT


def _is_empty(out: Outgoing) -> bool:
    return not out.content and out.embed is None and not out.attachments


def _as_card(reply: Reply, card: str) -> Reply:
    return dataclasses.replace(reply, card=card)


def _with_token(settings: DiscordSettings, token: str) -> DiscordSettings:
    return dataclasses.replace(settings, token=token)
