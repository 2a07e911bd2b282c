"""Autocomplete of the action option."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.service import Rooms
from bot.service.history import replay_turns
from bot.service.suggest import MAX_CHOICES, rank, suggestions
from engine import games

from .support import two_player_game, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


LEGAL = ["fleet 1", "fleet 4", "buy wood", "sell wood", "place wood 12", "place clay 13"]


def test_prefix_first_then_substring() -> None:
    assert rank(LEGAL, "fl") == ["fleet 1", "fleet 4"]
    assert rank(LEGAL, "wood") == ["buy wood", "sell wood", "place wood 12"]
    assert rank(LEGAL, "PLACE  wood") == ["place wood 12"]
    assert rank(LEGAL, "p w 12") == ["place wood 12"]
    assert rank(LEGAL, "") == LEGAL
    assert rank(LEGAL, "zzz") == []


def _match_after_fleet() -> tuple[games.Match, int, str]:
    match = games.new("yamatai", ["Ann", "Bo"], seed=5)
    seat = match.current_seat
    assert seat is not None
    fleet = match.legal_actions()[0]
    return match, seat, fleet


def test_sequence_completes_the_last_part_on_a_copy() -> None:
    match, seat, fleet = _match_after_fleet()
    found = suggestions(match, seat, f"{fleet};  pla")
    assert found and all(s.startswith(f"{fleet}; place ") for s in found)
    assert len(found) <= MAX_CHOICES and all(len(s) <= 100 for s in found)
    assert match.log == []  # the real match is untouched
    copy = games.from_json(match.to_json())
    copy.play(found[0], seat=seat)


def test_broken_prefix_and_other_players_get_nothing() -> None:
    match, seat, _fleet = _match_after_fleet()
    assert suggestions(match, seat, "fleet 99; pl") == []
    assert suggestions(match, seat, "zzz qqq") == []  # nothing close either
    assert suggestions(match, 1 - seat, "fl") == []
    assert suggestions(match, seat, "") == match.legal_actions()[:MAX_CHOICES]


def test_service_suggest(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await two_player_game(rooms)
        user = created.first.user_id or 0
        found = await rooms.playing.suggest(user, "fleet", thread_id=500)
        assert found and all(s.startswith("fleet") for s in found)
        other = next(p.user_id for p in created.players if p.user_id != user) or 0
        assert await rooms.playing.suggest(other, "fleet", thread_id=500) == []
        assert await rooms.playing.suggest(user, "fleet", thread_id=404) == []

    asyncio.run(with_service(tmp_path, body))


def _match_with_fleet_3() -> tuple[games.Match, int]:
    match = games.new("yamatai", ["Ann", "Bo"], seed=5)
    track = match.state.fleet_track
    track.remove(3)
    track.insert(0, 3)  # fleet 3 face up
    seat = match.current_seat
    assert seat is not None
    return match, seat


def test_autocomplete_never_looks_at_the_deck_for_you() -> None:
    """R29: completing after 'look' would show the deck's top tiles without playing 'look'."""
    match, seat = _match_with_fleet_3()
    assert suggestions(match, seat, "fleet 3; look; arr") == []
    assert match.log == []


def test_the_shared_log_hides_where_looked_tiles_went() -> None:
    """R30: /log shows the arrangement without the tiles (D86: as ``?`` in notation)."""
    match, seat = _match_with_fleet_3()
    match.play("fleet 3", seat=seat)
    match.play("look", seat=seat)
    looked = match.state.turn.looked
    match.play(f"arrange {' '.join(looked)}", seat=seat)
    turn = replay_turns(match)[-1]
    assert turn.actions == ("fleet 3", "look", "arrange ? ? ?")


class _LongMatch:
    """A stand-in match whose earlier actions read back long (90 characters)."""

    current_seat = 0

    def legal_actions(self) -> list[str]:
        return ["fleet 4"]

    def preview(self, text: str, seat: int) -> Any:
        return SimpleNamespace(actions=["x" * 90], legal_next=["place wood 12", "place clay 3"])


def test_a_sequence_too_long_for_any_choice_says_so() -> None:
    long: Any = _LongMatch()
    found = suggestions(long, 0, "x; place")
    assert found == [] and found.too_long
    assert suggestions(long, 0, "x; zzz") == [] and not suggestions(long, 0, "x; zzz").too_long
    match, seat, _fleet = _match_after_fleet()
    assert not suggestions(match, seat, "zzz qqq").too_long  # no match is not "too long"
    assert not suggestions(match, seat, "fl").too_long
