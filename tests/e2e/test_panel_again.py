"""Namiji: the player whose boat is still the last plays again; ending a turn from the panel
then shows their new turn at once (QA: the panel said "your turn is over" while the thread
pinged the same player for the next one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.panel import checksum
from engine import games
from engine.games import Match
from tests.e2e.harness import GUEST, HOST, TIMEOUT, custom_id, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MAX_ACTIONS = 600


def plays_again_after_ending(match: Match) -> bool:
    """Whether ending the turn now gives the next turn to the same seat."""
    if match.legal_actions() != ["end"]:
        return False
    after = games.from_json(match.to_json())
    after.play("end", seat=match.current_seat)
    return after.current_seat == match.current_seat


def test_ending_a_turn_with_the_last_boat_opens_the_players_next_turn(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="namiji")
            users = {HOST.id: HOST, GUEST.id: GUEST}
            for _ in range(MAX_ACTIONS):
                match = await env.match(table.id)
                user = users[await env.current_user(table.id) or 0]
                if plays_again_after_ending(match):
                    break
                action = match.legal_actions()[0]
                reply = await (await env.play(user, table.id, action)).reply(TIMEOUT)
                assert not reply.loading
                await env.settled()
            else:
                pytest.fail("no turn ended with the same player to play next")
            panel = await (await env.double.slash(user, table.id, "turn")).reply(TIMEOUT)
            end = custom_id(panel, "himiko:panel:do:")
            assert end.endswith(":" + checksum("end")), panel.custom_ids()
            click = await env.double.click(user, table.id, panel.id, end)
            await click.response(TIMEOUT)
            await click.wait_event("edit_original", TIMEOUT)
            await env.settled()
            shown = env.double.message(panel.id)
            said = shown.text()  # the panel's card (D202)
            assert shown.is_v2 and "Your turn is over" in said and "your turn again" in said
            assert any(i.startswith("himiko:panel:") for i in shown.custom_ids()), said
            assert await env.current_user(table.id) == user.id

    run(body)
