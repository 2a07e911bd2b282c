"""The time bank in the lobby's state and ids (issue 21 item 13), without Discord."""

from __future__ import annotations

import pytest

from bot.custom_ids import LOBBY
from bot.lobby_state import LobbyState, parse_bank, parse_custom_id, parse_hours
from bot.service import GameSettings
from bot.service.deadlines import bank_available, bank_of_seat
from bot.store import BankTurn


@pytest.mark.parametrize(
    ("typed", "hours"),
    [("72", 72), ("12h", 12), ("3d", 72), ("3d 12h", 84), ("2j12h", 60), ("1G", 24)],
)
def test_typed_durations_are_read_in_hours(typed: str, hours: int) -> None:
    assert parse_hours(typed) == hours


@pytest.mark.parametrize("typed", ["", "3 weeks", "-1", "1.5d", "d", "h", "12m", "9999d"])
def test_what_is_not_a_duration_reads_as_none(typed: str) -> None:
    assert parse_hours(typed) is None


def test_a_bank_is_carried_by_the_lobby_ids_and_replaces_the_deadline() -> None:
    state = LobbyState("yamatai", 2, False, (1,)).with_bank((72, 12))
    assert (state.turn_deadline, state.time_bank) == (None, (72 * 3600, 12 * 3600))
    found = parse_custom_id(state.custom_id("start"))
    assert found is not None and found[1].bank == (72, 12)
    assert state.with_deadline(24).bank is None and state.with_deadline(24).turn_deadline == 86400
    assert state.with_bank((721, 0)) == state  # more than 30 days: ignored


def test_a_forged_bank_out_of_bounds_is_no_lobby_id() -> None:
    forged = LOBBY.format(
        action="start",
        game="yamatai",
        seats=2,
        computers=False,
        players="@",
        deadline=None,
        takeover=None,
        language="en",
        level=None,
        coach=None,
        direction=None,
        bank="b999i0",
    )
    assert parse_custom_id(forged) is None
    assert parse_bank("b0i1") is None and parse_bank("b1i169") is None


def test_a_bank_gains_its_increment_up_to_its_size_and_runs_down_while_played() -> None:
    turns = [BankTurn("a", 0, 0, 100, 30), BankTurn("b", 1, 30, 100, None)]
    assert bank_of_seat(turns, 0, 100, now=1000) == 70  # ended: what it left
    assert bank_of_seat(turns, 1, 100, now=80) == 50  # being played: ticking
    assert bank_of_seat(turns, 2, 100, now=80) == 100  # no turn yet: the whole bank
    assert bank_available(70, 100, 20) == 90 and bank_available(95, 100, 20) == 100


def test_the_lobby_starts_its_game_with_the_settings_it_shows() -> None:
    state = LobbyState("yamatai", 2, False, (1,), takeover=True, language="fr")
    assert state.with_level("strong").with_coach(True).settings == GameSettings(
        turn_deadline=48 * 3600,
        computer_takeover=True,
        language="fr",
        computer_level="strong",
        coach=True,
    )
    banked = state.with_bank((72, 12)).settings
    assert (banked.turn_deadline, banked.time_bank, banked.time_increment) == (
        None,
        72 * 3600,
        12 * 3600,
    )
    assert LobbyState("yamatai", 2, False, (1,), deadline=0).settings == GameSettings()
