"""Lobby Start after a partial failure: the thread and game are reused, nothing is made twice."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.lobby_state import LobbyState
from bot.service import GameService, ServiceError
from bot.views.lobby import LobbyBook, on_lobby

from .fakes import FakeBot, FakeThread, fake_interaction, http_error
from .support import ANN, BO, with_service


class FakeLobbyMessage:
    """A lobby message that can start one thread (a second create fails like Discord's 400)."""

    def __init__(self, thread: FakeThread, cached: bool = True) -> None:
        self.id = 900
        self.embeds: list[Any] = []
        self.components: list[Any] = ["the lobby's buttons"]
        self.created: FakeThread | None = None
        self.cached = cached
        self._thread = thread
        self.creates = 0

    @property
    def thread(self) -> FakeThread | None:
        """The thread started from this message, if the cache knows it."""
        return self.created if self.cached else None

    async def create_thread(self, **kwargs: Any) -> FakeThread:
        """Start the thread; Discord refuses a second one for the same message."""
        self.creates += 1
        if self.created is not None:
            raise http_error(400)
        self.created = self._thread
        return self._thread

    async def fetch_thread(self) -> FakeThread:
        """The thread started from this message, from the API."""
        if self.created is None:
            raise http_error(404)
        return self.created


async def _edits(interaction: Any, **kwargs: Any) -> None:
    interaction.edits.append(kwargs)


def _start_click(bot: FakeBot, message: FakeLobbyMessage) -> Any:
    interaction = fake_interaction(bot, user_id=ANN, channel_id=10)
    interaction.message = message
    interaction.edits = []
    interaction.edit_original_response = lambda **kw: _edits(interaction, **kw)
    return interaction


@pytest.mark.parametrize("cached", [True, False])
def test_start_again_after_the_opening_failed_reuses_thread_and_game(
    tmp_path: Path, cached: bool
) -> None:
    async def body(service: GameService) -> None:
        thread = FakeThread(id=900, fail=[http_error(503)])
        bot = FakeBot(thread, service)
        bot.lobbies = LobbyBook()  # type: ignore[attr-defined]
        message = FakeLobbyMessage(thread, cached=cached)
        state = LobbyState("yamatai", 2, False, (ANN, BO), ("Ann", "Bo"))

        first = _start_click(bot, message)
        with pytest.raises(ServiceError) as caught:
            await on_lobby(first, "start", state, None)
        assert caught.value.key == "lobby.start_failed"
        assert 900 not in bot.lobbies.states  # not stuck: Start can be clicked again
        game_id = await service.active_game_id(900)
        assert game_id is not None and thread.sent == []

        again = _start_click(bot, message)
        await on_lobby(again, "start", state, None)
        assert message.creates == (1 if cached else 2)
        assert await service.active_game_id(900) == game_id  # the same game
        [opening] = thread.sent
        assert "begins" in opening["content"]
        assert again.edits and again.edits[0]["view"] is None
        assert bot.lobbies.states == {} and bot.lobbies.locks == {}  # closed: forgotten
        message.components = []  # what Discord shows after the edit
        with pytest.raises(ServiceError) as caught:
            await on_lobby(_start_click(bot, message), "start", state, None)
        assert caught.value.key == "error.lobby_closed"

    asyncio.run(with_service(tmp_path, body, fast=True))


def _open_lobby() -> tuple[FakeBot, FakeLobbyMessage, LobbyState, Any]:
    """A bot with one open lobby (Ann hosting, 3 seats) and Bo's click on its message."""
    bot = FakeBot()
    bot.lobbies = LobbyBook()  # type: ignore[attr-defined]
    message = FakeLobbyMessage(FakeThread())
    join = _start_click(bot, message)
    join.user.id, join.user.display_name = BO, "Bo"
    return bot, message, LobbyState("yamatai", 3, False, (ANN,), ("Ann",)), join


def test_a_click_while_start_holds_the_lobby_is_deferred_first(tmp_path: Path) -> None:
    async def body() -> None:
        bot, message, state, join = _open_lobby()
        lock = bot.lobbies.lock(message.id)
        await lock.acquire()  # Start is busy with Discord
        task = asyncio.create_task(on_lobby(join, "join", state, None))
        await asyncio.sleep(0.01)
        assert join.response.deferred == [{}] and join.edits == []  # answered in time
        lock.release()
        await task
        [edit] = join.edits
        assert edit["view"] is not None and "Bo" in str(edit["embed"].to_dict())
        quick = _start_click(bot, message)
        quick.user.id, quick.user.display_name = 303, "Cy"
        await on_lobby(quick, "join", bot.lobbies.states[message.id], None)
        assert quick.response.deferred == [] and quick.response.sent[0]["edit"]

    asyncio.run(body())


def test_a_cancelled_lobby_is_forgotten_and_later_clicks_are_refused() -> None:
    async def body() -> None:
        bot, message, state, join = _open_lobby()
        await on_lobby(join, "join", state, None)
        assert not bot.lobbies.states[message.id].closed  # an open lobby is kept
        assert bot.lobbies.locks == {}
        await on_lobby(_start_click(bot, message), "cancel", state, None)
        assert bot.lobbies.states == {} and bot.lobbies.locks == {}
        message.components = []
        late = _start_click(bot, message)
        late.user.id, late.user.display_name = 303, "Cy"
        with pytest.raises(ServiceError) as caught:
            await on_lobby(late, "join", state, None)
        assert caught.value.key == "error.lobby_closed"

    asyncio.run(body())
