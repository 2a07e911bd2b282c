"""A resigned player whose seat the computer finished is shown as such (issue 21 item 6, D85).

Three humans play Yamatai; the first to act resigns, the two others go on vacation, and the
computer plays every seat to the end. The final message ranks the resigner last and says their
points were the computer's; so do the result line in the lobby's channel and ``/log``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import GameStatus
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, WATCHER, custom_id, himiko_env, run
from tests.e2e.test_user_settings import say

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

MAX_ROUNDS_OF_WAITING = 200


def test_a_resigned_seat_finished_by_the_computer_is_marked_and_last(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table = await env.start_game(HOST, [GUEST, WATCHER])
            players = (HOST, GUEST, WATCHER)
            first = await env.current_user(table.id)
            quitter = next(u for u in players if u.id == first)
            ask = await (await double.slash(quitter, table.id, "resign")).reply(TIMEOUT)
            ok = custom_id(ask, "himiko:resign:ok:")
            await (await double.click(quitter, table.id, ask.id, ok)).reply(TIMEOUT)
            for other in players:
                if other is not quitter:
                    await say(env, other, "settings vacation", until="2027-01-20")
            for _ in range(MAX_ROUNDS_OF_WAITING):
                await env.bot.runner.idle()
                game = await env.game(table.id)
                if game.status != GameStatus.ACTIVE:
                    break
            assert game.status == GameStatus.FINISHED
            name = quitter.global_name
            await env.settled()  # the last turn's card brings its pictures (D200)
            final = env.turn_messages(table.id)[-1].text()
            scores = [line for line in final.splitlines() if line[:2] in ("1.", "2.", "3.")]
            assert len(scores) == 3, final
            assert scores[-1].startswith(f"3. **{name}** (resigned): "), final
            assert "(played by the computer: " in scores[-1]
            assert all("resigned" not in line for line in scores[:-1])
            result = await double.wait_for_message(
                CHANNEL, lambda m: "won a game of" in m.content, TIMEOUT
            )
            assert f"{name} " in result.content
            assert "(resigned, played by the computer)" in result.content
            log = await (await double.slash(HOST, table.id, "log")).reply(TIMEOUT)
            assert f"**{name} (resigned)**" in log.content

    run(body, timeout=180)
