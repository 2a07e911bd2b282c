"""A restart of the bot: old buttons keep working, stale ones are answered "out of date"."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import TIMEOUT, custom_id, has_png, himiko_env, run
from tests.e2e.test_play import assert_clean_error, public, rest_of_turn, two_humans

pytestmark = pytest.mark.usefixtures("backend")  # runs on SQLite and on PostgreSQL


OUT_OF_DATE = "This board is out of date"


def test_restart_keeps_old_buttons_working_and_stale_ones_out_of_date(tmp_path: Path) -> None:
    """Close the bot, start a new one on the same database and double, click old buttons."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, other = await two_humans(env)
            opening_button = custom_id(table.opening, "himiko:open:")

            # one action, then a preview of the rest of the turn (not confirmed yet)
            first = (await env.choices(player, table.id, ""))[0]
            await (await env.play(player, table.id, first)).reply(TIMEOUT)
            rest = rest_of_turn(await env.match(table.id))
            sequence = "; ".join(rest)
            rec = await env.play(player, table.id, sequence)
            preview = await rec.reply(TIMEOUT)
            confirm = custom_id(preview, "himiko:seq:ok:")
            version = await env.version(table.id)

            old_bot = env.bot
            await env.restart()
            assert env.bot is not old_bot and old_bot.is_closed()
            assert len(double.gateway.identify_payloads) == 2  # a new session, not a resume
            assert len(double.state.command_syncs) == 4  # the guild's and the global, twice

            # the preview's Confirm, made by the old process, is handled by the new one
            posted = len(public(env, table))
            click = await double.click(player, table.id, preview.id, confirm)
            await click.wait_event("edit_original", TIMEOUT)
            assert "Your turn is over" in double.message(preview.id).content
            assert await env.version(table.id) > version
            assert await env.current_user(table.id) == other.id
            [turn] = public(env, table)[posted:]
            await env.settled()  # its picture follows it
            assert has_png(turn) and turn.pinged_user_ids() == [other.id]

            # the opening board's button is stale now: out of date, nothing opened
            stale = await double.click(other, table.id, table.opening.id, opening_button)
            answer = await stale.reply(TIMEOUT)
            assert_clean_error(answer)
            assert OUT_OF_DATE in answer.content and answer.custom_ids() == []

            # restart again: the latest turn message's button opens the panel
            await env.restart()
            assert len(double.gateway.identify_payloads) == 3
            button = custom_id(turn, "himiko:open:")
            click = await double.click(other, table.id, turn.id, button)
            panel = await click.reply(TIMEOUT)
            assert panel.ephemeral and has_png(panel) and panel.is_v2
            assert "Your turn" in panel.text()
            ids = panel.custom_ids()
            assert any(i.startswith("himiko:panel:act:") for i in ids), ids
            # ...and only for the player it pinged
            click = await double.click(player, table.id, turn.id, button)
            assert_clean_error(await click.reply(TIMEOUT))

            # an action chosen in the panel is applied by the new process
            act = next(i for i in ids if i.startswith("himiko:panel:act:"))
            options = panel.component(act)
            assert options is not None
            value = options["options"][0]["value"]
            before = await env.version(table.id)
            chosen = await double.click(other, table.id, panel.id, act, [value])
            await chosen.wait_event("edit_original", TIMEOUT)
            assert await env.version(table.id) > before
            assert (await env.match(table.id)).log[-1][1] == value

            # the panel moved on in place: its menus now carry the new version
            moved = double.message(panel.id)
            assert act not in moved.custom_ids()
            version = await env.version(table.id)
            assert any(i.endswith(f":{version}:0") for i in moved.custom_ids()), moved.custom_ids()

    run(body)


def test_an_old_button_works_after_a_restart_and_a_new_view_of_its_kind(tmp_path: Path) -> None:
    """discord.py registers again the class of every persistent item in a view it sends: after a
    restart, a new preview (its Confirm of the same class) is sent before the old Confirm is
    clicked, and the old one still reaches the context (the bound class, not the bare one)."""

    async def body() -> None:
        async with himiko_env(tmp_path) as env:
            double = env.double
            table, player, other = await two_humans(env)
            sequence = "; ".join(rest_of_turn(await env.match(table.id)))
            preview = await (await env.play(player, table.id, sequence)).reply(TIMEOUT)
            confirm = custom_id(preview, "himiko:seq:ok:")

            await env.restart()
            again = await (await env.play(player, table.id, sequence)).reply(TIMEOUT)
            assert custom_id(again, "himiko:seq:ok:") == confirm  # the same turn, a new message

            click = await double.click(player, table.id, preview.id, confirm)
            await click.wait_event("edit_original", TIMEOUT)
            assert "Your turn is over" in double.message(preview.id).content
            assert await env.current_user(table.id) == other.id

    run(body)
