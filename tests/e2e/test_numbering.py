"""One numbering (issue 21 item 3, D83): Namiji counts turns, and ``/board`` and ``/log`` give
a turn one number from its move to its end; Yamatai counts rounds in both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.discord_double import UserSpec
from tests.e2e.harness import GUEST, HOST, TIMEOUT, Env, himiko_env, run

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

USERS = {HOST.id: HOST, GUEST.id: GUEST}


async def caption_number(env: Env, thread_id: int, word: str) -> int:
    """The number in ``/board``'s caption ("Turn 3. ...")."""
    reply = await (await env.double.slash(HOST, thread_id, "board")).reply(TIMEOUT)
    found = re.match(rf"{word} (\d+)\. ", reply.content)
    assert found, reply.content
    return int(found[1])


async def whose(env: Env, thread_id: int) -> UserSpec:
    """The human to act (the computer's turns played first)."""
    await env.bot.runner.idle()
    current = await env.current_user(thread_id)
    assert current in USERS
    return USERS[current]


def test_namiji_turns_keep_one_number_on_the_board_and_in_the_log(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST], computers=1, game="namiji")
            for _ in range(3):
                player = await whose(env, table.id)
                number = await caption_number(env, table.id, "Turn")
                move = (await env.match(table.id)).legal_actions()[0]
                assert move.startswith("move ")
                await (await env.play(player, table.id, move)).reply(TIMEOUT)
                if await env.current_user(table.id) == player.id:  # the turn goes on
                    assert await caption_number(env, table.id, "Turn") == number
                while await env.current_user(table.id) == player.id:
                    action = (await env.match(table.id)).legal_actions()[-1]
                    await (await env.play(player, table.id, action)).reply(TIMEOUT)
                log = await (await env.double.slash(HOST, table.id, "log")).reply(TIMEOUT)
                name = player.global_name
                line = re.search(rf"\*\*{name}\*\* \(turn {number}\): [^`]*`([^`]*)`", log.content)
                assert line and line[1].startswith(move), log.content
            said = re.findall(r"\(turn (\d+)\)", log.content)
            assert [int(n) for n in said] == sorted(int(n) for n in said)
            assert "round" not in log.content

    run(body, timeout=120)


def test_yamatai_counts_rounds_on_the_board_and_in_the_log(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table = await env.start_game(HOST, [GUEST])
            player = await whose(env, table.id)
            assert await caption_number(env, table.id, "Round") == 1
            while await env.current_user(table.id) == player.id:
                action = (await env.match(table.id)).legal_actions()[0]
                await (await env.play(player, table.id, action)).reply(TIMEOUT)
            log = await (await env.double.slash(HOST, table.id, "log")).reply(TIMEOUT)
            assert f"**{player.global_name}** (round 1): " in log.content

    run(body)
