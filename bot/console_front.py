"""The console front end: a terminal chat in which you act as any user.

Type ``@alice /challenge @bob wa`` to speak as alice, ``/as bob`` to make bob the default
speaker, ``/chat lounge`` to move to another chat, ``/quit`` (or end of input) to leave.
Replies print as text with the board drawn in letters; images and files are written to a
folder and their paths printed.  It drives the same ``bot.core`` service as Discord and
Telegram and reads standard input whether it is a terminal (with a prompt such as
``alice@main> ``, line editing and history) or a pipe or a file (no prompt: the output stays
clean).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from bot.config import Config
from bot.core.api import Attachment, ChatKey, Handler, Platform, Reply, Request, User, clean_text
from bot.core.commands import split_command_text
from bot.core.messages import text

_SPEAKER = re.compile(r"^@([\w.-]{1,32})\s*(.*)$", re.DOTALL)
_NAME = re.compile(r"^@?([\w.-]{1,32})$")
_NUMBERED = re.compile(r"^(\d+)-")  # a file this front end wrote: 0012-board.png
BOT_NAMES = frozenset({"komabot", "bot"})  # @komabot names the bot itself, not a person
MAX_LINE = 4096
"""The longest line read: what the roomiest platform lets a person send (a Telegram message;
Discord allows 4,000).  A longer line is refused before anything parses it, and is never held
whole: it is read in pieces of this size up to its end."""


class LineTooLong:
    """Stands for a line longer than :data:`MAX_LINE`, skipped unread."""


TOO_LONG = LineTooLong()


def read_line(stream: TextIO) -> str | LineTooLong | None:
    """The next line of ``stream`` (None at its end), or :data:`TOO_LONG` for a line longer
    than :data:`MAX_LINE`, read past in pieces of that size: never more held at once."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) <= MAX_LINE or (line.endswith("\n") and len(line) == MAX_LINE + 1):
        return line
    while line and not line.endswith("\n"):
        line = stream.readline(MAX_LINE + 1)
    return TOO_LONG


