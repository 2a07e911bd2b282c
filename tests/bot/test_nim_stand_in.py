"""A game that brings only the contract (Nim, from tests/nim) gets stand-ins like the others."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service import Rooms
from engine import games

from .support import ANN, BO, with_service

pytestmark = pytest.mark.usefixtures("backend")


async def _nim_for_ann_and_bo(rooms: Rooms) -> int:
    created = await rooms.playing.create_game(
        game_key="nim",
        guild_id=1,
        channel_id=2,
        thread_id=3,
        players=[(ANN, "Ann"), (BO, "Bo")],
    )
    return created.game_id


async def _play_one_turn(rooms: Rooms, game_id: int) -> int:
    """The player to move takes a legal action; returns their user id."""
    game = await rooms.desk.repo.load_game(game_id)
    match = games.from_json(game.snapshot)
    seat = match.current_seat
    assert seat is not None
    user = next(s.user_id for s in game.seats if s.seat == seat)
    assert user is not None
    await rooms.playing.play(user, match.legal_actions()[0], thread_id=3)
    return user


def test_a_stand_in_plays_a_nim_seat(tmp_path: Path) -> None:
    """Bo is away: after Ann's turn the stand-in plays Bo's turn (no ``tests.nim.search``)."""

    async def body(rooms: Rooms) -> None:
        game_id = await _nim_for_ann_and_bo(rooms)
        game = await rooms.desk.repo.load_game(game_id)
        first = next(
            s.user_id for s in game.seats if s.seat == games.from_json(game.snapshot).current_seat
        )
        other = BO if first == ANN else ANN
        seat = game.seats_of(other)[0]
        await rooms.desk.repo.set_stand_in(game_id, seat, "away", now=rooms.desk.now())
        await _play_one_turn(rooms, game_id)
        reports = [r async for r in rooms.computers.computer_turns(game_id)]
        assert reports, "the stand-in plays the away seat's turn"
        after = await rooms.desk.repo.load_game(game_id)
        assert after.version > game.version + 1

    asyncio.run(with_service(tmp_path, body, fast=True))
