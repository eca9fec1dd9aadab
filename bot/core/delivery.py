"""Messages the service sends on its own (reminders, time-out notices), delivered at least once.

A notice is written to the database's outbox in the same transaction as what it reports (the
game lost on time, the reminder's timer marked fired), so a crash can no longer lose it.  Then
:class:`Delivery` claims it with a lease, sends it through the platform's outbox and marks it
delivered only once the platform accepted it:

- a send that fails is tried again later, after 5 s, 30 s, 2 min, 10 min, 30 min, then hourly,
  for at most a day (:data:`RETRY_PAUSES`, :data:`MAX_AGE`); then it is given up, loudly;
- a send the platform refuses for good (:class:`~bot.core.api.DeliveryRefused`) goes to the
  notice's fallback chat (a reminder meant for a direct message goes to the game's chat), or
  is given up at once;
- a process that dies while holding a notice leaves a lease that runs out after
  :data:`LEASE` seconds; whoever looks next (another process, or this one restarted) sends it;
- several processes on one database never hold the same notice at once.

So nothing is lost; a crash *between* the platform accepting a message and the database
recording it gives one duplicate when the lease runs out.  Discord drops that duplicate (each
notice carries one message nonce for all its attempts, and the lease is shorter than the
minutes Discord remembers a nonce); Telegram has no such thing, so there it shows twice, as does
the part already posted of a Telegram message sent in several parts (a photo, then long text).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Mapping
from dataclasses import asdict, replace
from typing import Any

from bot.core.api import Attachment, Button, ChatKey, DeliveryRefused, Outbox, Reply, User
from bot.core.clock import Clock
from bot.store.errors import StoreUnavailable
from bot.store.interface import Store
from bot.store.models import NewNotice, NoticeRow, NoticeState

log = logging.getLogger("komabot.delivery")

RETRY_PAUSES = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0)  # after the 1st, 2nd... failure
MAX_ATTEMPTS = 40  # give up after this many tries...
MAX_AGE = 86400.0  # ...or once a notice is a day old
LEASE = 60.0  # seconds a claimed notice is held without news from its holder
SEND_TIMEOUT = 120.0  # a send that takes longer counts as failed (and is tried again)
KEEP_SETTLED = 7 * 86400.0  # settled notices are kept this long (to look into), then pruned
PRUNE_EVERY = 3600.0
PASS_LIMIT = 1000  # notices sent in one pass at most (the scheduler comes back for the rest)


def retry_pause(attempts: int) -> float:
    """Seconds to wait after the ``attempts``-th failed try."""
    return RETRY_PAUSES[min(max(attempts, 1), len(RETRY_PAUSES)) - 1]


def new_key() -> str:
    """A message key, the same for every attempt; fits Discord's nonce (25 characters)."""
    return "kb" + secrets.token_hex(10)


# --- the message as text (the outbox stores it) ------------------------------------------


def dump_reply(reply: Reply) -> str:
    """``reply`` as JSON text (attachments in base64)."""

    def attachment(a: Attachment | None) -> dict[str, str] | None:
        if a is None:
            return None
        return {"data": base64.b64encode(a.data).decode(), "filename": a.filename, "mime": a.mime}

    return json.dumps(
        {
            "text": reply.text,
            "image": attachment(reply.image),
            "files": [attachment(f) for f in reply.files],
            "buttons": [[asdict(b) for b in row] for row in reply.buttons],
            "ephemeral": reply.ephemeral,
            "mentions": [asdict(u) for u in reply.mentions],
            "card": reply.card,
            "text_board": reply.text_board,
            "silent": reply.silent,
            "thread_title": reply.thread_title,
            "lang": reply.lang,  # the language of its words (front ends add their own in it)
        },
        ensure_ascii=False,
    )


