"""Lobby clicks: Start after partial failures, serialized clicks, closed and stale lobbies."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import ui

from bot.lobby_state import LobbyBook, LobbyState
from bot.service import Rooms, ServiceError
from bot.views.lobby import on_lobby
from bot.views.lobby_card import player_lines
from tests.waiting import eventually

from .fakes import FakeBot, FakeThread, fake_interaction, http_error
from .support import ANN, BO, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


BOT_USER = 999


class FakeLobbyMessage:
    """The bot's lobby message: its components carry ``state``; it can start one thread."""

    def __init__(self, thread: FakeThread, state: LobbyState, cached: bool = True) -> None:
        self.id = thread.id
        self.author = SimpleNamespace(id=BOT_USER)
        self.channel = SimpleNamespace(id=10)
        self.content = ""  # a lobby's (a rematch lobby posted classic has its invitation)
        self.embeds: list[Any] = []
        self.show(state)
        self.created: FakeThread | None = None
        self.cached = cached
        self.create_fails: list[BaseException] = []
        self._thread = thread
        self.creates = 0

    def show(self, state: LobbyState | None) -> None:
        """Show this state: options in the buttons' custom ids, players in the embed (None: no
        buttons, a closed lobby)."""
        self.components: list[discord.ActionRow] = []
        if state is not None:
            start = state.custom_id("start")
            self.components = [
                discord.ActionRow(
                    {
                        "type": 1,
                        "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": start}],
                    }
                )
            ]
        if state is not None:
            embed = discord.Embed().add_field(name="👥 Players", value=player_lines(state))
            self.embeds = [embed]

    @property
    def thread(self) -> FakeThread | None:
        """The thread started from this message, if the cache knows it."""
        return self.created if self.cached else None

    async def create_thread(self, **kwargs: Any) -> FakeThread:
        """Start the thread; Discord refuses a second one for the same message."""
        self.creates += 1
        if self.create_fails:
            raise self.create_fails.pop(0)
        if self.created is not None:
            raise http_error(400)
        self.created = self._thread
        return self._thread

    async def fetch_thread(self) -> FakeThread:
        """The thread started from this message, from the API."""
        if self.created is None:
            raise http_error(404)
        return self.created


class NoGames:
    """A reading room stand-in for lobbies whose thread has no game."""

    async def active_game_id(self, thread_id: int) -> None:
        """No game anywhere."""
        return None


def _card(edit: dict[str, Any]) -> tuple[str, list[str]]:
    """What a lobby edit shows: a card (no embed), its texts and its custom ids."""
    view = edit["view"]
    assert isinstance(view, ui.LayoutView) and edit["embed"] is None
    items = list(view.walk_children())
    shown = "\n".join(i.content for i in items if isinstance(i, ui.TextDisplay))
    return shown, [i.custom_id for i in items if isinstance(i, ui.DynamicItem)]


async def _edits(interaction: Any, **kwargs: Any) -> None:
    interaction.edits.append(kwargs)


def _click(bot: FakeBot, message: FakeLobbyMessage, user: int = ANN, name: str = "Ann") -> Any:
    interaction = fake_interaction(bot, user_id=user, channel_id=10)
    interaction.user.display_name = name
    interaction.message = message
    interaction.edits = []
    interaction.edit_original_response = lambda **kw: _edits(interaction, **kw)
    return interaction


def _bot(thread: FakeThread, rooms: Any, clock: Any = None) -> FakeBot:
    bot = FakeBot(thread, rooms)
    bot.lobbies = LobbyBook() if clock is None else LobbyBook(clock=clock)
    cast(Any, bot).user = SimpleNamespace(id=BOT_USER)
    return bot


