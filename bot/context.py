"""The typed context the cogs, views, the thread's way out and the background loops are handed.

Only the composition root (``bot/app.py``, ``bot/__main__.py``) knows the concrete classes;
everyone else depends on ``Himiko`` and on the small protocols below (the runners, the outbox,
the buttons the thread's messages carry), so the import graph of ``bot/`` runs one way:
app -> cogs and views -> thread/ and background/ -> context -> service -> store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import discord
from discord import ui

from bot.admission import Admission
from bot.catalog import Catalog
from bot.lobby_state import LobbyBook
from bot.service import Rooms, TurnId
from bot.service.messages import Owed as Owed  # a message a game owes its thread
from bot.store import GameRepository, Shards
from bot.thread.picture_queue import PictureQueue

ItemT = TypeVar("ItemT", bound=ui.DynamicItem[Any])


class Binder(Protocol):
    """The persistent buttons and menus of one bot: each class bound to its context."""

    def __call__(self, item: type[ItemT], /) -> type[ItemT]:
        """``item`` bound to the context (made once): the class to build, send and register."""
        ...


class Runner(Protocol):
    """The computer runner as its users see it: wake a game's task."""

    @property
    def unreachable(self) -> set[int]:
        """Games whose thread is gone or closed to the bot."""
        ...

    def kick(self, game_id: int) -> None:
        """Make sure the game's task runs: it posts what is owed, then plays the computers."""
        ...


class LeagueWork(Protocol):
    """The league runner as its users see it: league work in the background, per league."""

    def kick(self, league_id: int) -> None:
        """Make sure the league is moved on and its posts go out (in the background)."""
        ...

    def after_game(self, game_id: int) -> None:
        """A game ended: rate it and move its league on, if any (in the background)."""
        ...

    async def settle(self, league_id: int) -> None:
        """Move the league on now and wait until that was done (or left to the retries)."""
        ...


class QueueWork(Protocol):
    """The queue runner as its users see it: a server's queue moved on in the background."""

    def kick(self, guild_id: int) -> None:
        """Make sure the server's queue gets a pass: matches opened, expired entries told."""
        ...


class Buttons(Protocol):
    """The buttons of thread messages, as the code that posts them sees them (``bot.views``
    makes them: ``bot.views.buttons.ViewButtons``)."""

    def turn_view(
        self, game_id: int, version: int, turn: TurnId | None, locale: str | None
    ) -> ui.View:
        """A turn message's button that opens the turn panel."""
        ...

    def final_view(self, game_id: int, locale: str | None, *, coach: bool) -> ui.View:
        """A game's last message's buttons: the coach's turning points (``coach``), Rematch."""
        ...

    def web_link(
        self, game_id: int, locale: str | None, around: ui.View | None = None
    ) -> ui.View | None:
        """``around`` (or a new view) with the game's web page link; ``around`` unchanged when
        no web view is configured."""
        ...

    def rules(self, game: str, locale: str | None) -> ui.Item[ui.View]:
        """A card's Rules button: the game's overview and ``/rules`` topics, privately."""
        ...

    def skip_view(self, game_id: int, turn: str, locale: str | None) -> ui.View:
        """A deadline message's votes: skip the turn, hand the seat to the computer."""
        ...

    def more_time_view(self, game_id: int, turn: str, locale: str | None) -> ui.View:
        """A reminder's button: its player asks for 24 h more on the turn."""
        ...

    def hint_button(
        self, game_id: int, version: int, label: str
    ) -> ui.DynamicItem[ui.Button[ui.View]]:
        """The turn panel's Hint button of a coached game (``bot.views.panel_hints``)."""
        ...


class Door(Protocol):
    """The outbox as its users see it: post a game's owed message once, then record it."""

    pictures: PictureQueue  # drawn after their message: turn messages', a panel step's (D100)

    async def flush(
        self,
        game_id: int,
        known: Owed | None = None,
        channel: discord.abc.Messageable | None = None,
    ) -> bool:
        """Post the message a game still owes (read from the store unless ``known``), if any;
        True if one was posted."""
        ...

    async def pending(self) -> list[int]:
        """Games of this process's shards that still owe their thread a message."""
        ...


class Himiko(Protocol):
    """What the cogs, views, the outbox, the runner and the scheduler use of the bot."""

    @property
    def client(self) -> discord.Client:
        """The Discord client: channels, users, the bot's own user."""
        ...

    @property
    def rooms(self) -> Rooms:
        """The game services, one per room (available once the bot is set up)."""
        ...

    @property
    def repo(self) -> GameRepository | None:
        """The store (None before set-up and after closing)."""
        ...

    @property
    def catalog(self) -> Catalog:
        """The texts in every language."""
        ...

    @property
    def served_shards(self) -> Shards | None:
        """The shards this process serves (None: every guild)."""
        ...

    @property
    def clock(self) -> Callable[[], float]:
        """UTC unix seconds (tests inject their own)."""
        ...

    @property
    def sweep_interval(self) -> float:
        """Seconds between two sweeps for owed messages and stalled games."""
        ...

    @property
    def runner(self) -> Runner:
        """The computer runner."""
        ...

    @property
    def leagues(self) -> LeagueWork:
        """The league runner: standings and new tables, posted in the background."""
        ...

    @property
    def queue(self) -> QueueWork:
        """The queue runner: matches made and their games opened, in the background."""
        ...

    @property
    def buttons(self) -> Buttons:
        """The buttons of thread messages (turn, final, web link, deadline votes)."""
        ...

    @property
    def outbox(self) -> Door:
        """The outbox of thread messages."""
        ...

    @property
    def admission(self) -> Admission:
        """The gate commands and turn panel clicks pass under overload (D115, D117)."""
        ...

    @property
    def lobbies(self) -> LobbyBook:
        """The open lobbies of this process."""
        ...

    def game_page(self, game_id: int) -> str | None:
        """The address of a game's web page, or None when no web view is configured."""
        ...

    @property
    def bound(self) -> Binder:
        """The persistent item classes bound to this context (``bot.views.base.BoundItems``)."""
        ...