class ConsoleFrontEnd:
    """A :class:`~bot.core.api.FrontEnd` on standard input and output."""

    platform: Platform = "console"
    shows_text_board = True  # the service adds the board as text to replies with an image

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
        self._interactive = _isatty(self.stdin)
        self._langs: dict[str, str] = {}  # chat name -> its language, as its replies say
        # card updates in this chat while a typed line is answered (None: none is)
        self._held: list[tuple[str, Reply]] | None = None

    @property
    def lang(self) -> str:
        """The language of the chat the console is in (its own lines follow it): as the last
        reply there said, else the language last seen anywhere, else English."""
        return self._langs.get(self.chat, self._langs.get("", "en"))

    def _learn(self, chat: str, lang: str) -> None:
        if not chat.startswith("dm:"):  # a direct message says the recipient's chat language
            self._langs[chat] = self._langs[""] = lang

    def note(self, key: str, **values: object) -> None:
        """One of the console's own lines, in the chat's language, then an empty line."""
        self.say(text(key, self.lang, **values) + "\n")

    # --- output -------------------------------------------------------------------------

    def say(self, line: str = "") -> None:
        self.stdout.write(line + "\n")
        self.stdout.flush()

    def show(self, reply: Reply, header: str | None = None) -> None:
        """Print a reply: text, board, saved image and file paths, buttons."""
        if header:
            self.say(header)
        prefix = text("console.only_you", reply.lang) + " " if reply.ephemeral else ""
        self.say(prefix + reply.text)
        if reply.text_board:
            self.say(reply.text_board)
        if reply.image is not None:
            self.say(text("console.image", reply.lang, path=self.save(reply.image)))
        for attachment in reply.files:
            self.say(text("console.file", reply.lang, path=self.save(attachment)))
        for row in reply.buttons:
            self.say("  ".join(f"[{b.label}: /{b.action}]" for b in row))
        self.say()

    def save(self, attachment: Attachment) -> Path:
        """Write ``attachment`` to the output folder as ``NNNN-name``, numbered after the
        highest number there, so names sort in the order the files were made, across
        sessions (and console processes sharing the folder)."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^\w.-]", "_", attachment.filename) or "file"
        number = _highest_number(self.out_dir)
        while True:
            number += 1
            path = self.out_dir / f"{number:04d}-{safe}"
            try:
                with path.open("xb") as file:  # never over a file another console just made
                    file.write(attachment.data)
            except FileExistsError:
                continue
            return path

    # --- Outbox -------------------------------------------------------------------------

    async def send(self, chat: ChatKey, reply: Reply) -> None:
        """Print ``reply``; a direct message (chat ``dm:<user>``) says whom it is for."""
        if chat.chat_id.startswith("dm:"):
            user = chat.chat_id.removeprefix("dm:")
            header = text("console.to_user", reply.lang, user=user)
        else:
            self._learn(chat.chat_id, reply.lang)
            header = text("console.to_chat", reply.lang, chat=chat.chat_id)
        self.show(reply, header=header)

    async def edit_card(self, chat: ChatKey, card: str, reply: Reply) -> None:
        self._learn(chat.chat_id, reply.lang)
        header = text("console.updates", reply.lang, card=card, chat=chat.chat_id)
        if self._held is not None and chat.chat_id == self.chat:
            self._held.append((header, reply))  # shown with the reply to the line being read
        else:
            self.show(reply, header=header)

    # --- input --------------------------------------------------------------------------

    async def run(self, handle: Handler, stop: asyncio.Event) -> None:
        """Answer lines from standard input until ``/quit``, end of input or ``stop``."""
        if self.banner:
            await self._ask_language(handle)
            self.note("console.banner", user=self.user, chat=self.chat, out=self.out_dir)
        with LineReader(self.stdin, self.stdout, interactive=self._interactive) as lines:
            while not stop.is_set():
                getter = asyncio.ensure_future(lines.get(f"{self.user}@{self.chat}> "))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait((getter, stopper), return_when=asyncio.FIRST_COMPLETED)
                stopper.cancel()
                if not getter.done():
                    getter.cancel()
                    break
                line = getter.result()
                if line is None:
                    break
                if isinstance(line, LineTooLong):
                    self._too_long()
                    continue
                if not await self.line(line, handle):
                    break

    async def line(self, raw: str, handle: Handler) -> bool:
        """Act on one typed line; False when the user asked to quit."""
        if len(raw) > MAX_LINE + 1:  # a terminal's own line (or a caller's) is bounded here
            self._too_long()
            return True
        line = clean_text(raw).strip()  # undecodable input arrives as lone surrogates
        if not line or line.startswith("#"):
            return True
        if not self._interactive:  # a terminal shows what was typed; a transcript needs it
            self.say(f"> {line}")
        speaker = self.user
        m = _SPEAKER.match(line)
        if m:
            speaker, line = m.group(1), m.group(2).strip()
            if speaker.lower() in BOT_NAMES:
                self.note("console.not_the_bot", user=speaker)
                return True
            if not line:
                self.note("console.say_something", user=speaker)
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
            self.note("console.not_a_command", line=repr(line))
            return True
        command, args = parsed
        target = None
        to_bot = False
        rest = []
        for word in args:
            named = _NAME.match(word)
            if word.startswith("@") and named and named.group(1).lower() in BOT_NAMES:
                to_bot = True
            elif target is None and word.startswith("@") and named:
                target = _user(named.group(1))
            else:
                rest.append(word)
        request = Request(
            chat=ChatKey("console", self.chat),
            user=_user(speaker),
            command=command,
            args=tuple(rest),
            target=target,
            options={"text_board": "1"},
            to_bot=to_bot,
        )
        self._held = []
        try:
            reply = await handle(request)
        finally:
            held, self._held = self._held, None
        self._learn(self.chat, reply.lang)
        for header, update in held:  # a card that now says what the reply says: once is enough
            if update.text != reply.text:
                self.show(update, header=header)
        self.show(reply)
        return True

    def _too_long(self) -> None:
        self.say(
            f"(a line of more than {MAX_LINE:,} characters, longer than any chat platform "
            "takes, was not read; nothing was done)\n"
        )

    async def _ask_language(self, handle: Handler) -> None:
        """Learn the chat's language before anything was said there: ``complete`` (the request
        front ends send for suggestions) changes nothing and answers in it."""
        request = Request(
            chat=ChatKey("console", self.chat), user=_user(self.user), command="complete"
        )
        with contextlib.suppress(Exception):  # the banner in English is no reason to stop
            self._learn(self.chat, (await handle(request)).lang)

    def _switch(self, what: str, words: list[str]) -> bool:
        named = _NAME.match(words[1]) if len(words) == 2 else None
        if named is None:
            self.note("console.write_as" if what == "user" else "console.write_chat")
            return True
        if what == "user" and named.group(1).lower() in BOT_NAMES:
            self.note("console.not_the_bot", user=named.group(1))
        elif what == "user":
            self.user = named.group(1)
            self.note("console.you_are", user=self.user)
        else:
            self.chat = named.group(1)
            self.note("console.in_chat", chat=self.chat)
        return True


class LineReader:
    """Standard input line by line, read on a daemon thread so the event loop keeps serving.

    From a terminal (``interactive``) each line is asked for with a prompt once the previous
    one has been answered, so the prompt comes after the reply; on the process's own terminal
    that is ``input()``, with ``readline``'s line editing and history.  From a pipe or a file
    lines are read ahead as they come, with no prompt.  ``get`` returns None at end of input.

    Used as a context manager it puts the terminal's settings back on leaving: stopped (Ctrl-C)
    while ``readline`` waits for a line, the terminal would stay without echo.
    """

    def __init__(self, stdin: TextIO, stdout: TextIO, *, interactive: bool) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.interactive = interactive
        self._lines: asyncio.Queue[str | LineTooLong | None] | None = None
        self._prompts: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._terminal: list[Any] | None = None  # termios settings to restore

    def __enter__(self) -> LineReader:
        if self.interactive and self.stdin is sys.stdin:
            with contextlib.suppress(ImportError, OSError, ValueError):
                import termios

                self._terminal = termios.tcgetattr(self.stdin.fileno())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._terminal is not None:
            import termios

            with contextlib.suppress(OSError, ValueError):
                termios.tcsetattr(self.stdin.fileno(), termios.TCSADRAIN, self._terminal)

    async def get(self, prompt: str) -> str | LineTooLong | None:
        """The next line (``prompt`` shown first in a terminal), or None at end of input;
        :data:`TOO_LONG` for a line longer than :data:`MAX_LINE` (see :func:`read_line`)."""
        if self._lines is None:
            self._lines = asyncio.Queue()
            pump = self._ask_each if self.interactive else self._read_ahead
            loop, lines = asyncio.get_running_loop(), self._lines

            def deliver(line: str | None) -> None:
                loop.call_soon_threadsafe(lines.put_nowait, line)

            threading.Thread(
                target=pump, args=(deliver,), name="console-stdin", daemon=True
            ).start()
        if self.interactive:
            self._prompts.put(prompt)
        return await self._lines.get()

    def _read_ahead(self, deliver: Callable[[str | LineTooLong | None], object]) -> None:
        # RuntimeError: the loop closed (the bot stopped); OSError/ValueError: stdin closed.
        with contextlib.suppress(RuntimeError):
            with contextlib.suppress(OSError, ValueError):
                while (raw := read_line(self.stdin)) is not None:
                    deliver(raw)
            deliver(None)

    def _ask_each(self, deliver: Callable[[str | LineTooLong | None], object]) -> None:
        read: Callable[[str], str | LineTooLong] = self._stream_input
        if self.stdin is sys.stdin:
            with contextlib.suppress(ImportError):  # absent on some platforms: plain input()
                import readline  # noqa: F401  (importing it gives input() editing and history)
            read = input
        with contextlib.suppress(RuntimeError):
            while True:
                try:
                    line = read(self._prompts.get())
                except (EOFError, OSError, ValueError):
                    with contextlib.suppress(OSError, ValueError):
                        self.stdout.write("\n")  # Ctrl-D: the shell's prompt on a new line
                        self.stdout.flush()
                    deliver(None)
                    return
                deliver(line)

    def _stream_input(self, prompt: str) -> str | LineTooLong:
        """``input()`` on streams other than the process's own (a terminal given explicitly)."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = read_line(self.stdin)
        if line is None:
            raise EOFError
        return line


def _highest_number(folder: Path) -> int:
    """The highest ``NNNN-`` number among the names in ``folder`` (0 when there is none)."""
    found = (_NUMBERED.match(p.name) for p in folder.iterdir())
    return max((int(m.group(1)) for m in found if m), default=0)


def _user(name: str) -> User:
    return User("console", name.lower(), name)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
