"""The console front end: a terminal chat in which you act as any user.

Type ``@alice /challenge @bob wa`` to speak as alice, ``/as bob`` to make bob the default
speaker, ``/chat lounge`` to move to another chat, ``/quit`` (or end of input) to leave.
Replies print as text with the board drawn in letters; images and files are written to a
folder and their paths printed.  It drives the same ``bot.core`` service as Discord and
Telegram and reads standard input whether it is a terminal, a pipe or a file.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import threading
from pathlib import Path
from typing import TextIO

from bot.config import Config
from bot.core.api import Attachment, ChatRef, Handler, Platform, Reply, Request, User
from bot.core.commands import split_command_text

_SPEAKER = re.compile(r"^@([\w.-]{1,32})\s*(.*)$", re.DOTALL)
_NAME = re.compile(r"^@?([\w.-]{1,32})$")

BANNER = """\
Komabot console: you can act as any user.
  @alice /challenge @bob wa     speak as alice (any name), challenge bob to Wa Shogi
  @bob /accept                  bob accepts;  @alice /move 8h8g  alice moves
  /as bob                       speak as bob from now on (now: {user})
  /chat NAME                    go to another chat (now: {chat})
  /help                         the bot's commands;  /quit or Ctrl-D leaves
Buttons print as [label: /command]; type the command to press one.
Images and files go to {out}"""


class ConsoleFrontEnd:
    """A :class:`~bot.core.api.FrontEnd` on standard input and output."""

    platform: Platform = "console"

    def __init__(
        self,
        config: Config,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        user: str = "alice",
        banner: bool = True,
    ) -> None:
        self.out_dir = config.console_out
        self.chat = config.console_chat
        self.user = user
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.banner = banner
        self._counter = 0
        self._echo = not _isatty(self.stdin)

    # --- output -------------------------------------------------------------------------

    def say(self, line: str = "") -> None:
        self.stdout.write(line + "\n")
        self.stdout.flush()

    def show(self, reply: Reply, header: str | None = None) -> None:
        """Print a reply: text, board, saved image and file paths, buttons."""
        if header:
            self.say(header)
        prefix = "(only you see this) " if reply.ephemeral else ""
        self.say(prefix + reply.text)
        if reply.text_board:
            self.say(reply.text_board)
        if reply.image is not None:
            self.say(f"image: {self.save(reply.image)}")
        for attachment in reply.files:
            self.say(f"file: {self.save(attachment)}")
        for row in reply.buttons:
            self.say("  ".join(f"[{b.label}: /{b.action}]" for b in row))
        self.say()

    def save(self, attachment: Attachment) -> Path:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._counter += 1
        safe = re.sub(r"[^\w.-]", "_", attachment.filename) or "file"
        path = self.out_dir / f"{self._counter:04d}-{safe}"
        while path.exists():
            self._counter += 1
            path = self.out_dir / f"{self._counter:04d}-{safe}"
        path.write_bytes(attachment.data)
        return path

    # --- Outbox -------------------------------------------------------------------------

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        """Print ``reply``; a direct message (chat ``dm:<user>``) says whom it is for."""
        if chat.chat_id.startswith("dm:"):
            header = f"[bot to @{chat.chat_id.removeprefix('dm:')} privately]"
        else:
            header = f"[bot in chat {chat.chat_id}]"
        self.show(reply, header=header)

    async def edit_card(self, chat: ChatRef, card: str, reply: Reply) -> None:
        self.show(reply, header=f"[bot updates {card} in chat {chat.chat_id}]")

    # --- input --------------------------------------------------------------------------

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        """Answer lines from standard input until ``/quit``, end of input or ``stop``."""
        if self.banner:
            self.say(BANNER.format(user=self.user, chat=self.chat, out=self.out_dir))
            self.say()
        lines = self._reader()
        while not stop.is_set():
            getter = asyncio.ensure_future(lines.get())
            stopper = asyncio.ensure_future(stop.wait())
            await asyncio.wait((getter, stopper), return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            if not getter.done():
                getter.cancel()
                break
            line = getter.result()
            if line is None:
                break
            if not await self.line(line, handle):
                break

    def _reader(self) -> asyncio.Queue[str | None]:
        """Lines from standard input, read by a daemon thread (None at end of input)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | None] = asyncio.Queue()

        def pump() -> None:
            # RuntimeError: the loop closed (the bot stopped); OSError/ValueError: stdin closed.
            with contextlib.suppress(RuntimeError):
                try:
                    for raw in self.stdin:
                        loop.call_soon_threadsafe(queue.put_nowait, raw)
                except (OSError, ValueError):
                    pass
                loop.call_soon_threadsafe(queue.put_nowait, None)

        threading.Thread(target=pump, name="console-stdin", daemon=True).start()
        return queue

    async def line(self, raw: str, handle: Handler) -> bool:
        """Act on one typed line; False when the user asked to quit."""
        line = raw.strip()
        if not line or line.startswith("#"):
            return True
        if self._echo:
            self.say(f"> {line}")
        speaker = self.user
        m = _SPEAKER.match(line)
        if m:
            speaker, line = m.group(1), m.group(2).strip()
            if not line:
                self.say(f"(say something as {speaker}, e.g. @{speaker} /board)\n")
                return True
        words = line.split()
        head = words[0].lower().lstrip("/")
        if head in ("quit", "exit") and len(words) == 1:
            return False
        if head == "as":
            return self._switch("user", words)
        if head == "chat":
            return self._switch("chat", words)
        parsed = split_command_text(line if line.startswith("/") else "/" + line)
        if parsed is None:
            self.say(f"(not a command: {line!r}; commands start with /, e.g. /help)\n")
            return True
        command, args = parsed
        target = None
        rest = []
        for word in args:
            named = _NAME.match(word)
            if target is None and word.startswith("@") and named:
                target = _user(named.group(1))
            else:
                rest.append(word)
        request = Request(
            chat=ChatRef("console", self.chat),
            user=_user(speaker),
            command=command,
            args=tuple(rest),
            target=target,
        )
        self.show(await handle(request))
        return True

    def _switch(self, what: str, words: list[str]) -> bool:
        named = _NAME.match(words[1]) if len(words) == 2 else None
        if named is None:
            self.say(f"(write /{'as NAME' if what == 'user' else 'chat NAME'})\n")
            return True
        if what == "user":
            self.user = named.group(1)
            self.say(f"(you are now {self.user})\n")
        else:
            self.chat = named.group(1)
            self.say(f"(now in chat {self.chat})\n")
        return True


def _user(name: str) -> User:
    return User("console", name.lower(), name)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
