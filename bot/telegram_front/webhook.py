"""The webhook receiver: Telegram POSTs updates here instead of the bot polling for them.

An aiohttp server listens on ``TELEGRAM_WEBHOOK_LISTEN:TELEGRAM_WEBHOOK_PORT`` at the path of
``TELEGRAM_WEBHOOK_URL`` (TLS usually ends at a reverse proxy or load balancer in front).  A
request without the right ``X-Telegram-Bot-Api-Secret-Token`` header is refused; a good one is
put on the application's update queue and answered 200 at once.
"""

from __future__ import annotations

import hmac
import json
import logging

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.telegram_front.settings import TelegramSettings

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 4 * 1024 * 1024


class WebhookServer:
    """Receives updates for ``application`` at the webhook URL's path."""

    def __init__(self, application: Application, settings: TelegramSettings) -> None:  # type: ignore[type-arg]
        self.application = application
        self.settings = settings
        self._runner: web.AppRunner | None = None
        self.port = settings.webhook_port

    async def start(self) -> None:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_post(self.settings.webhook_path, self._receive)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.webhook_listen, self.settings.webhook_port)
        await site.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        log.info(
            "telegram webhook listening on %s:%s%s",
            self.settings.webhook_listen,
            self.port,
            self.settings.webhook_path,
        )

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _receive(self, request: web.Request) -> web.Response:
        secret = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(secret.encode(), self.settings.secret_token.encode()):
            log.warning("telegram webhook: refused a request without the secret token")
            return web.Response(status=403, text="wrong secret token")
        try:
            data = json.loads(await request.read())
            update = Update.de_json(data, self.application.bot)
        except (ValueError, TypeError, KeyError) as error:
            log.warning("telegram webhook: unreadable update (%s)", error)
            return web.Response(status=400, text="not a Telegram update")
        await self.application.update_queue.put(update)
        return web.Response(status=200)
