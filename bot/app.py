"""Running Komabot: open the store, build the service and scheduler, run the front ends.

``run_app`` runs every front end in one event loop over one service until SIGINT/SIGTERM (or
until a front end ends, like the console at end of input), then stops taking requests, lets
the ones in flight finish their writes, and closes the database.  Front ends that remember
things (card messages, usernames) keep them in the same database, through
:class:`~bot.core.api.StateStore`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from bot.config import Config, RedactSecrets, install_redaction, redact
from bot.core.api import KeepsState
from bot.store import StoreOpenError
from bot.store.database import open_store
from rules import native
from rules.variant import load_every_variant

if TYPE_CHECKING:
    from bot.core.api import FrontEnd
    from bot.core.clock import Clock

log = logging.getLogger("komabot")

DRAIN_SECONDS = 30.0
EXIT_FRONT_END_FAILED = 1


def setup_logging(config: Config, stream: object = None) -> None:
    """One handler on the root logger (stderr), at the configured level, tokens redacted
    from every record (:func:`~bot.config.install_redaction`)."""
    install_redaction(config.secrets)
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "komabot", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)  # type: ignore[arg-type]
    handler.komabot = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(config.secrets))
    root.addHandler(handler)
    root.setLevel(config.log_level)
    for noisy in ("httpx", "httpcore", "aiosqlite"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))


async def run_app(
    config: Config,
    front_ends: Sequence[FrontEnd],
    *,
    clock: Clock | None = None,
    stop: asyncio.Event | None = None,
) -> int:
    """Serve with ``front_ends`` until a signal, ``stop``, or the first front end returns.

    Returns the exit code: 0, or :data:`EXIT_FRONT_END_FAILED` when a front end's ``run``
    raised (each failure logged as one line, tokens removed).  Raises StoreOpenError (nothing
    written) when the database cannot be used.
    """
    stop = stop or asyncio.Event()
    store = await open_store(config)
    # imported once the database is open: a start that cannot open it fails without loading
    # the game service, the engine and the drawing code
    from bot.core.clock import SystemClock
    from bot.core.scheduler import Scheduler
    from bot.core.service import GameService
    from render.board import warm as warm_render

    clock = clock or SystemClock()
    if store.read_only:
        log.warning(
            "database %s cannot be written: %s. Reading commands work; moves, challenges and "
            "settings are refused, and deadlines and reminders wait, until it can be (then "
            "restart)",
            config.database.label,
            store.read_only,
        )
    for front in front_ends:
        if isinstance(front, KeepsState):
            front.attach_state(store)
    service = GameService(store, config, clock=clock, outboxes={f.platform: f for f in front_ends})
    scheduler = Scheduler(service, clock)
    loop = asyncio.get_running_loop()
    handled_signals = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
            handled_signals.append(sig)
    log.info(
        "komabot started: database %s, front ends %s",
        config.database.label,
        ", ".join(f.platform for f in front_ends) or "none",
    )
    settle_heap()
    # Piece sprites and empty boards are drawn in the background (~2 s of work): start-up does
    # not wait, and the first board shown is as quick as any other.
    threading.Thread(target=warm_render, name="render-warm", daemon=True).start()
    if config.board_processes:
        # Boards are drawn beside the loop, on another core; each process warms its own
        # caches first (until then, boards are drawn here).
        service.pictures.start(config.board_processes)
    if not store.read_only:
        # The engine's worker processes start in the background; the games where the bot is
        # to move (the process stopped while it thought) are queued again, and so are the
        # analyses chats wait for.
        service.bot_player.start()
        service.analyse.start()  # analyses a restart cut short are run again
    tasks = [asyncio.create_task(f.run(service.handle, stop), name=f.platform) for f in front_ends]
    # Timers write (a claim, a finished game); on a read-only database they wait for a restart
    # on a writable one instead of failing every pass.
    timers = stop.wait() if store.read_only else scheduler.run(stop)
    timer_task = asyncio.create_task(timers, name="scheduler")
    failed = False
    try:
        if tasks:
            waiter = asyncio.create_task(stop.wait())
            await asyncio.wait([*tasks, waiter], return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
        else:
            await stop.wait()
    finally:
        stop.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for task, result in zip(tasks, results, strict=True):
            if isinstance(result, Exception):
                failed = True
                log.debug("front end %s failed", task.get_name(), exc_info=result)
                log.error(
                    "%s front end stopped: %s", task.get_name(), describe(result, config.secrets)
                )
        await asyncio.gather(timer_task, return_exceptions=True)  # ends after its current pass
        if not await service.drain(DRAIN_SECONDS):
            log.warning("requests still running after %.0f s; closing anyway", DRAIN_SECONDS)
        await store.close()
        for sig in handled_signals:
            loop.remove_signal_handler(sig)
        log.info("komabot stopped")
    return EXIT_FRONT_END_FAILED if failed else 0


def settle_heap() -> None:
    """Load every variant's tables (about 0.1 s), then move everything start-up made into
    the garbage collector's permanent generation (``gc.freeze``): tens of thousands of
    objects that live as long as the process and that every full collection would otherwise
    walk again, a pause of milliseconds in the middle of some player's move."""
    load_every_variant()
    gc.collect()
    gc.freeze()


def describe(error: BaseException, secrets: Sequence[str] = ()) -> str:
    """One line saying what went wrong, every secret replaced by ``***``."""
    message = " ".join(str(error).split())
    name = type(error).__name__
    if not message:
        line = name
    elif type(error).__module__ == "builtins" and type(error) is not RuntimeError:
        line = f"{name}: {message}"  # KeyError: 'x' says little without its kind
    else:
        line = message
    return redact(line, secrets)


def serve(config: Config, front_ends: Sequence[FrontEnd], prog: str = "komabot") -> int:
    """``run_app`` from synchronous code (the CLI): logging set up, exit code returned."""
    setup_logging(config)
    log.info("engine: %s", native.install().summary)  # compiled, or why pure Python
    try:
        return asyncio.run(run_app(config, front_ends))
    except StoreOpenError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


async def run_with_state(
    config: Config, front: KeepsState, job: Callable[[], Awaitable[int]]
) -> int:
    """Run a one-off front-end ``job`` (such as a command sync) with the database attached."""
    store = await open_store(config)
    try:
        front.attach_state(store)
        return await job()
    finally:
        await store.close()


def run_job(config: Config, front: KeepsState, job: Callable[[], Awaitable[int]], prog: str) -> int:
    """:func:`run_with_state` from the CLI: a failure is one line on stderr and exit code 1."""
    try:
        return asyncio.run(run_with_state(config, front, job))
    except StoreOpenError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"{prog}: {describe(exc, config.secrets)}", file=sys.stderr)
        return EXIT_FRONT_END_FAILED
