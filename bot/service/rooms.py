"""The game services, put together: one frozen record of the rooms, for the bot and the tests.

Each room is a service of its own module, given what it uses: ``tables.GameDesk`` (loading a
game, the checks, the clock, the league rights: ``rights.LeagueRightsBook``), ``pictures.Pictures``,
``reports.TurnReports`` (what a thread is told), ``playing.PlayService`` (a turn: play, preview,
undo, panel, suggestions, a new game), ``computers.ComputerService``,
``deadlines.DeadlineService`` (reminders, votes, away seats), ``settings.SettingsService`` (user
and server settings), ``reading.ReadingService`` (board, history, a player's games),
``endings.EndingService`` (resign, abandon, cancel), ``records.Records`` (a game's record
for ``/export``, the recap GIF of its final message), ``coach.CoachService`` (hints, turning
points), ``ratings.RatingService`` and ``leagues.LeagueService`` (sign-up, seating, standings;
``owed`` and ``game_ended`` for the league runner), ``messages.ThreadMessages`` (the message
a game owes its thread, prepared in one call for the outbox, then marked posted). Every room
is built here, once: nothing is set on a room afterwards. Callers call the room that does the work:
``rooms.playing.play(...)``, ``rooms.deadlines.vote_skip(...)``.
No discord types here: ids are ints, results are plain dataclasses (see ``results``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from bot.store import LeagueStore
from bot.workers.render_pool import RenderPool
from bot.workers.think_pool import ThinkPool

from .coach import CoachService
from .computers import ComputerService
from .deadlines import DeadlineService
from .endings import EndingService
from .game_pings import GamePings
from .leagues import LeagueService
from .limits import GameLimits
from .messages import ThreadMessages
from .more_time import MoreTimeService
from .notes import NotesService
from .pictures import Pictures, Renderer, render_picture
from .playing import PlayService
from .queue import QueueService
from .ratings import RatingService
from .reading import ReadingService
from .records import Records
from .reports import TurnReports
from .rights import LeagueRightsBook
from .server_table import ServerTableService
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
    ratings: RatingService  # /rating, /leaderboard, /profile; every finished game rated once
    leagues: LeagueService  # sign-up, seating, standings; what a league owes its channel
    queue: QueueService  # players waiting for a game; the groups matched and their games
    notes: NotesService  # each player's private note on a game
    more_time: MoreTimeService  # "24 h more" on a turn: asked by its player, granted by another
    server_table: ServerTableService  # the open lobbies and the queue of a server (/games)
    pings: GamePings  # how each player is pinged in each game (per-game quiet)
    limits: GameLimits  # a server's limit on one player's active games
    messages: ThreadMessages  # what a game owes its thread, prepared in one call; marked posted
    seeds: SeedSource  # the games' seed source: each new game's seed, a lobby's random setup


def build_rooms(
    repo: LeagueStore,
    *,
    renderer: Renderer = render_picture,
    seed_source: SeedSource | None = None,
    clock: Clock = time.time,
    pool: RenderPool | None = None,
    think: ThinkPool | None = None,
) -> Rooms:
    """The rooms on one store; ``pool``: where pictures are drawn (default: ``renderer`` in a
    thread); ``think``: where the computer players decide (default: in a thread)."""
    ratings = RatingService(repo)
    desk = GameDesk(repo, clock, LeagueRightsBook(repo))
    pool = pool if pool is not None else RenderPool(0, renderer)
    pictures = Pictures(pool)
    reports = TurnReports(desk, repo, pictures)
    settings = SettingsService(repo, clock)
    seeds = seed_source or (lambda: secrets.randbits(62))
    thinking = think or ThinkPool(0)
    computers = ComputerService(desk, repo, reports, thinking)
    deadlines = DeadlineService(desk, repo, reports, settings, computers)
    playing = PlayService(desk, repo, pictures, reports, seeds)
    reading = ReadingService(desk, repo, pictures, deadlines)
    endings = EndingService(desk, repo)
    records = Records(repo, pool)
    coach = CoachService(desk, repo, thinking)
    leagues = LeagueService(
        repo, ratings=ratings, reading=reading, playing=playing, endings=endings, clock=clock
    )
    queue = QueueService(repo, playing=playing, reading=reading, clock=clock)
    pings = GamePings(repo, clock)
    return Rooms(
        desk=desk,
        pictures=pictures,
        reports=reports,
        playing=playing,
        computers=computers,
        deadlines=deadlines,
        settings=settings,
        reading=reading,
        endings=endings,
        records=records,
        coach=coach,
        ratings=ratings,
        leagues=leagues,
        queue=queue,
        notes=NotesService(repo, clock),
        more_time=MoreTimeService(desk, repo, deadlines),
        server_table=ServerTableService(repo, queue=queue, reading=reading, clock=clock),
        pings=pings,
        limits=GameLimits(repo, clock),
        messages=ThreadMessages(desk, repo, reports, deadlines, settings, coach, records, pings),
        seeds=seeds,
    )
