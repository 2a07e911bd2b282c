"""``python -m bot`` / ``himiko``: start the bot with settings from the environment or .env."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import aiohttp
import discord

from bot.ops.logs import configure_logging
from bot.settings import Settings, SettingsError, load_settings, redact_logs

EXIT_OK = 0
EXIT_SETTINGS = 2
EXIT_DATABASE = 2  # like settings: the bot cannot start until someone fixes its configuration
EXIT_LOGIN = 3
EXIT_CONNECTION = 4


def _configure_logging(settings: Settings) -> None:
    configure_logging(settings.log_level, settings.ops.log_format)  # text, or LOG_FORMAT=json
    redact_logs(settings.token)


def _fail(message: str, code: int) -> int:
    print(f"himiko: {' '.join(message.split())}", file=sys.stderr)
    return code


THREAD_GRACE = 2.0  # seconds a worker thread may still finish its work once the bot closed


def new_event_loop(choice: str = "auto") -> asyncio.AbstractEventLoop:
    """The event loop ``EVENT_LOOP`` names: uvloop's when installed, unless ``asyncio`` is asked
    (D135: the same bot on libuv spends about a seventh less CPU per command under load)."""
    if choice != "asyncio":
        try:
            import uvloop
        except ImportError:
            if choice == "uvloop":
                raise SettingsError(
                    "EVENT_LOOP is uvloop but uvloop is not installed (pip install uvloop; "
                    "it has no Windows build). Use EVENT_LOOP=auto or asyncio."
                ) from None
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()


def run_to_end(main: Coroutine[Any, Any, None], event_loop: str = "auto") -> None:
    """Run ``main`` like ``asyncio.run`` on the ``event_loop`` chosen (``new_event_loop``), but
    never wait long for a worker thread at the end.

    A computer turn or a picture computed in a thread cannot be interrupted; ``asyncio.run``
    would wait for it (many seconds) before the process could exit. Its result is not needed:
    nothing was saved from it, and the next start's sweep plays that turn again.
    """
    try:
        loop = new_event_loop(event_loop)
    except SettingsError:
        main.close()  # never awaited: no "coroutine was never awaited" warning
        raise
    workers = ThreadPoolExecutor(thread_name_prefix="himiko-worker")
    loop.set_default_executor(workers)
    try:
        loop.run_until_complete(main)
    finally:
        try:
            _cancel_remaining(loop)
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            workers.shutdown(wait=False, cancel_futures=True)
            loop.close()
    if not _threads_finished(THREAD_GRACE):
        logging.getLogger(__name__).info("stopped; a computation still running was dropped")
        _exit_now(EXIT_OK)


def _cancel_remaining(loop: asyncio.AbstractEventLoop) -> None:
    tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))


def _threads_finished(grace: float) -> bool:
    """Wait up to ``grace`` seconds for the other non-daemon threads; whether none is left."""
    deadline = time.monotonic() + grace
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join(max(0.0, deadline - time.monotonic()))
    return not any(
        t.is_alive() and not t.daemon and t is not threading.current_thread()
        for t in threading.enumerate()
    )


def _exit_now(code: int) -> None:
    """End the process at once (the interpreter would join the worker threads first)."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main() -> int:
    """Load settings, run the bot, and turn expected failures into a message and an exit code.

    ``--demo [OPTIONS]`` runs the web pages' demo instead (``python -m bot.web.demo``), so that
    the container image's one entry point serves both.
    """
    if sys.argv[1:2] == ["--demo"]:
        from bot.web.demo import main as demo

        return demo(sys.argv[2:])
    try:
        settings = load_settings()
    except SettingsError as error:
        return _fail(error.message, EXIT_SETTINGS)
    _configure_logging(settings)
    from bot.app import run
    from bot.store import StoreError

    try:
        run_to_end(run(settings), settings.event_loop)
    except KeyboardInterrupt:
        return EXIT_OK
    except discord.LoginFailure:
        return _fail(
            "Discord rejected DISCORD_TOKEN. Copy the bot token again from the developer "
            "portal (Bot -> Reset Token) into the environment or .env.",
            EXIT_LOGIN,
        )
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord requires a privileged intent that this bot does not use.", EXIT_LOGIN)
    except (aiohttp.ClientError, discord.GatewayNotFound, OSError) as error:
        return _fail(f"Cannot reach Discord: {error}", EXIT_CONNECTION)
    except discord.HTTPException as error:
        return _fail(
            f"Discord refused a request at start-up: {error.status} {error.text}", EXIT_CONNECTION
        )
    except StoreError as error:
        return _fail(f"Database {settings.database_label}: {error.message}", EXIT_DATABASE)
    except SettingsError as error:
        return _fail(error.message, EXIT_SETTINGS)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
