"""A game's record says who really played each seat: the computer seats at the level the lobby
chose, the stand-ins of absent or resigned players at the stand-ins' level (issue 38 item 7)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.service.computers import STAND_IN_LEVEL
from bot.service.records import computers_of
from bot.service.results import COMPUTER_USER_ID
from bot.store import COMPUTER_LEVELS, Game, GameStatus, Seat

NOW = datetime(2026, 11, 29, tzinfo=UTC)


def game_of(level: str) -> Game:
    """Ann (a person), Bo (resigned: a stand-in plays for him), two computer seats."""
    seats = (
        Seat(0, 11, "Ann", "red"),
        Seat(1, 12, "Bo", "blue", stand_in="resigned"),
        Seat(2, COMPUTER_USER_ID, "Computer 3", "green"),
        Seat(3, COMPUTER_USER_ID, "Computer 4", "yellow"),
    )
    return Game(
        id=1, guild_id=1, channel_id=1, thread_id=1, game_key="yamatai", options=None, seed=7,
        status=GameStatus.ACTIVE, version=0, action_count=0, current_seat=0, end_reason=None,
        created_at=NOW, updated_at=NOW, ended_at=None, seats=seats, snapshot="{}",
        computer_level=level,
    )  # fmt: skip


@pytest.mark.parametrize("level", COMPUTER_LEVELS)
def test_the_computer_seats_are_recorded_at_the_lobby_s_level(level: str) -> None:
    assert computers_of(game_of(level)) == {1: STAND_IN_LEVEL, 2: level, 3: level}


def test_a_person_s_seat_is_no_computer() -> None:
    assert 0 not in computers_of(game_of("easy"))
