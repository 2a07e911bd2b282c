"""Summaries that read right (issue 21 item 7, D86).

A Namiji game played out by the computer: the end's reveal is its own section of the final
message, one line per player, not phrases of the last player's turn; ``/log`` read in French
names the computer players in French. Yamatai's harbor step is said as the boats kept.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.store import GameStatus
from tests.e2e.harness import HOST, TIMEOUT, Env, Table, himiko_env, run
from tests.e2e.test_user_settings import say

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MAX_WAITS = 200


async def played_out(env: Env, key: str) -> Table:
    """A game of the host and two computers, the host on vacation: played to its end."""
    table = await env.start_game(HOST, computers=2, game=key)
    await env.game(table.id)  # known while active: read again once over
    await say(env, HOST, "settings vacation", until="2027-01-20")
    for _ in range(MAX_WAITS):
        await env.bot.runner.idle()
        game = await env.game(table.id)
        if game.status != GameStatus.ACTIVE:
            break
    assert game.status == GameStatus.FINISHED
    await env.settled()  # every turn message is its card, pictures in (D200)
    return table


def test_namiji_reveal_has_its_own_section_and_computers_are_named_for_the_reader(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await played_out(env, "namiji")
            final = env.turn_messages(table.id)[-1].text_displays()[1].splitlines()
            over = final.index("Every boat has reached the port: the game is over.")
            assert not any("revealed" in line for line in final[:over]), final
            reveals = final[over + 1 : over + 4]
            names = ("Hana", "Computer 1 (normal)", "Computer 2 (normal)")
            # a player with no sacred rock card "had no sacred rock card" (issue 38 leftovers)
            said = [re.split(" revealed | had no ", line)[0] for line in reveals]
            assert sorted(said) == sorted(names), reveals
            assert all(", scored " in line for line in reveals), reveals
            french = replace(HOST, locale="fr")
            log = await (await env.double.slash(french, table.id, "log", {}, locale="fr")).reply(
                TIMEOUT
            )
            assert "Ordinateur 1 (normal)" in log.content or "Ordinateur 2 (normal)" in log.content
            assert "Computer" not in log.content, log.content

    run(body, timeout=180)


def test_yamatai_harbor_is_said_as_the_boats_kept(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await played_out(env, "yamatai")
            said = "\n".join(m.text() for m in env.turn_messages(table.id))
            assert re.search(r"kept (a|\d+) \w+ boats? in the harbor", said), said[-2000:]

    run(body, timeout=180)
