"""The web's own pool, whose worker yields to the bot's: replays, pages and step pictures.

Viewers stepping through replays ask for many pictures; the players' turns must not wait
behind them. The web's worker (``bot.web.work`` runs in it) lowers its own scheduling priority
the first time it works: ``nice`` 19 and, on Linux, ``SCHED_IDLE`` (it runs only on a processor
nothing else wants), so on a busy machine the bot's workers and event loop get the processors
first (D76, D111). In a thread (``RenderPool(0, ...)``) nothing is changed: that would slow the
whole bot.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Sequence

from bot.service.pictures import render_picture
from bot.workers.render_pool import RenderPool
from engine.contract import Event, JsonObject
from render.extras import Extras

NICENESS = 19  # how much lower than the bot the web's workers run (the lowest)
WEB_PROCESSES = 1  # the web's own workers when the bot draws in processes

_lowered = False


def lower_priority() -> None:
    """Lower this worker process's priority once (never the bot's own process)."""
    global _lowered
    if _lowered or multiprocessing.parent_process() is None:
        return
    _lowered = True
    with contextlib.suppress(OSError, AttributeError):  # not permitted, or no nice here
        os.nice(NICENESS)
    with contextlib.suppress(OSError, AttributeError):  # Linux: only when a core is idle
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def web_picture(
    view: JsonObject,
    events: Sequence[Event] | None,
    language: str,
    ended: str | None = None,
    ranks: tuple[tuple[int, int], ...] = (),
) -> bytes:
    """A step's board picture, drawn at the web's lower priority for the page's readers, who
    watch: its title says the step in the third person ("Ann chooses a fleet", D242);
    ``ended``: how the bot ended the game (the last step's, as the Discord final board);
    ``ranks``: the result as stored, (seat, rank), ranked and named on it (D286)."""
    lower_priority()
    extras = Extras(language=language, voice="spectator", ended=ended, ranks=ranks)
    return render_picture(view, events, None, extras)


def web_pool(bot_processes: int) -> RenderPool:
    """The web's render pool: one low-priority worker if the bot draws in processes, else a
    thread (as the bot does)."""
    return RenderPool(WEB_PROCESSES if bot_processes > 0 else 0, web_picture)
