"""Ids from outside: a click whose custom id carries a number out of range, or a menu value a
tampered client made up, is refused like any forged id and logs no ERROR (``himiko_env``
checks the log on the way out)."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.http import Route

from tests.discord_double import MessageRecord
from tests.e2e.harness import CHANNEL, GUEST, HOST, TIMEOUT, Env, custom_id, himiko_env, run
from tests.e2e.test_play import assert_clean_error

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL

HUGE = str(1 << 64)  # one more than the largest 64-bit snowflake
#: ids of every kind of button, each with a number out of range
OUT_OF_RANGE = (
    f"himiko:panel:refresh:{HUGE}",
    f"himiko:panel:undo:1:{HUGE}",
    f"himiko:open:{HUGE}:3.1:12",
    f"himiko:open:1:{HUGE}.1:12",
    f"himiko:resign:ok:1:{'9' * 60}:{HOST.id}",
    f"himiko:abandon:ok:{HUGE}:1:{HOST.id}",
    f"himiko:seq:ok:1:1:{HUGE}:0badf00d",
    f"himiko:deadline:skip:{HUGE}:3.1",
)


async def posted_buttons(env: Env, custom_ids: list[str]) -> MessageRecord:
    """A message of the bot's with buttons carrying these ids (as a tampered message would)."""
    buttons = [
        {"type": 2, "style": 2, "label": str(i), "custom_id": c} for i, c in enumerate(custom_ids)
    ]
    rows = [{"type": 1, "components": buttons[i : i + 5]} for i in range(0, len(buttons), 5)]
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL)
    posted = await env.bot.http.request(route, json={"content": "buttons", "components": rows})
    return env.double.message(int(posted["id"]))


def test_a_click_with_a_number_out_of_range_is_dropped_without_an_error(tmp_path: Path) -> None:
    """Each id is dropped as discord.py drops a forged one (no answer, no ERROR); a click with
    an id in range on the same message is answered (no such game)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            fair = "himiko:panel:refresh:1"
            message = await posted_buttons(env, [*OUT_OF_RANGE, fair])
            clicks = [
                await env.double.click(HOST, CHANNEL, message.id, forged) for forged in OUT_OF_RANGE
            ]
            answered = await env.double.click(HOST, CHANNEL, message.id, fair)
            assert_clean_error(await answered.reply(TIMEOUT))
            await env.quiet()
            assert [click.callback for click in clicks] == [None] * len(clicks)

    run(body)


def test_a_made_up_lobby_menu_value_changes_nothing(tmp_path: Path) -> None:
    """The seats and deadline menus with values that are not their options (a superscript
    digit, thousands of digits): the lobby is shown as it was, nothing is logged."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            lobby = await env.open_lobby(HOST, seats=2)
            before = env.double.message(lobby.id).text()
            for menu in ("seats", "deadline"):
                menu_id = custom_id(env.double.message(lobby.id), f"himiko:lobby:{menu}:")
                for value in ("²", "9" * 5000, "-1", ""):
                    click = await env.double.forged_click(
                        HOST, CHANNEL, lobby.id, menu_id, values=[value]
                    )
                    assert (await click.response(TIMEOUT)).type == 7, (menu, value[:10])
                    assert env.double.message(lobby.id).text() == before
            joined = await env.lobby_click(GUEST, env.double.message(lobby.id), "join")
            assert (await joined.response(TIMEOUT)).type == 7

    run(body)
