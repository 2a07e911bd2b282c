"""The game services, put together: one frozen record of the rooms, for the bot and the tests.

Each room is a service of its own module, given what it uses: ``tables.GameDesk`` (loading a
game, the checks, the clock, who is told of an end), ``pictures.Pictures``,
``reports.TurnReports`` (what a thread is told), ``playing.PlayService`` (a turn: play, preview,
undo, panel, suggestions, a new game), ``computers.ComputerService``,
``deadlines.DeadlineService`` (reminders, votes, away seats), ``settings.SettingsService`` (user
and server settings), ``reading.ReadingService`` (board, history, a player's games),
``endings.EndingService`` (resign, abandon, cancel), ``records.Records`` (a game's record
for ``/export``, the recap GIF of its final message) and ``coach.CoachService`` (hints, turning
points). Callers call the room that does the work:
``rooms.playing.play(...)``, ``rooms.deadlines.vote_skip(...)``.
No discord types here: ids are ints, results are plain dataclasses (see ``results``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from bot.render_pool import RenderPool
from bot.store import GameStore
from bot.think_pool import ThinkPool

from .coach import CoachService
from .computers import ComputerService
from .deadlines import DeadlineService
from .endings import EndingService
from .pictures import Pictures, Renderer, render_picture
from .playing import PlayService
from .reading import ReadingService
from .records import Records
from .reports import TurnReports
from .settings import SettingsService
from .tables import Clock, GameDesk, SeedSource

__all__ = ["Rooms", "build_rooms"]


@dataclass(frozen=True)
class Rooms:
    """Everything a command or button does to a game, without Discord: one field per room."""

    desk: GameDesk
    pictures: Pictures
    reports: TurnReports
    playing: PlayService
    computers: ComputerService
    deadlines: DeadlineService
    settings: SettingsService
    reading: ReadingService
    endings: EndingService
    records: Records  # /export and the recap of a game that ended
    coach: CoachService
    seeds: SeedSource  # the games' seed source: each new game's seed, a lobby's random setup


def build_rooms(
    repo: GameStore,
    *,
    renderer: Renderer = render_picture,
    seed_source: SeedSource | None = None,
    clock: Clock = time.time,
    pool: RenderPool | None = None,
    think: ThinkPool | None = None,
) -> Rooms:
    """The rooms on one store; ``pool``: where pictures are drawn (default: ``renderer`` in a
    thread); ``think``: where the computer players decide (default: in a thread)."""
    desk = GameDesk(repo, clock)
    pool = pool if pool is not None else RenderPool(0, renderer)
    pictures = Pictures(pool)
    reports = TurnReports(desk, repo, pictures)
    settings = SettingsService(repo, clock)
    seeds = seed_source or (lambda: secrets.randbits(62))
    thinking = think or ThinkPool(0)
    deadlines = DeadlineService(desk, repo, reports, settings, thinking)
    return Rooms(
        desk=desk,
        pictures=pictures,
        reports=reports,
        playing=PlayService(desk, repo, pictures, reports, seeds),
        computers=ComputerService(desk, repo, reports, thinking),
        deadlines=deadlines,
        settings=settings,
        reading=ReadingService(desk, repo, pictures, deadlines),
        endings=EndingService(desk, repo),
        records=Records(repo, pool),
        coach=CoachService(desk, repo, thinking),
        seeds=seeds,
    )
