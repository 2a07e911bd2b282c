"""``python -m tests.e2e.quick_bot``: ``python -m bot`` for the tests that run the bot as a
process to kill, restart or shard it (D188).

The entry point, the settings read from the environment, the start-up, the sweep and the stop
are the real ones (``bot.__main__.main``). Two things differ, both for the tests' sake:

- discord.py's wait for more guilds before ``on_ready`` is 0.05 s, as in the in-process
  harness, instead of the 2 s that ``python -m bot`` leaves at discord.py's default (the
  double sends a shard's every guild right after READY: nothing is missed by waiting less);
- the process can say when it is quiet, the way ``Env.quiet()`` does in-process: from the
  first sweep on (``on_ready``), each SIGUSR1 makes it wait until that sweep is done, no
  command or click is being handled, no computer turn runs and no picture is queued, and then
  log ``QUIET <n>`` (the n-th SIGUSR1). ``PROBE`` is logged when it listens for them.

``--forks`` makes it a fork server (``forks``): a test that starts the bot several times with
the same settings imports the bot's modules once, and each start is a fork running the same
``entry.main()``.

The tests of the entry point itself (tests/e2e/test_process.py, test_stop.py,
test_metrics_process.py, test_web_idle.py) run the real ``python -m bot``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import traceback
from typing import Any, NoReturn

from bot import __main__ as entry
from bot import app
from bot.settings import Settings

#: Seconds discord.py waits after a shard's last GUILD_CREATE before ``on_ready`` (as the
#: in-process harness, tests/e2e/harness.py).
GUILD_READY_TIMEOUT = 0.05
#: Logged once the process listens for SIGUSR1 (its first sweep has begun).
PROBE = "quick_bot: listening for SIGUSR1"
#: Logged, followed by the signal's number, once the process is quiet after a SIGUSR1.
QUIET = "quick_bot: QUIET"
#: Seconds the process may take to become quiet (a bound for a broken test).
QUIET_TIMEOUT = 10.0

log = logging.getLogger("tests.e2e.quick_bot")
_create_bot = app.create_bot


async def quiet(bot: app.HimikoBot, timeout: float = QUIET_TIMEOUT) -> None:
    """Wait until ``bot`` does nothing: no command or click handled, no computer turn, no
    picture queued (any message or answer it would send is sent by then)."""
    await asyncio.wait_for(app.answer_pending_interactions(timeout), timeout + 1)
    await asyncio.wait_for(bot.runner.idle(), timeout)
    # the runner queues its turns' pictures before it is idle; a picture queues nothing
    await asyncio.wait_for(bot.outbox.pictures.idle(), timeout)


class Probe:
    """Answers SIGUSR1 with ``QUIET <n>`` once the bot is quiet (from its first sweep on)."""

    def __init__(self, bot: app.HimikoBot) -> None:
        self.bot = bot
        self.sweep = bot.sweep
        self.swept = asyncio.Event()
        self.asked = 0
        self.tasks: set[asyncio.Task[None]] = set()

    async def first_sweep(self) -> int:
        """The bot's sweep; before the first one, the probe starts listening."""
        if self.asked == 0 and not self.swept.is_set():
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self.ask)
            log.info(PROBE)
        try:
            return await self.sweep()
        finally:
            self.swept.set()

    def ask(self) -> None:
        """A SIGUSR1: answer it once the first sweep is done and the bot is quiet."""
        self.asked += 1
        task = asyncio.get_running_loop().create_task(self.answer(self.asked))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def answer(self, number: int) -> None:
        """Log ``QUIET <number>`` once quiet."""
        await self.swept.wait()
        await quiet(self.bot)
        log.info("%s %d", QUIET, number)


def create_bot(settings: Settings, **options: Any) -> app.HimikoBot:
    """``bot.app.create_bot`` with the short wait for guilds, and the quiet probe."""
    options.setdefault("guild_ready_timeout", GUILD_READY_TIMEOUT)
    bot = _create_bot(settings, **options)
    bot.sweep = Probe(bot).first_sweep  # type: ignore[method-assign]
    return bot


def command() -> list[str]:
    """The command line that starts this module (PYTHONPATH must hold the repository)."""
    return [sys.executable, "-m", "tests.e2e.quick_bot"]


def forks_command() -> list[str]:
    """The command line of this module's fork server (``forks``)."""
    return [*command(), FORKS]


#: The argument that makes this module a fork server (``forks``).
FORKS = "--forks"


def forks() -> None:
    """A fork server, for a test that starts the bot several times with the same settings:
    the modules are imported once, here, and each bot is a fork that runs ``entry.main()`` as
    this module's own ``__main__`` does (the same environment and working directory: this
    process's). Lines on stdin: ``start <log>`` answers the child's pid (its output in
    ``<log>``); ``reap <pid>`` waits for that child and answers its wait status. At the end of
    stdin, a child not reaped is killed."""
    children: set[int] = set()
    for line in sys.stdin:
        word, argument = line.split(maxsplit=1)
        if word == "start":
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                _child(argument.strip())
            children.add(pid)
            print(pid, flush=True)
        elif word == "reap":
            pid = int(argument)
            children.discard(pid)
            print(os.waitpid(pid, 0)[1], flush=True)
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _child(log_path: str) -> NoReturn:
    """In a fork: the output into ``log_path``, no stdin, then the bot; never returns."""
    code = 1
    try:
        log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        nothing = os.open(os.devnull, os.O_RDONLY)
        os.dup2(nothing, 0)
        os.close(nothing)
        del sys.argv[1:]  # ``python -m tests.e2e.quick_bot``'s
        code = entry.main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # until the probe listens
    app.create_bot = create_bot  # ``bot.app.run`` builds its client through this name
    if sys.argv[1:] == [FORKS]:
        forks()
    else:
        sys.exit(entry.main())
