"""Helpers for the bot tests: a real store (SQLite in tmp_path, or PostgreSQL) and the rooms."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from bot.custom_ids import LOBBY
from bot.lobby_state import LobbyState
from bot.service import Created, PlayResult, Rooms, build_rooms, render_picture
from bot.store import GameRepository, open_store
from tests.backends import database

T = TypeVar("T")

ANN, BO = 101, 202
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
GUILD, CHANNEL = 9, 10


async def with_service(
    tmp_path: Path,
    body: Callable[[Rooms], Awaitable[T]],
    seed: int = 7,
    *,
    fast: bool = False,
) -> T:
    """Open a store in tmp_path, run ``body`` with a service on it, close the store."""
    repo: GameRepository = await open_store(database(tmp_path, "games.sqlite3"))
    try:
        fake = fast or os.environ.get("HIMIKO_FAKE_RENDER")
        renderer = _fake_picture if fake else render_picture
        return await body(build_rooms(repo, renderer=renderer, seed_source=lambda: seed))
    finally:
        await repo.close()


def _fake_picture(view: object, events: object, *more: object) -> bytes:
    return b"\x89PNG fake"


async def two_player_game(rooms: Rooms, thread_id: int = 500) -> Created:
    """A new game for Ann and Bo in a thread."""
    return await rooms.playing.create_game(
        game_key="yamatai",
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=thread_id,
        players=[(ANN, "Ann"), (BO, "Bo")],
    )


async def play_whole_turn(rooms: Rooms, game_id: int) -> PlayResult:
    """Play the current human player's whole turn (chosen by the greedy player) through /play."""
    from engine import games
    from engine.yamatai.players import greedy_player

    game = await rooms.desk.repo.load_game(game_id)
    match = games.from_json(game.snapshot)
    seat = match.current_seat
    assert seat is not None
    before = len(match.log)
    while not any(e["type"] == "end_turn" for e in match.play(greedy_player(match.view(seat), 1))):
        pass
    text = "; ".join(t for _, t in match.log[before:])
    result = await rooms.playing.play(game.user_of(seat) or 0, text, game_id=game_id)
    assert result.turn is not None
    return result


def base36(number: int) -> str:
    """A non-negative int in base 36 (lower case), as lobby ids carried user ids."""
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = _DIGITS[digit] + text
        if number == 0:
            return text


def old_lobby_id(state: LobbyState, action: str) -> str:
    """A lobby custom id as lobbies posted before wrote it: with the user ids (base 36)."""
    fields = LOBBY.parse(state.custom_id(action))
    assert fields is not None
    return LOBBY.format(**{**fields, "players": ".".join(base36(u) for u in state.players)})
