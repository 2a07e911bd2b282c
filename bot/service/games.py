"""The game services, put together: one object that has them all, for the bot and the tests.

Each room is a service of its own module, given what it uses: ``tables.GameDesk`` (loading a
game, the checks), ``pictures.Pictures``, ``reports.TurnReports`` (what a thread is told),
``playing.PlayService`` (a turn: play, preview, undo, panel, suggestions, a new game),
``computers.ComputerService``, ``deadlines.DeadlineService`` (reminders, votes, away seats),
``settings.SettingsService`` (user and server settings), ``reading.ReadingService`` (board,
history, a player's games) and ``endings.EndingService`` (resign, abandon, cancel).
``GameService`` builds them and offers their calls under the names callers have always used.
No discord types here: ids are ints, results are plain dataclasses (see ``results``).
"""

from __future__ import annotations

import secrets
import time

from bot.render_pool import RenderPool
from bot.store import GameStore

from .computers import ComputerService
from .deadlines import DeadlineService
from .endings import EndingService
from .pictures import Pictures, Renderer, render_picture
from .playing import PlayService
from .reading import ReadingService
from .reports import TurnReports
from .rights import LeagueRights
from .settings import SettingsService
from .tables import RESIGNED, Clock, GameDesk, SeedSource

__all__ = ["RESIGNED", "Clock", "GameService"]


class GameService:
    """Everything a command or button does to a game, without Discord: the rooms, together."""

    def __init__(
        self,
        repo: GameStore,
        *,
        renderer: Renderer = render_picture,
        seed_source: SeedSource | None = None,
        clock: Clock = time.time,
        pool: RenderPool | None = None,
    ) -> None:
        """``pool``: where pictures are drawn (default: ``renderer`` in a thread)."""
        self.repo = repo
        self.clock = clock
        self.desk = GameDesk(repo, clock)
        self.game_over_listeners = self.desk.game_over_listeners
        self.pool = pool if pool is not None else RenderPool(0, renderer)
        self.pictures = Pictures(self.pool)
        self.reports = TurnReports(self.desk, repo, self.pictures)
        self.settings = SettingsService(repo, clock)
        self.playing = PlayService(
            self.desk,
            repo,
            self.pictures,
            self.reports,
            seed_source or (lambda: secrets.randbits(62)),
        )
        self.computers = ComputerService(self.desk, repo, self.reports)
        self.deadlines = DeadlineService(self.desk, repo, self.reports, self.settings)
        self.reading = ReadingService(self.desk, repo, self.pictures, self.deadlines)
        self.endings = EndingService(self.desk, repo)
        self._offer_calls()

    def _offer_calls(self) -> None:
        """Each room's calls, under the names the cogs, views and workers use."""
        self.now = self.desk.now
        self.warm_up = self.pictures.warm_up
        self.pending_post = self.reports.pending_post
        playing = self.playing
        self.create_game = playing.create_game
        self.play = playing.play
        self.preview = playing.preview
        self.undo = playing.undo
        self.suggest = playing.suggest
        self.panel = playing.panel
        self.panel_action = playing.panel_action
        self.computer_turns = self.computers.computer_turns
        self.pending_computer_games = self.computers.pending_computer_games
        deadlines = self.deadlines
        self.schedule_reminders = deadlines.schedule_reminders
        self.claim_due_reminders = deadlines.claim_due_reminders
        self.reminder_thread = deadlines.reminder_thread
        self.deadline_takeover = deadlines.deadline_takeover
        self.mark_reminders_sent = deadlines.mark_reminders_sent
        self.cancel_reminder = deadlines.cancel_reminder
        self.vote_skip = deadlines.vote_skip
        self.back = deadlines.back
        self.away_seats = deadlines.away_seats
        settings = self.settings
        self.user_settings = settings.user_settings
        self.set_notify = settings.set_notify
        self.set_quiet = settings.set_quiet
        self.set_vacation = settings.set_vacation
        self.end_vacation = settings.end_vacation
        self.export_settings = settings.export_settings
        self.delete_settings = settings.delete_settings
        self.server_language = settings.server_language
        self.set_server_language = settings.set_server_language
        self.delivery = settings.delivery
        reading = self.reading
        self.board = reading.board
        self.announced_version = reading.announced_version
        self.mark_announced = reading.mark_announced
        self.game_language = reading.game_language
        self.game_in_thread = reading.game_in_thread
        self.history = reading.history
        self.my_games = reading.my_games
        self.seated = reading.seated
        self.game_id = reading.game_id
        self.active_game_id = reading.active_game_id
        self.owing_games = reading.owing_games
        endings = self.endings
        self.resign = endings.resign
        self.may_abandon = endings.may_abandon
        self.abandon = endings.abandon
        self.cancel_unplayed = endings.cancel_unplayed

    @property
    def league_rights(self) -> LeagueRights | None:
        """Who may abandon a league game (set by the league service)."""
        return self.desk.league_rights

    @league_rights.setter
    def league_rights(self, rights: LeagueRights | None) -> None:
        self.desk.league_rights = rights
