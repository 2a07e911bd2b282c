"""Namiji's direction of travel in the lobby (issue 21 item 11, ruling N17): the host chooses
clockwise, reversed or random; random is drawn from the games' seed source when the game starts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.discord_double import MessageRecord
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, Env, custom_id, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL
SEATS = "himiko:lobby:seats:"
DIRECTION = "himiko:lobby:direction:"  # the lobby card's own menu (D201)


def direction_menu_values(lobby: MessageRecord) -> list[str]:
    """The values the lobby's direction menu offers."""
    menu = lobby.component(custom_id(lobby, DIRECTION))
    assert menu is not None
    return [str(option["value"]) for option in menu["options"]]


async def choose(env: Env, lobby_id: int, value: str) -> MessageRecord:
    """The host picks ``value`` in the direction menu; the lobby as it is after."""
    menu = custom_id(env.double.message(lobby_id), DIRECTION)
    click = await env.double.click(HOST, CHANNEL, lobby_id, menu, values=[value])
    assert (await click.response(TIMEOUT)).type == 7
    return env.double.message(lobby_id)


async def start(env: Env, lobby_id: int) -> int:
    """Start the lobby; the new game's thread id."""
    before = {t.id for t in env.double.threads(CHANNEL)}
    click = await env.lobby_click(HOST, env.double.message(lobby_id), "start")
    await click.wait_event("edit_original", TIMEOUT)
    thread = await env.double.wait_for_thread(CHANNEL, lambda t: t.id not in before)
    return thread.id


def test_the_host_chooses_the_direction_and_the_game_sails_it(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            lobby = await env.open_lobby(HOST, seats=2, computers=True, game="namiji")
            assert "Direction of travel: clockwise" in lobby.text()
            assert direction_menu_values(lobby) == ["clockwise", "reversed", "random"]
            shown = await choose(env, lobby.id, "reversed")
            assert "Direction of travel: reversed" in shown.text()
            assert custom_id(shown, DIRECTION).endswith(":reversed")  # it lives in the ids
            assert "Seats: 2" in shown.text()  # the seats are as they were
            refused = await env.double.click(
                GUEST, CHANNEL, lobby.id, custom_id(shown, DIRECTION), values=["clockwise"]
            )
            assert (await refused.reply(TIMEOUT)).ephemeral  # the host's choice only
            assert "Direction of travel: reversed" in env.double.message(lobby.id).text()
            thread_id = await start(env, lobby.id)
            game = await env.game(thread_id)
            assert game.options == {"direction": "reversed"}
            assert (await env.match(thread_id)).view(None)["route"][1] == "N*"  # the sheet's 51
            assert "Direction of travel: reversed" in env.double.message(lobby.id).text()

    run(body)


@pytest.mark.parametrize(("drawn", "direction"), [(4, "clockwise"), (7, "reversed")])
def test_a_random_direction_is_drawn_from_the_seed_source_at_the_start(
    tmp_path: Path, drawn: int, direction: str
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            draws: list[int] = []

            def seeds() -> int:
                draws.append(drawn)
                return drawn

            env.bot._rooms = replace(env.bot.rooms, seeds=seeds)
            lobby = await env.open_lobby(HOST, seats=2, computers=True, game="namiji")
            shown = await choose(env, lobby.id, "random")
            assert "Direction of travel: drawn at random when the game starts" in shown.text()
            assert not draws  # nothing drawn before the start
            thread_id = await start(env, lobby.id)
            assert draws == [drawn]
            assert (await env.game(thread_id)).options == {"direction": direction}
            closed = env.double.message(lobby.id)
            assert f"Direction of travel: {direction}" in closed.text(), closed.text()

    run(body)


def test_only_namiji_offers_a_direction_and_a_forged_one_changes_nothing(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path, preferred_locale="fr") as env:
            lobby = await env.open_lobby(HOST, seats=2, computers=True, game="yamatai")
            assert "Sens du parcours" not in lobby.text()
            assert not [c for c in lobby.custom_ids() if c.startswith(DIRECTION)]
            menu = custom_id(lobby, SEATS)
            forged = await env.double.forged_click(
                HOST, CHANNEL, lobby.id, menu, values=["reversed"]
            )
            assert (await forged.response(TIMEOUT)).type == 7
            after = env.double.message(lobby.id)
            assert "Sens du parcours" not in after.text()
            assert custom_id(after, SEATS) == menu
            thread_id = await start(env, lobby.id)
            assert "direction" not in ((await env.game(thread_id)).options or {})
            namiji = await env.open_lobby(HOST, seats=2, computers=True, game="namiji")
            assert "Sens du parcours\xa0: sens horaire" in namiji.text()
            shown = await choose(env, namiji.id, "reversed")
            assert "Sens du parcours\xa0: sens inverse" in shown.text()

    run(body)
