"""The Namiji panel and ``/log`` as a French or Polish player reads them, through the Discord
double (issue 38, play-through 46 Namiji items 31 and 26): the move menu was named after the
player's own sailing ("Avancer jusqu'à un emplacement", "Płyń na pole") while its options
moved the neutral boat; a trap's draws were told one by one ("a pioché une crevette, a pioché
une crevette, …"). Now the menu names moving a boat, and equal draws in a row are one phrase
with their number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.catalog import default_catalog
from bot.service.tables import step_of
from engine import games
from engine.namiji.components import components
from tests.discord_double import UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, WATCHER, Env, Table, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

USERS = {HOST.id: HOST, GUEST.id: GUEST}
OLD_MOVE_GROUP = {"fr": "Avancer jusqu'à un emplacement", "pl": "Płyń na pole"}
#: A shrimp drawn, as each language said it.
ONE_SHRIMP = {"fr": "a pioché une crevette", "pl": "dobiera krewetkę"}


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_move_menu_of_the_neutral_boat_names_moving_a_boat(tmp_path: Path, lang: str) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], game="namiji")  # 2 boats and the neutral
            for _ in range(60):  # single actions until the leader is to move the neutral boat
                match = await env.match(table.id)
                if step_of(match) == "namiji.step.move_neutral":
                    break
                player = USERS[await env.current_user(table.id) or 0]
                await (await env.play(player, table.id, match.legal_actions()[0])).reply(TIMEOUT)
            assert step_of(match) == "namiji.step.move_neutral"
            player = USERS[await env.current_user(table.id) or 0]
            panel = await (await env.double.slash(player, table.id, "turn", {}, locale=lang)).reply(
                TIMEOUT
            )
            shown = json.dumps(panel.components, ensure_ascii=False) + panel.content
            neutral = default_catalog().text("namiji.panel.do.move_neutral", lang, to=99)
            assert neutral.split(" 99")[0] in shown, shown  # the options move the neutral boat
            assert default_catalog().text("namiji.panel.cat.move", lang) in shown, shown
            assert OLD_MOVE_GROUP[lang] not in shown, shown

    run(body, timeout=120)


async def trap_with_a_streak(env: Env) -> tuple[Table, UserSpec, str, list[str]]:
    """A new game whose first human can sail to a trap and draw two shrimps in a row: the
    table, that player, the move and the draws to come (foreseen on a copy: the same bag)."""
    for _ in range(12):
        table = await env.start_game(HOST, [GUEST], computers=1, game="namiji")
        await env.settled()
        match = await env.match(table.id)
        route = components(str(match.view(None).get("direction"))).route
        seat = match.current_seat
        for move in match.legal_actions():
            if route[int(move.split()[1])] != "C":
                continue
            ahead = games.from_json(match.to_json())
            ahead.play(move, seat=seat)
            drawn: list[str] = []
            while "draw" in ahead.legal_actions():
                events = ahead.play("draw", seat=seat)
                drawn += [str(e["token"]) for e in events if e["type"] == "drawn"]
            if "SHSH" in "".join(drawn):
                return table, USERS[await env.current_user(table.id) or 0], move, drawn
    raise AssertionError("no game with two shrimps in a row at a trap")


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_log_says_equal_draws_once_with_their_number(tmp_path: Path, lang: str) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, move, drawn = await trap_with_a_streak(env)
            await (await env.play(player, table.id, move)).reply(TIMEOUT)
            for _ in drawn:
                await (await env.play(player, table.id, "draw")).reply(TIMEOUT)
            log = await (await env.double.slash(WATCHER, table.id, "log", locale=lang)).reply(
                TIMEOUT
            )
            assert f"{ONE_SHRIMP[lang]}, {ONE_SHRIMP[lang]}" not in log.content, log.content
            streak = max(len(run) for run in "".join(t[0] for t in drawn).split("C"))
            told = default_catalog().text("namiji.summary.drawn.SH", lang, count=streak)
            assert told in log.content, (drawn, log.content)

    run(body, timeout=180)