def test_start_succeeds_once_the_game_exists_and_the_opening_is_owed(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        thread = FakeThread(id=900, fail=[http_error(503)])
        bot = _bot(thread, rooms)
        message = FakeLobbyMessage(thread, LobbyState("yamatai", 2, False, (ANN, BO), ("A", "B")))
        click = _click(bot, message)
        await on_lobby(bot, click, "start", None)  # type: ignore[arg-type]
        game_id = await rooms.reading.active_game_id(900)
        assert game_id is not None and thread.sent == []  # the opening failed...
        assert bot.runner.kicked == [game_id]  # ...and is retried without another click
        assert await bot.outbox.pending() == [game_id]
        [edit] = click.edits
        texts, ids = _card(edit)
        assert ids == [] and "<#900>" in texts  # the closed card: no buttons, the thread
        assert bot.lobbies.states == {} and bot.lobbies.locks == {}  # closed: forgotten
        assert await bot.outbox.flush(game_id)  # what the runner does
        [opening] = thread.sent
        assert "begins" in opening["content"] and len(opening["nonce"]) <= 25

    asyncio.run(with_service(tmp_path, body, fast=True))


@pytest.mark.parametrize("cached", [True, False])
def test_start_again_after_the_thread_failed_reuses_it(tmp_path: Path, cached: bool) -> None:
    async def body(rooms: Rooms) -> None:
        thread = FakeThread(id=900)
        bot = _bot(thread, rooms)
        state = LobbyState("yamatai", 2, False, (ANN, BO), ("Ann", "Bo"))
        message = FakeLobbyMessage(thread, state, cached=cached)
        message.created = thread  # made, but the answer was lost
        message.create_fails = [http_error(503)]
        first = _click(bot, message)
        await on_lobby(bot, first, "start", None)  # type: ignore[arg-type]
        assert message.creates == (0 if cached else 1)  # found again instead of made twice
        assert await rooms.reading.active_game_id(900) is not None and len(thread.sent) == 1

        nothing = FakeLobbyMessage(FakeThread(id=901), state)
        nothing.create_fails = [http_error(503)]
        with pytest.raises(ServiceError) as caught:
            await on_lobby(bot, _click(bot, nothing), "start", None)  # type: ignore[arg-type]
        assert caught.value.key == "lobby.start_failed"
        assert 901 not in bot.lobbies.states  # not stuck: Start can be clicked again

    asyncio.run(with_service(tmp_path, body, fast=True))


class NoLimit:
    """A server without a limit on games (``rooms.limits``)."""

    async def check_room(self, guild_id: int | None, user_id: int) -> None:
        """Every join has room."""


def _open_lobby(clock: Any = None) -> tuple[FakeBot, FakeLobbyMessage, Any]:
    """A bot with one open lobby (Ann hosting, 3 seats) and Bo's click on its message."""
    rooms = SimpleNamespace(reading=NoGames(), desk=SimpleNamespace(repo=None), limits=NoLimit())
    bot = _bot(FakeThread(), rooms, clock)
    message = FakeLobbyMessage(FakeThread(), LobbyState("yamatai", 3, False, (ANN,), ("Ann",)))
    return bot, message, _click(bot, message, BO, "Bo")


def test_a_click_while_start_holds_the_lobby_is_deferred_first() -> None:
    async def body() -> None:
        bot, message, join = _open_lobby()
        lock = bot.lobbies.lock(message.id)
        await lock.acquire()  # Start is busy with Discord
        task = asyncio.create_task(on_lobby(bot, join, "join", None))  # type: ignore[arg-type]
        await eventually(lambda: join.response.deferred, "the click deferred")
        assert join.response.deferred == [{}] and join.edits == []  # answered in time
        lock.release()
        await task
        [edit] = join.edits
        texts, ids = _card(edit)
        assert ids and "Bo" in texts
        quick = _click(bot, message, 303, "Cy")
        await on_lobby(bot, quick, "join", None)  # type: ignore[arg-type]
        assert quick.response.deferred == [] and quick.response.sent[0]["edit"]
        assert bot.lobbies.states[message.id].players == (ANN, BO, 303)

    asyncio.run(body())


def test_a_cancelled_lobby_is_forgotten_and_later_clicks_are_refused() -> None:
    async def body() -> None:
        bot, message, join = _open_lobby()
        await on_lobby(bot, join, "join", None)  # type: ignore[arg-type]
        assert not bot.lobbies.states[message.id].closed  # an open lobby is kept
        assert bot.lobbies.locks == {}
        await on_lobby(bot, _click(bot, message), "cancel", None)  # type: ignore[arg-type]
        assert bot.lobbies.states == {} and bot.lobbies.locks == {}
        message.show(None)
        with pytest.raises(ServiceError) as caught:
            await on_lobby(bot, _click(bot, message, 303, "Cy"), "join", None)  # type: ignore[arg-type]
        assert caught.value.key == "error.lobby_closed"

    asyncio.run(body())


def test_an_untouched_lobby_is_dropped_after_a_day_and_rebuilt_from_its_message() -> None:
    async def body() -> None:
        now = [0.0]
        bot, message, join = _open_lobby(clock=lambda: now[0])
        await on_lobby(bot, join, "join", None)  # type: ignore[arg-type]
        assert message.id in bot.lobbies.states
        now[0] += 23 * 3600
        bot.lobbies.purge()
        assert message.id in bot.lobbies.states  # not a day yet
        now[0] += 2 * 3600
        bot.lobbies.purge()
        assert bot.lobbies.states == {}
        # the message still shows the lobby as the bot last posted it (Ann alone here)
        again = _click(bot, message, BO, "Bo")
        await on_lobby(bot, again, "join", None)  # type: ignore[arg-type]
        assert bot.lobbies.states[message.id].players == (ANN, BO)

    asyncio.run(body())


def test_the_state_comes_from_the_bots_message_not_the_click() -> None:
    async def body() -> None:
        bot, message, _ = _open_lobby()
        message.author = SimpleNamespace(id=BO)  # not the bot's message: no lobby there
        with pytest.raises(ServiceError) as caught:
            await on_lobby(bot, _click(bot, message, BO, "Bo"), "join", None)  # type: ignore[arg-type]
        assert caught.value.key == "error.lobby_closed"
        message.author = SimpleNamespace(id=BOT_USER)
        with pytest.raises(ServiceError) as caught:  # Bo is not the host the message names
            await on_lobby(bot, _click(bot, message, BO, "Bo"), "start", None)  # type: ignore[arg-type]
        assert caught.value.key == "error.not_host"

    asyncio.run(body())
