"""Who may abandon a casual game, through the game service on SQLite and PostgreSQL: its host
while they play in it, or a member who manages threads; a host who resigned has no host rights
left over the game the others play on (``bot/service/rights.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service import Member, Rooms, ServiceError
from bot.service.results import Created

from .support import CHANNEL, GUILD, with_service

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

HOST, SECOND, THIRD, STRANGER = 101, 202, 303, 404
THREAD = 700


async def three_humans(rooms: Rooms) -> Created:
    """A Yamatai game of three humans, its host first."""
    return await rooms.playing.create_game(
        game_key="yamatai",
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=THREAD,
        players=[(HOST, "Hana"), (SECOND, "Kenji"), (THIRD, "Mio")],
    )


async def refusal(rooms: Rooms, member: Member) -> str | None:
    """The key of the refusal of ``member`` abandoning the game, None if they may."""
    try:
        await rooms.endings.may_abandon(member, thread_id=THREAD)
    except ServiceError as refused:
        return refused.key
    return None


def test_the_host_or_a_moderator_may_abandon_a_casual_game(tmp_path: Path) -> None:
    async def body(rooms: Rooms) -> None:
        created = await three_humans(rooms)
        assert await refusal(rooms, Member(HOST)) is None
        assert await refusal(rooms, Member(SECOND)) == "abandon.not_allowed"
        assert await refusal(rooms, Member(STRANGER, manage_guild=True)) == "abandon.not_allowed"
        assert await refusal(rooms, Member(STRANGER, manage_threads=True)) is None
        found = await rooms.endings.may_abandon(Member(HOST), thread_id=THREAD)
        assert found == (created.game_id, created.version, None)  # no league

    asyncio.run(with_service(tmp_path, body, fast=True))


def test_a_host_who_resigned_has_no_host_rights_left(tmp_path: Path) -> None:
    """The game goes on without the host: neither they nor another player may abandon it (or
    cancel it from its lobby); a moderator still may."""

    async def body(rooms: Rooms) -> None:
        created = await three_humans(rooms)
        resigned = await rooms.endings.resign(HOST, game_id=created.game_id)
        assert not resigned.ended
        for member in (Member(HOST), Member(SECOND)):
            assert await refusal(rooms, member) == "abandon.host_resigned"
            with pytest.raises(ServiceError):
                await rooms.endings.abandon(member, game_id=created.game_id)
        with pytest.raises(ServiceError) as cancel:
            await rooms.endings.cancel_unplayed(THREAD)
        assert cancel.value.key == "abandon.host_resigned"
        assert (await rooms.desk.repo.load_game(created.game_id)).status == "active"
        await rooms.endings.abandon(Member(STRANGER, manage_threads=True), game_id=created.game_id)
        assert (await rooms.desk.repo.load_game(created.game_id)).status == "abandoned"

    asyncio.run(with_service(tmp_path, body, fast=True))
