"""A resignation is not refused because a computer moved meanwhile (issue 38 item 1, D207).

Against a computer, the one player left wins at once: the resignation finishes the game with
the version it read. The computer plays on while the player confirms, so its move often lands
between that read and the write; the resignation is then read again and stands, instead of
answering "this board is out of date" to a player who only wanted to stop."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.service import Rooms
from bot.store import GameStatus

from .support import ANN, play_whole_turn, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def test_the_computer_moving_while_a_player_resigns_does_not_refuse_it(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await rooms.playing.create_game(
            game_key="yamatai",
            guild_id=1,
            channel_id=2,
            thread_id=3,
            players=[(ANN, "Ann"), (None, "Computer 1")],
        )
        game_id = created.game_id
        if not created.computers_next:  # Ann plays first: her turn, so the computer is next
            await play_whole_turn(rooms, game_id)
        store = rooms.endings.store
        finish = store.resign_and_finish
        moved: list[int] = []

        async def computer_moves_first(*args: Any, **kwargs: Any) -> int:
            if not moved:  # the computer's turn is saved between the read and this write
                moved.extend([r.version async for r in rooms.computers.computer_turns(game_id)])
            return await finish(*args, **kwargs)

        store.resign_and_finish = computer_moves_first  # type: ignore[method-assign]
        resigned = await rooms.endings.resign(ANN, game_id=game_id)
        assert moved, "the computer did not move meanwhile: the test tests nothing"
        assert resigned.ended and resigned.winner is not None
        assert resigned.winner.name == "Computer 1"
        game = await rooms.desk.repo.load_game(game_id)
        assert game.status == GameStatus.FINISHED
        assert {s.player: (s.winner, s.final_rank) for s in game.seats} == {
            "Computer 1": (True, 1),
            "Ann": (False, 2),
        }

    asyncio.run(with_service(tmp_path, body, fast=True))
