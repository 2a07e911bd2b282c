"""``/games`` and ``/mygames``: one listing, two scopes; a seat the computer plays for the
reader is listed with the way back (issue 21 item 10, D87)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.suggest import close_matches
from tests.e2e.harness import CHANNEL, TIMEOUT, WATCHER, custom_id, himiko_env, run
from tests.e2e.test_play import two_humans
from tests.e2e.test_reminders import HOUR
from tests.e2e.test_user_settings import say

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


def test_lists_show_seats_the_computer_plays_with_the_way_back(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, absent, other = await two_humans(env)
            env.clock.advance(48 * HOUR)
            assert await env.bot.scheduler.tick() == 1
            [message] = [m for m in double.messages(table.id) if not m.attachments]
            hand = custom_id(message, "himiko:deadline:away:")
            await (await double.click(other, table.id, message.id, hand)).reply(TIMEOUT)
            await env.bot.runner.idle()
            line = f"<#{table.id}> (Yamatai): "
            mine = await (await double.slash(absent, CHANNEL, "mygames")).reply(TIMEOUT)
            assert mine.ephemeral and mine.is_v2 and line in mine.text(), mine.text()  # D202
            assert "while you are away: `/back` to play again" in mine.text()
            table_card = await (await double.slash(absent, CHANNEL, "games")).reply(TIMEOUT)
            assert f"Yamatai in <#{table.id}>" in table_card.text()  # the server's table (D237)
            theirs = await (await double.slash(other, CHANNEL, "mygames")).reply(TIMEOUT)
            assert "/back" not in theirs.text()
            await (await double.slash(absent, table.id, "back")).reply(TIMEOUT)
            await say(env, absent, "settings vacation", until="2027-01-20")
            mine = await (await double.slash(absent, CHANNEL, "mygames")).reply(TIMEOUT)
            assert "during your vacation: `/settings vacation_end`" in mine.text()
            watching = await (await double.slash(WATCHER, CHANNEL, "games")).reply(TIMEOUT)
            assert f"Yamatai in <#{table.id}>" in watching.text()
            assert "/back" not in watching.text()
            none = await (await double.slash(WATCHER, CHANNEL, "mygames")).reply(TIMEOUT)
            assert "You have no active game" in none.text()

    run(body)


def test_autocomplete_offers_the_closest_legal_actions_for_a_typo(tmp_path: Path) -> None:
    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            table, player, _other = await two_humans(env)
            legal = (await env.match(table.id)).legal_actions()
            offered = await env.choices(player, table.id, "flet 4")
            assert offered and offered == close_matches(legal, "flet 4")
            assert all(choice.startswith("fleet ") for choice in offered)
            refused = await (await env.play(player, table.id, "flet 4")).reply(TIMEOUT)
            assert all(f"`{choice}`" in refused.content for choice in offered)

    run(body)