def load_reply(text: str) -> Reply:
    """The Reply :func:`dump_reply` wrote."""
    data: dict[str, Any] = json.loads(text)

    def attachment(a: dict[str, str]) -> Attachment:
        return Attachment(base64.b64decode(a["data"]), a["filename"], a["mime"])

    return Reply(
        text=data["text"],
        image=attachment(data["image"]) if data.get("image") else None,
        files=tuple(attachment(f) for f in data.get("files", ())),
        buttons=tuple(tuple(Button(**b) for b in row) for row in data.get("buttons", ())),
        ephemeral=bool(data.get("ephemeral")),
        mentions=tuple(User(**u) for u in data.get("mentions", ())),
        card=data.get("card"),
        text_board=data.get("text_board"),
        silent=bool(data.get("silent")),
        thread_title=data.get("thread_title"),
        lang=data.get("lang", "en"),  # older notices: English
    )


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:500]


class Delivery:
    """Queues notices and delivers the due ones through ``outboxes`` (by platform).

    Only notices for platforms this process has an outbox for are claimed, so a Discord
    process and a Telegram process may share one database, each sending its own.
    """

    def __init__(
        self,
        store: Store,
        clock: Clock,
        outboxes: Mapping[str, Outbox],
        *,
        owner: str | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.outboxes = outboxes  # the service's own dict: front ends attached later count
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._pruned_at: float | None = None
        self._kicked: asyncio.Task[None] | None = None
        self._again = False

    def notice(
        self,
        kind: str,
        chat: ChatKey,
        reply: Reply,
        now: float,
        *,
        game_id: int | None = None,
        game_deadline: float | None = None,
        fallback: tuple[ChatKey, Reply] | None = None,
    ) -> NewNotice:
        """A notice to queue (with a state change, or by ``store.queue_notices``)."""
        return NewNotice(
            kind=kind,
            chat=chat,
            payload=dump_reply(reply),
            key=new_key(),
            created_at=now,
            game_id=game_id,
            game_deadline=game_deadline,
            fallback=fallback[0] if fallback else None,
            fallback_payload=dump_reply(fallback[1]) if fallback else None,
        )

    def platforms(self) -> list[str]:
        return sorted(self.outboxes)

    async def next_due(self) -> float | None:
        """When a notice this process may send is due next (or a lease on one ends)."""
        return await self.store.next_notice_due(self.platforms())

    def kick(self) -> None:
        """Send the due notices now, in the background, rather than at the scheduler's next
        pass (a notice was just queued).  Kicks while a pass runs make one more pass."""
        if self._kicked is not None and not self._kicked.done():
            self._again = True
            return
        self._kicked = asyncio.ensure_future(self._passes())

    async def _passes(self) -> None:
        while True:
            self._again = False
            try:
                await self.deliver_due()
            except StoreUnavailable:
                pass  # the store logs the outage once; the scheduler tries again
            except Exception:
                log.exception("delivering notices failed; the scheduler tries again")
            if not self._again:
                return

    async def settle(self) -> None:
        """Wait for the passes :meth:`kick` started."""
        while self._kicked is not None and not self._kicked.done():
            await asyncio.shield(self._kicked)

    async def deliver_due(self) -> int:
        """Send every due notice, one claim at a time; how many the platforms accepted."""
        delivered = 0
        for _ in range(PASS_LIMIT):
            now = self.clock.now()
            claimed = await self.store.claim_notices(
                self.platforms(), now, self.owner, now + LEASE, limit=1
            )
            if not claimed:
                break
            delivered += await self._deliver(claimed[0], now)
        await self._prune(self.clock.now())
        return delivered

    async def _deliver(self, notice: NoticeRow, now: float) -> bool:
        if now - notice.created_at >= MAX_AGE:
            log.error(
                "giving up on %s notice %s to %s: undelivered for a day (%s)",
                notice.kind,
                notice.id,
                notice.chat.key,
                notice.last_error,
            )
            await self.store.finish_notice(notice.id, NoticeState.FAILED, now)
            return False
        if not await self._still_meant(notice, now):
            log.info("%s notice %s is moot now; not sent", notice.kind, notice.id)
            await self.store.finish_notice(notice.id, NoticeState.DROPPED, now)
            return False
        outbox = self.outboxes.get(notice.chat.platform)
        reply = replace(load_reply(notice.payload), idempotency_key=notice.key)
        chat = notice.chat
        try:
            if outbox is None:
                raise RuntimeError(f"no outbox for {notice.chat.platform} any more")
            async with self._leased(notice):
                await asyncio.wait_for(outbox.send(chat, reply), SEND_TIMEOUT)
        except Exception as error:
            await self._failed(notice, error)
            return False
        await self.store.finish_notice(notice.id, NoticeState.DELIVERED, self.clock.now())
        if notice.attempts > 1:
            log.info(
                "%s notice %s reached %s at attempt %d",
                notice.kind,
                notice.id,
                notice.chat.key,
                notice.attempts,
            )
        return True

    async def _still_meant(self, notice: NoticeRow, now: float) -> bool:
        """A reminder is meant while its game still has the deadline it speaks of."""
        if notice.game_id is None or notice.game_deadline is None:
            return True
        game = await self.store.get_game(notice.game_id)
        return (
            game is not None
            and game.active
            and game.deadline is not None
            and abs(game.deadline - notice.game_deadline) < 1e-6
            and now < game.deadline
        )

    async def _failed(self, notice: NoticeRow, error: Exception) -> None:
        now = self.clock.now()
        why = _describe(error)
        if notice.fallback is not None:
            # A direct message that did not go through: the game's chat gets it now instead.
            log.info(
                "%s notice %s could not go to %s (%s); sending it to %s",
                notice.kind,
                notice.id,
                notice.chat.key,
                why,
                notice.fallback.key,
            )
            await self.store.retry_notice(notice.id, self.owner, now, why, to_fallback=True)
            return
        if isinstance(error, DeliveryRefused):
            log.warning(
                "%s notice %s to %s refused for good, not sent: %s",
                notice.kind,
                notice.id,
                notice.chat.key,
                why,
            )
            await self.store.finish_notice(notice.id, NoticeState.FAILED, now, why)
            return
        pause = retry_pause(notice.attempts)
        if notice.attempts >= MAX_ATTEMPTS or now + pause - notice.created_at >= MAX_AGE:
            log.error(
                "%s notice %s to %s still failing after %d attempts, given up: %s",
                notice.kind,
                notice.id,
                notice.chat.key,
                notice.attempts,
                why,
            )
            await self.store.finish_notice(notice.id, NoticeState.FAILED, now, why)
            return
        log.warning(
            "%s notice %s to %s failed (attempt %d: %s); trying again in %.0f s",
            notice.kind,
            notice.id,
            notice.chat.key,
            notice.attempts,
            why,
            pause,
        )
        await self.store.retry_notice(notice.id, self.owner, now + pause, why)

    @contextlib.asynccontextmanager
    async def _leased(self, notice: NoticeRow) -> AsyncIterator[None]:
        """Keep the lease on ``notice`` while its send takes long (a flood wait)."""

        async def renew() -> None:
            while True:
                await self.clock.sleep(LEASE / 3)
                if not await self.store.renew_notice(
                    notice.id, self.owner, self.clock.now() + LEASE
                ):
                    log.warning("lost the lease on notice %s while sending it", notice.id)
                    return

        task = asyncio.ensure_future(renew())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _prune(self, now: float) -> None:
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return
        self._pruned_at = now
        try:
            gone = await self.store.prune_notices(now - KEEP_SETTLED)
        except StoreUnavailable:
            return  # the store logs the outage once; pruned at a later pass
        except Exception:
            log.exception("pruning old notices failed")
            return
        if gone:
            log.info("pruned %d old notices", gone)
